// conv3x3_f16: 3x3 binomial convolution computed in half precision (f16), f32 in and out:
//   h(x, y)      = f16(input(x, y))                                  (clamped edges)
//   output(x, y) = f32(((((((( w00 h(x-1,y-1) + w01 h(x,y-1)) + w02 h(x+1,y-1)) + w10 h(x-1,y)) + ...)
//   weights {1 2 1; 2 4 2; 1 2 1} / 16 (exact in f16), products and sums rounded to f16 in that order.
// Built with FEATURES cl_half: OpenCL kernels use `half` arithmetic and need cl_khr_fp16; the spec
// lists it in required_extensions so that devices without it SKIP. CPU targets emulate f16 exactly.
#include "Halide.h"

namespace {

using namespace Halide;

class Conv3x3F16 : public Generator<Conv3x3F16> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in16(x, y) = cast<float16_t>(clamped(x, y));
        const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
        Expr sum;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                Expr term = cast<float16_t>(w[r][c] / 16.f) * in16(x + c - 1, y + r - 1);
                sum = sum.defined() ? sum + term : term;
            }
        }
        output(x, y) = cast<float>(sum);

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain loops, conversion inlined.
        } else if (s == "host") {
            // Strips of 32 rows in parallel, 16-wide vectors; each input pixel converted to f16 once,
            // into a sliding window of 3 rows per strip (in16), instead of once per tap (9 times).
            // x86 has no f16 arithmetic (f16c only converts), so every f16 add and multiply is an f32
            // op between two conversions: the loop is conversion-bound. Halide 21 JIT, 2-vCPU shared
            // VM (AVX2, f16c), 2026-11-23, 1920x1080, one thread, process CPU time: 4.6-4.9 ->
            // 3.7-3.9 ms (the window per strip without sliding, or 32-wide conversions: the same).
            // The sliding window also brings the result closer to the cpu golden (max 0.00098 vs
            // 0.00146 apart at 1080p). GuardWithIf: with the default ShiftInwards the last two strips
            // overlap and two threads write the same rows; the repeat check saw differing values on
            // a 16-core host (2026-11-23).
            output.split(y, yo, yi, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 16);
            in16.store_at(output, yo).compute_at(output, yi).vectorize(x, 16);
        } else if (s == "mali") {
            // Mali: 8 x f16 lanes per work-item (one 128-bit half8 op), 8x4 work-groups, the f16
            // conversions recomputed per tap in registers (no local memory).
            output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: 16x16 tiles, the converted f16 tile (18x18 halves) staged in local memory.
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            in16.compute_at(output, xo).gpu_threads(x, y);
        } else {
            throw CompileError("conv3x3_f16: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func in16{"in16"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Conv3x3F16, conv3x3_f16)
