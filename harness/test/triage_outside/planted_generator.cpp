// An error planted in a middle stage on GPU targets only (triage_outside_test.sh): blur_x -> blur_y ->
// output, where blur_y adds 81 at (5,3) when the target has a GPU, so the output is 9 too high there.
#include "Halide.h"
class Planted : public Halide::Generator<Planted> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y"), xo, yo, xi, yi;
        Func clamped = Halide::BoundaryConditions::repeat_edge(input);
        Func blur_x("blur_x"), blur_y("blur_y");
        blur_x(x, y) = cast<uint16_t>(clamped(x - 1, y)) + clamped(x, y) + clamped(x + 1, y);
        Expr sum = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
        const bool gpu = get_target().has_gpu_feature();
        blur_y(x, y) = gpu ? select(x == 5 && y == 3, sum + 81, sum) : sum;
        output(x, y) = cast<uint8_t>(blur_y(x, y) / 9);
        if (gpu) {
            blur_x.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
            blur_y.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
            output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
        }
    }
};
HALIDE_REGISTER_GENERATOR(Planted, planted)
