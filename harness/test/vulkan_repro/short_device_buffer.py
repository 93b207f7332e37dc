"""Halide 21's Vulkan memory allocator hands out device buffers shorter than the image, or none, when the
driver reports a buffer's required size unrounded to its required alignment (lavapipe: size 33667,
alignment 64; the Vulkan spec allows it). A region split off a block shrinks by its remainder's
rounding: a 33700-byte u8 image gets a 33664-byte VkBuffer, and the last 36 bytes are lost (lavapipe
bounds-checks storage buffers: reads give 0, writes are dropped); a 257x131 u8 image (33667 bytes) gets a
region larger than its block, and "Failed to allocate device memory!". Mesa 22.3.6 and 25.0.7 alike.
The Khronos validation layer names it: VUID-vkCmdCopyBuffer-size-00115/00116 (the copy is larger than
the buffer). Fixed upstream after Halide 21 (halide/Halide#9223, #9224). The harness works around it
(harness/src/vulkan_runtime_shim.cpp); this JIT program has no such shim.

    HL_VK_DEVICE_TYPE=cpu python3 harness/test/vulkan_repro/short_device_buffer.py   # exit 1: reproduced
"""

import sys

import halide as hl
import numpy as np
from common import vk_target

x, y, xo, yo, xi, yi = [hl.Var(n) for n in "x y xo yo xi yi".split()]


def plus_one(shape):
    buf = hl.Buffer(hl.UInt(8), shape)
    np.asarray(buf)[:] = 7
    buf.set_host_dirty(True)
    f = hl.Func("plus_one")
    if len(shape) == 1:
        f[x] = buf[x] + 1
        f.gpu_tile(x, xo, xi, 64)
    else:
        f[x, y] = buf[x, y] + 1
        f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
    try:
        out = f.realize(shape, vk_target())
    except hl.HalideError as e:
        if "Failed to allocate device memory" in str(e):
            print("u8 %s on Vulkan: REPRODUCED: %s" % ("x".join(map(str, shape)), str(e).strip()))
            return 1
        raise
    out.copy_to_host()
    got = np.asarray(out)
    bad = np.argwhere(got != 8)
    if len(bad):
        print(
            "u8 %s on Vulkan: REPRODUCED: %d elements wrong, the first at %s (got %d, want 8)"
            % ("x".join(map(str, shape)), len(bad), tuple(int(v) for v in bad[0]), got[tuple(bad[0])])
        )
        return 1
    print("u8 %s on Vulkan: not reproduced" % "x".join(map(str, shape)))
    return 0


sys.exit(plus_one([33700]) | plus_one([257, 131]))
