"""lavapipe (Mesa 22.3.6, LLVM 15) computes a clamped (repeat_edge) read wrongly once the output's x loop
is split inside a GPU tile: out(x, y) = repeat_edge(input)(x, y), out.split(x, x, xv, 4).gpu_tile(x, y,
..., 8, 8). Nearly every element differs (blur3x3's gpu schedule reads zeros). The same SPIR-V is right
on NVIDIA's Vulkan driver (blur3x3/vulkan PASSes on the H100), and so is the same Func without the split
or without the clamp, here too.

    python3 harness/test/vulkan_repro/repeat_edge_split.py    # exit 1: reproduced (on lavapipe)
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


def build(gpu):
    out = hl.Func("out")
    out[x, y] = hl.BoundaryConditions.repeat_edge(inp)[x, y]
    if gpu:
        out.split(x, x, xv, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
    return out


sys.exit(compare("repeat_edge read with x split inside gpu_tile", build, [64, 48], [buf]))
