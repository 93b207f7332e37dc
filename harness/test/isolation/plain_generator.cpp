// A plain generator (isolation test): a 3x1 blur of a clamped 8-bit input.
#include "Halide.h"
class Plain : public Halide::Generator<Plain> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        Var x, y;
        Func c = Halide::BoundaryConditions::repeat_edge(input);
        output(x, y) = Halide::cast<uint8_t>((Halide::cast<uint16_t>(c(x - 1, y)) + c(x, y) + c(x + 1, y)) / 3);
        output.vectorize(x, 16, TailStrategy::GuardWithIf);
    }
};
HALIDE_REGISTER_GENERATOR(Plain, plain)
