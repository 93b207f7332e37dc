// box_blur: a separable (2 radius + 1)^2 box blur of a float image with clamped edges, times a gain.
// Its JSON spec (box_blur.json) states the cases, the input values and the tolerance; the radius is
// a GeneratorParam that the CMakeLists.txt maps (PARAMS radius=2).
#include "Halide.h"

namespace {

using namespace Halide;

class BoxBlur : public Generator<BoxBlur> {
public:
    GeneratorParam<int> radius{"radius", 1, 1, 8};

    Input<Buffer<float, 2>> input{"input"};
    Input<float> gain{"gain", 1.0f};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        Func clamped = BoundaryConditions::repeat_edge(input);
        const int rad = radius;
        RDom r(-rad, 2 * rad + 1);
        Func blur_x("blur_x");
        blur_x(x, y) = sum(clamped(x + r, y));
        Func blur_y("blur_y");
        blur_y(x, y) = sum(blur_x(x, y + r));
        const float n = float((2 * rad + 1) * (2 * rad + 1));
        output(x, y) = blur_y(x, y) * (gain / n);

        input.set_estimates({{0, 1024}, {0, 768}});
        output.set_estimates({{0, 1024}, {0, 768}});

        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            blur_x.compute_at(output, xo).gpu_threads(x, y);
        } else {
            Var yo, yi;
            output.split(y, yo, yi, 16).parallel(yo).vectorize(x, 8);
            blur_x.compute_at(output, yi).vectorize(x, 8);
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxBlur, box_blur)
