"""nomain: a Python generator whose file lacks `if __name__ == "__main__": hl.main()` (isolation test):
run as a script it defines the generator and exits 0 without writing anything. Its pipeline must be
ERROR records saying so, and the other pipelines must build and run."""

import halide as hl


@hl.generator(name="nomain")
class NoMain:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        x, y = hl.Var("x"), hl.Var("y")
        g.output[x, y] = g.input[x, y] + 1
