"""Halide 21's Vulkan backend cannot compile atomic updates: a histogram scheduled with .atomic() on
the GPU (hist_equalize's gpu and mali schedules) fails at compile time with "Atomic updates are not
supported inside Vulkan kernels". OpenCL and CUDA compile and run the same schedule.

    python3 harness/test/vulkan_repro/atomic_update.py    # exit 1: reproduced
"""

import sys

import halide as hl
from common import vk_target

x, xo, xi = hl.Var("x"), hl.Var("xo"), hl.Var("xi")
inp = hl.ImageParam(hl.UInt(8), 1, "input")
r = hl.RDom([(0, 1024)])
hist = hl.Func("hist")
hist[x] = 0
hist[hl.cast(hl.Int(32), inp[r.x])] += 1
hist.gpu_tile(x, xo, xi, 64)
hist.update().atomic().split(r.x, r.x, hl.RVar("ri"), 64).gpu_blocks(r.x).gpu_threads(hl.RVar("ri"))
try:
    hist.compile_jit(vk_target())
except hl.HalideError as e:
    if "Atomic updates are not supported inside Vulkan kernels" in str(e):
        print("atomic update on Vulkan: REPRODUCED:", str(e).strip().splitlines()[-1])
        sys.exit(1)
    raise
print("atomic update on Vulkan: not reproduced (it compiles)")
sys.exit(0)
