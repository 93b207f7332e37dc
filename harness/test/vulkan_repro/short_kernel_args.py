"""Halide 21's Vulkan allocator gives a kernel's scalar arguments a uniform buffer shorter than they are
once they pass 64 bytes (the driver reports a 72-byte buffer's required size as 72 with alignment 64;
the allocator's split shrinks the region to 64 bytes): the last arguments read as 0 on lavapipe, which
bounds-checks uniform reads. This is what broke every gpu schedule with more than 16 scalar arguments
(blur3x3's repeat_edge read with x split inside gpu_tile, gaussian5x5, sobel, unsharp_mask, matmul,
resize_bilinear, rgb_to_yuv: zeros or wrong values on lavapipe 22.3.6 and 25.0.7, right on NVIDIA).
The SPIR-V is valid (spirv-val) and right; the validation layer says nothing (the arguments are written
through a mapped pointer, the descriptor's range is VK_WHOLE_SIZE). Halide's runtime debug output shows
it: "vk_create_scalar_uniform_buffer (... scalar_buffer_size: 72)" then "Created buffer for device
region (64 bytes)". Fixed upstream after Halide 21 (halide/Halide#9223, #9224); the harness works around
it (harness/src/vulkan_runtime_shim.cpp), this JIT program does not.

    HL_VK_DEVICE_TYPE=cpu python3 harness/test/vulkan_repro/short_kernel_args.py   # exit 1: reproduced
"""

import sys

import halide as hl
import numpy as np
from common import compare

x, y, xo, yo, xi, yi, xv = [hl.Var(n) for n in "x y xo yo xi yi xv".split()]
buf = hl.Buffer(hl.UInt(8), [64, 48])
np.asarray(buf)[:] = np.random.default_rng(2).integers(1, 255, (48, 64), dtype=np.uint8)
inp = hl.ImageParam(hl.UInt(8), 2, "input")
inp.set(buf)


def build(gpu):  # 18 scalar arguments (72 bytes): input.stride.1 and input.min.1 come last
    out = hl.Func("out")
    out[x, y] = hl.BoundaryConditions.repeat_edge(inp)[x, y]
    if gpu:
        out.split(x, x, xv, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
    return out


sys.exit(compare("a kernel with 72 bytes of scalar arguments", build, [64, 48], [buf]))
