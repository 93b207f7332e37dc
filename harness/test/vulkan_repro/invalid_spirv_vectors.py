"""Halide 21's SPIR-V backend emits invalid SPIR-V for a small vectorized kernel like bitonic_sort's mali
stages (vectorize(x, 4), a lane-parity select, GuardWithIf), three ways (spirv-val, and the Khronos
validation layer, which runs it):
  - two half vectors interleaved with OpCompositeInsert and four indices ("OpCompositeInsert has too many
    indices": lavapipe's spirv_to_nir rejects it); fixed upstream after Halide 21 (halide/Halide#9075);
  - a hoisted bool ((f.min.0 % 2) == 0) passed as OpTypeBool in the uniform argument block ("If OpTypeBool
    is stored in conjunction with OpVariable, it can only be used with non-externally visible shader
    Storage Classes");
  - OpIEqual on bool vectors ("Expected operands to be scalar or vector int: IEqual"; bool == bool).
lavapipe (Mesa 22.3.6 and 25.0.7) refuses the pipeline ("Failed to setup compute pipeline!"), NVIDIA 580
runs bitonic_sort's and returns zeros. Invalid input: neither driver is wrong.

    python3 harness/test/vulkan_repro/invalid_spirv_vectors.py    # exit 1: reproduced
"""

import sys

import halide as hl
import numpy as np
from common import compare

x, y, xo, yo, xi, yi = [hl.Var(n) for n in "x y xo yo xi yi".split()]
s = hl.Buffer(hl.Int(32), [64, 4])
np.asarray(s)[:] = np.random.default_rng(1).integers(-1000, 1000, (4, 64), dtype=np.int32)


def build(gpu):
    f = hl.Func("f")
    f[x, y] = hl.select(((x & 1) == 0) == ((x & 2) == 0), s[x, y], -s[x, y])
    if gpu:
        f.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4, hl.TailStrategy.GuardWithIf)
    return f


try:
    sys.exit(compare("a vectorized lane-parity select", build, [64, 4], [s]))
except hl.HalideError as e:
    if "Failed to setup compute pipeline" in str(e) or "Failed to create compute pipeline" in str(e):
        print("a vectorized lane-parity select: REPRODUCED:", str(e).strip().splitlines()[-1])
        sys.exit(1)
    raise
