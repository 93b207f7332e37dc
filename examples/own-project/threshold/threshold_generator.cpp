// threshold: a binary u8 mask, 255 where the pixel is above `level`, 0 elsewhere.
#include "Halide.h"

namespace {

using namespace Halide;

class Threshold : public Generator<Threshold> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<uint8_t> level{"level", 128};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        output(x, y) = select(input(x, y) > level, cast<uint8_t>(255), cast<uint8_t>(0));

        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8);
        } else {
            output.vectorize(x, natural_vector_size<uint8_t>()).parallel(y);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Threshold, threshold)
