"""sharpen: a 3x3 sharpening stencil on a grey 8-bit image, written as a Halide Python generator
(Halide 21's add_halide_generator(<target> SOURCES sharpen_generator.py)) the way Halide's apps write
them: estimates, a schedule chosen by the target, and no boundary condition (the output is the input's
interior: output(x, y) is centred on input(x + 1, y + 1), so the input is 2 pixels wider and taller).
It has no spec: the harness derives its cases from the metadata (the `estimate` case is 4096 x 4096,
its input 4098 x 4098 from the bounds query)."""

import halide as hl


@hl.generator(name="sharpen")
class Sharpen:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        x, y = hl.Var("x"), hl.Var("y")

        def at(dx, dy):
            return hl.i16(g.input[x + 1 + dx, y + 1 + dy])

        g.output[x, y] = hl.u8_sat(5 * at(0, 0) - at(-1, 0) - at(1, 0) - at(0, -1) - at(0, 1))

        g.input.set_estimates([(0, 4098), (0, 4098)])
        g.output.set_estimates([(0, 4096), (0, 4096)])
        if g.target().has_gpu_feature():
            xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
            g.output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8)
        else:
            g.output.vectorize(x, g.natural_vector_size(hl.UInt(8))).parallel(y, 16)


if __name__ == "__main__":
    hl.main()
