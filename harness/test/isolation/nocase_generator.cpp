// A generator no case can be made for (isolation test): its output is fixed at 16 columns and reads
// the input at the same columns, but the input is fixed at 8.
#include "Halide.h"
class NoCase : public Halide::Generator<NoCase> {
public:
    Input<Buffer<float, 1>> input{"input"};
    Output<Buffer<float, 1>> output{"output"};
    void generate() {
        Var x;
        output(x) = input(x) * 2;
        output.dim(0).set_bounds(0, 16);
        input.dim(0).set_bounds(0, 8);
    }
};
HALIDE_REGISTER_GENERATOR(NoCase, nocase)
