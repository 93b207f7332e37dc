// other: a pipeline bisect-commit must not build when it bisects scale (AOT_HARNESS_PIPELINES).
#include "Halide.h"

namespace {

using namespace Halide;

class Other : public Generator<Other> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        output(x, y) = input(x, y) * 2.0f;
        input.set_estimates({{0, 64}, {0, 48}});
        output.set_estimates({{0, 64}, {0, 48}});
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Other, other)
