// scale: a float image through a smooth curve, times a gain. bisect_commit_test.sh edits the lines marked
// SLOWDOWN (a commit that adds a per-pixel check that never fires: many times slower, the same values) and
// RESULT (a commit that changes the values: a wrong result).
#include "Halide.h"

namespace {

using namespace Halide;

class Scale : public Generator<Scale> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Input<float> gain{"gain", 1.0f};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        Expr v = input(x, y);
        Expr extra = 0.0f;                                                         // SLOWDOWN
        output(x, y) = (sqrt(v * v + 1.0f) * exp(-0.01f * v * v) + extra) * gain;  // RESULT
        input.set_estimates({{0, 1024}, {0, 1024}});
        output.set_estimates({{0, 1024}, {0, 1024}});
        if (!get_target().has_gpu_feature()) {
            output.vectorize(x, 8).parallel(y);
        } else {
            Var xo, yo, xi, yi;
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Scale, scale)
