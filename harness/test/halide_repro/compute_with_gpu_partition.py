"""Minimal reproducer: Halide 21 refuses two GPU outputs fused with compute_with at their thread loop.

The outputs read a repeat_edge'd input, so Halide partitions the fused block loops (a prologue and an
epilogue for the clamped edges); its GPU lowering then stops with "Unexpected construct inside if
statement". never_partition_all() on both outputs is the workaround sobel's gpu schedule uses. No GPU is
needed: the error is raised while compiling for host-opencl (and host-cuda). Halide 19.0.0 and 21.0.0 both
stop there ("Internal Error at src/PartitionLoops.cpp ... Unexpected construct inside if statement").
Exit 0 while the problem reproduces and the workaround compiles; 1 once Halide compiles the pair (drop the
workaround and this test) or the workaround stops compiling."""

import os
import sys
import tempfile

import halide as hl


def compile_pair(target: str, partition: bool, out_dir: str) -> str:
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    x, y, xo, yo, xi, yi = (hl.Var(n) for n in ("x", "y", "xo", "yo", "xi", "yi"))
    c = hl.BoundaryConditions.repeat_edge(inp)
    a, b = hl.Func("a"), hl.Func("b")
    a[x, y] = hl.f32(c[x + 1, y]) - hl.f32(c[x - 1, y])
    b[x, y] = hl.f32(c[x, y + 1]) - hl.f32(c[x, y - 1])
    for f in (a, b):
        f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, hl.TailStrategy.GuardWithIf)
        if not partition:
            f.never_partition_all()
    b.compute_with(a, xi)
    try:
        hl.Pipeline([a, b]).compile_to_static_library(os.path.join(out_dir, "pair"), [inp], "pair", hl.Target(target))
    except hl.HalideError as e:
        return str(e).splitlines()[0] if str(e) else type(e).__name__
    return ""


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        for target in ("host-opencl", "host-cuda"):
            if compile_pair(target, False, d):
                print(
                    f"{target}: the workaround (never_partition_all) fails to compile",
                    file=sys.stderr,
                )
                return 1
        errors = {t: compile_pair(t, True, d) for t in ("host-opencl", "host-cuda")}
    for t, e in errors.items():
        print(f"{t}: {'reproduced: ' + e if e else 'compiles'}")
    return 0 if all(errors.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
