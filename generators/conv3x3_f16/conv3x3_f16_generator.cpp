// conv3x3_f16: 3x3 binomial convolution computed in half precision (f16), f32 in and out:
//   h(x, y)      = f16(input(x, y))                                  (clamped edges)
//   output(x, y) = f32(((((((( w00 h(x-1,y-1) + w01 h(x,y-1)) + w02 h(x+1,y-1)) + w10 h(x-1,y)) + ...)
//   weights {1 2 1; 2 4 2; 1 2 1} / 16 (exact in f16), products and sums rounded to f16 in that order.
// Built with FEATURES cl_half: OpenCL kernels use `half` arithmetic and need cl_khr_fp16; the spec
// lists it in required_extensions so that devices without it SKIP. CPU targets emulate f16 exactly.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class Conv3x3F16 : public Generator<Conv3x3F16> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};
    GeneratorParam<int> per_thread{"per_thread", 0};  // host: > 0 = that many strips per thread  // host: 0 = chosen
                                                      // per call (host_strips.h)

    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        // x86 has no f16 arithmetic before AVX512-FP16 (F16C only converts), so there the host variant
        // computes the convolution in f32 from the f16-rounded inputs and rounds the result to f16 once:
        // one vectorized conversion pair per input and per output pixel instead of one per operation
        // (max 0.0015 from the f16 golden at 1080p, the tolerance 0.002 + 0.002 |golden|).
        const Target t = get_target();
        const bool f32_math = schedule.value() == Schedule::Host && t.arch == Target::X86 &&
                              !t.has_feature(Target::AVX512_SapphireRapids);
        // In f32 the kernel is applied separably (1 2 1 rows, then 1 2 1 of the row sums, / 16).
        const float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
        Expr sum;
        if (f32_math) {
            in16(x, y) = cast<float>(cast<float16_t>(clamped(x, y)));
            rows(x, y) = in16(x - 1, y) + 2.f * in16(x, y) + in16(x + 1, y);
            sum = (rows(x, y - 1) + 2.f * rows(x, y) + rows(x, y + 1)) * (1.f / 16.f);
        } else {
            in16(x, y) = cast<float16_t>(clamped(x, y));
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    Expr term = cast<float16_t>(w[r][c] / 16.f) * in16(x + c - 1, y + r - 1);
                    sum = sum.defined() ? sum + term : term;
                }
            }
        }
        output(x, y) = cast<float>(cast<float16_t>(sum));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, conversion inlined
        case Schedule::Host: {
            // Strips in parallel, each input pixel converted once into a 3-row sliding window (not once per tap);
            // separable f32 math on x86 (above), the row sums sliding: 0.55x -> 1.10x OpenCV at 1080p. The new row sums
            // and the output row in 256-column chunks (column_chunks, as gaussian5x5): about 8 % at 4096^2. Strips per
            // call (host_strips.h): 2 per thread where they are at most 96 rows (1080p on 16 threads: 23 % faster than
            // 8-row strips), else the tallest of 32/16/8 rows giving each thread 8.
            const auto strips = [&](Stage s, const Expr &rows) {
                s.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo);
                column_chunks(s, output.dim(0).extent(), x, xo, xi, 256, 16);
            };
            stencil_strips(output, output.dim(1).extent(), per_thread, strip_rows, {32, 16, 8}, strips);
            // always_partition(x): the guarded last strip kept the repeat_edge clamp in every lane, twice a whole
            // strip's time.
            if (f32_math) {
                rows.store_at(output, yo).compute_at(output, xo).vectorize(x, 16).always_partition(x);  // each row sum
                                                                                                        // once
            } else {
                in16.store_at(output, yo).compute_at(output, xo).vectorize(x, 16).always_partition(x);
            }
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 8);  // 8 x f16 (one half8 op); conversions per tap in registers
            break;
        case Schedule::Gpu:
            // 16x16 tiles, the converted 18x18 f16 tile staged in local memory (not measured against other schedules).
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            in16.compute_at(output, xo).gpu_threads(x, y);
            break;
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func in16{"in16"}, rows{"rows"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Conv3x3F16, conv3x3_f16)
