// tone_curve: video range [black, white] stretched to full range through a 256-entry LUT, written the
// way Halide's own apps write generators: estimates, a schedule chosen by the target, and a
// GeneratorParam called `schedule` with this team's own meaning (which the harness leaves alone).
// It has no spec: the harness derives its cases from the estimates and scalar defaults.
#include "Halide.h"

namespace {

using namespace Halide;

class ToneCurve : public Generator<ToneCurve> {
public:
    GeneratorParam<std::string> schedule{"schedule", "tiled"};  // "tiled" or "simple" (CPU only)

    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<uint8_t> black{"black", 16, 0, 64};
    Input<uint8_t> white{"white", 235, 128, 255};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        Var x("x"), y("y"), c("c"), i("i");
        Func lut("lut");
        Expr range = max(cast<int32_t>(white) - cast<int32_t>(black), 1);
        lut(i) = cast<uint8_t>(clamp((i - cast<int32_t>(black)) * 255 / range, 0, 255));
        output(x, y, c) = lut(cast<int32_t>(input(x, y, c)));

        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});

        lut.bound(i, 0, 256);
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi, io, ii;
            lut.compute_root().gpu_tile(i, io, ii, 64);
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 8);
        } else if (std::string(schedule) == "tiled") {
            lut.compute_root();
            output.vectorize(x, natural_vector_size<uint8_t>()).parallel(y);
        } else {
            lut.compute_root();
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ToneCurve, tone_curve)
