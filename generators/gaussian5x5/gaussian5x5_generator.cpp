// gaussian5x5: separable 5x5 Gaussian blur of an f32 image, clamped (repeat-edge) borders.
//   blur_x(x, y) = sum_i w[i] * in(x + i - 2, y),   w = {1, 4, 6, 4, 1} / 16
//   output(x, y) = sum_j w[j] * blur_x(x, y + j - 2)
// Float stencil: the sums round differently across devices (FMA contraction, order), so the spec
// compares with AbsRel.
#include "Halide.h"

namespace {

using namespace Halide;

class Gaussian5x5 : public Generator<Gaussian5x5> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        const float w[5] = {1 / 16.f, 4 / 16.f, 6 / 16.f, 4 / 16.f, 1 / 16.f};
        Expr sx = 0.f, sy = 0.f;
        for (int i = 0; i < 5; i++) sx += w[i] * clamped(x + i - 2, y);
        blur_x(x, y) = sx;
        for (int j = 0; j < 5; j++) sy += w[j] * blur_x(x, y + j - 2);
        output(x, y) = sy;

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain loops; blur_x in a sliding window over rows (no vectors, no threads).
            blur_x.store_root().compute_at(output, y);
        } else if (s == "host") {
            // Strips of 32 rows in parallel, 8-wide f32 vectors, blur_x sliding within a strip.
            const int v = natural_vector_size<float>();
            // GuardWithIf: with the default ShiftInwards the last two strips overlap and two threads
            // write the same rows; the repeat check saw differing values on a 16-core host (2026-11-23).
            output.split(y, yo, yi, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, v);
            blur_x.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
        } else if (s == "mali") {
            // Mali: 4 x f32 lanes per work-item (128-bit vload/vstore), 8x4 work-groups, blur_x
            // recomputed in registers (5 extra taps per output row) rather than staged in local memory.
            output.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: 16x16 tiles; the (16+0)x(16+4) blur_x tile is staged in local memory.
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            blur_x.compute_at(output, xo).gpu_threads(x, y);
        } else {
            throw CompileError("gaussian5x5: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func blur_x{"blur_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Gaussian5x5, gaussian5x5)
