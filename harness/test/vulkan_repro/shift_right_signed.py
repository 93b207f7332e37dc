"""Halide 21's SPIR-V backend shifts signed integers right logically instead of arithmetically when
the shift amount varies per lane (int_edges: s >> (x % 16)) and when a signed vector is shifted by a
constant (unsharp_mask's mali schedule: (d * amount + 8) >> 4, vectorized). Negative values come back as
large positive ones. Cause (src/CodeGen_Vulkan_Dev.cpp, Call::shift_right): lower_signed_shift_right
turns the amount unsigned, and an unsigned amount selects OpShiftRightLogical whatever the value's
signedness (a scalar shift by a constant takes another path and is right). The SPIR-V is valid; the
program asks for a logical shift, so every driver computes it: lavapipe (Mesa 22.3.6, 25.0.7) and NVIDIA
580.159.04 alike. The same Funcs are right on the CPU, OpenCL and CUDA. Still so on Halide's main branch.

    python3 harness/test/vulkan_repro/shift_right_signed.py    # exit 1: reproduced
"""

import sys

import halide as hl
import numpy as np
from common import compare

x, y, xo, yo, xi, yi = [hl.Var(n) for n in "x y xo yo xi yi".split()]
s = hl.Buffer(hl.Int(32), [64, 4])
np.asarray(s)[:] = np.random.default_rng(1).integers(-1000, 1000, (4, 64), dtype=np.int32)


def by_lane(gpu):  # scalar kernel, per-lane shift amount
    f = hl.Func("by_lane")
    f[x, y] = s[x, y] >> hl.cast(hl.Int(32), x % 8)
    if gpu:
        f.gpu_tile(x, y, xo, yo, xi, yi, 8, 4)
    return f


def vector_by_constant(gpu):  # 4-wide vectors (valid SPIR-V), constant shift amount
    f = hl.Func("vector_by_constant")
    f[x, y] = s[x, y] >> 4
    if gpu:
        f.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4)
    return f


failed = compare("signed >> per-lane amount", by_lane, [64, 4], [s])
failed |= compare("signed vector >> constant", vector_by_constant, [64, 4], [s])
sys.exit(failed)
