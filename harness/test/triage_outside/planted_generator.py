"""planted_py: planted_generator.cpp's pipeline as a Python generator (triage_outside_test.sh):
blur_x -> blur_y -> output, where blur_y adds 81 at (5,3) when the target has a GPU."""

import halide as hl


@hl.generator(name="planted_py")
class PlantedPy:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        x, y = hl.Var("x"), hl.Var("y")
        xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
        clamped = hl.BoundaryConditions.repeat_edge(g.input)
        blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
        blur_x[x, y] = hl.u16(clamped[x - 1, y]) + clamped[x, y] + clamped[x + 1, y]
        total = blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]
        gpu = g.target().has_gpu_feature()
        blur_y[x, y] = hl.select((x == 5) & (y == 3), total + 81, total) if gpu else total
        g.output[x, y] = hl.u8(blur_y[x, y] / 9)
        if gpu:
            blur_x.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
            blur_y.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
            g.output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)


if __name__ == "__main__":
    hl.main()
