// brighten: u8 elementwise gain + offset with saturation, on a planar 3-channel image.
//   output(x, y, c) = clamp(((input(x, y, c) * gain + 8) >> 4) + offset, 0, 255)
// gain is Q4 fixed point (16 = 1.0); offset is signed. Memory-bound: one read, one write per pixel.
#include "Halide.h"

namespace {

using namespace Halide;

class Brighten : public Generator<Brighten> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<uint8_t> gain{"gain"};
    Input<int16_t> offset{"offset"};

    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        // Algorithm
        Expr scaled = (cast<int32_t>(input(x, y, c)) * cast<int32_t>(gain) + 8) >> 4;
        output(x, y, c) = cast<uint8_t>(clamp(scaled + cast<int32_t>(offset), 0, 255));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        gain.set_estimate(20);
        offset.set_estimate(-10);
        output.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain loops: the golden reference variant.
        } else if (s == "host") {
            // Rows in parallel, full native vectors of u8. Memory-bound: one read, one write per byte.
            // Measured on the 2-core shared VM (AVX2, Halide 21, 2026-11-23, median of 5):
            // 1920x1080x3 ~0.75-1.2 ms (>=100% of copy bw: 12 MB stays partly in L3),
            // 4096x4096x3 ~7.3-12 ms (~80% of copy bw), 1.26-1.33x cv::convertTo. Tried and
            // within noise (+-5%): 2x natural vectors (0.79 vs 0.74 ms at 1080p), 8-64-row chunks
            // per task (0.71-0.77 ms), unroll 2 (0.69 ms): kept the simplest.
            output.fuse(y, c, yc).parallel(yc).vectorize(x, natural_vector_size<uint8_t>());
        } else if (s == "mali") {
            // Mali: 16 x u8 per work-item (one 128-bit vload/vstore), 8x4 work-groups, no local memory.
            output.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 8, 4).gpu_blocks(c);
        } else if (s == "gpu") {
            // Generic GPU: one pixel per thread, 16x16 blocks.
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16).gpu_blocks(c);
        } else {
            throw CompileError("brighten: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yc{"yc"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Brighten, brighten)
