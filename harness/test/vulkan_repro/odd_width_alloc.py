"""lavapipe (Mesa 22.3.6) fails Halide 21's device allocation ("Vulkan: Failed to allocate device memory!",
error -16) for u8 images whose width is not a multiple of 4 (257x131, 257x132, 451x300), while
256x131 and 1920x1080 work: every `odd` and `photo` case of the 8-bit pipelines is an ERROR there.
NVIDIA's Vulkan driver runs the same cases (PASS on the H100).

    python3 harness/test/vulkan_repro/odd_width_alloc.py    # exit 1: reproduced (on lavapipe)
"""
import sys

import halide as hl
import numpy as np
from common import vk_target

x, y, xo, yo, xi, yi = [hl.Var(n) for n in "x y xo yo xi yi".split()]
buf = hl.Buffer(hl.UInt(8), [257, 131])
np.asarray(buf)[:] = 7
buf.set_host_dirty(True)
f = hl.Func("plus_one")
f[x, y] = buf[x, y] + 1
f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
try:
    out = f.realize([257, 131], vk_target())
except hl.HalideError as e:
    if "Failed to allocate device memory" in str(e):
        print("u8 257x131 on Vulkan: REPRODUCED:", str(e).strip())
        sys.exit(1)
    raise
out.copy_to_host()
ok = bool((np.asarray(out) == 8).all())
print("u8 257x131 on Vulkan: not reproduced" + ("" if ok else " (but the values are wrong)"))
sys.exit(0 if ok else 1)
