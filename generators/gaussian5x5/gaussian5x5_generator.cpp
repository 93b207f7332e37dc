// gaussian5x5: separable 5x5 Gaussian blur of an f32 image, clamped (repeat-edge) borders.
//   blur_x(x, y) = sum_i w[i] * in(x + i - 2, y),   w = {1, 4, 6, 4, 1} / 16
//   output(x, y) = sum_j w[j] * blur_x(x, y + j - 2)
// Float stencil: the sums round differently across devices (FMA contraction, order), so the spec
// compares with AbsRel.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class Gaussian5x5 : public Generator<Gaussian5x5> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};
    GeneratorParam<int> per_thread{"per_thread", 0};  // host: > 0 = that many strips per thread  // host: 0 = chosen
                                                      // per call (host_strips.h)

    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        // Algorithm
        clamped = BoundaryConditions::repeat_edge(input);
        const float w[5] = {1 / 16.f, 4 / 16.f, 6 / 16.f, 4 / 16.f, 1 / 16.f};
        Expr sx = 0.f, sy = 0.f;
        for (int i = 0; i < 5; i++)
            sx += w[i] * clamped(x + i - 2, y);
        blur_x(x, y) = sx;
        for (int j = 0; j < 5; j++)
            sy += w[j] * blur_x(x, y + j - 2);
        output(x, y) = sy;

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            blur_x.store_root().compute_at(output, y);  // blur_x in a sliding window over rows
            break;
        case Schedule::Host: {
            // Strips in parallel, native f32 vectors, blur_x sliding per strip (16/64/128-row strips and 2x vectors
            // within noise). blur_x's new row and the output row in 256-column chunks (column_chunks), reads and stores
            // streaming together instead of in separate row loops: up to 10 % at 4096^2 (128 and 1024 columns slower).
            // 4096^2 is then at the DRAM limit of a store loop without non-temporal stores (Halide 21 emits none).
            // Strips per call (host_strips.h): 2 per thread where they are at most 96 rows (1080p on 16 threads: 26 %
            // faster than 8-row strips), else the tallest of 32/16/8 rows giving each thread 8.
            const int v = natural_vector_size<float>();
            const auto strips = [&](Stage s, const Expr &rows) {
                s.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo);
                column_chunks(s, output.dim(0).extent(), x, xo, xi, 256, v);
            };
            stencil_strips(output, output.dim(1).extent(), per_thread, strip_rows, {32, 16, 8}, strips);
            // always_partition(x): a strip where the split's guard or the top/bottom edge applies kept the repeat_edge
            // clamp in every lane of blur_x (gathers), 5x a whole strip's time.
            blur_x.store_at(output, yo).compute_at(output, xo).vectorize(x, v).always_partition(x);
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 4);  // 4 x f32; blur_x recomputed in registers, no local memory
            break;
        case Schedule::Gpu: {
            // 4 x 4 outputs per thread, its 8x8 input block and 4x8 blur_x rows computed into registers first (as
            // blur3x3), no local memory or barriers: 16384^2 47 -> 72 % of copy (opencl) on an H100; 4 x 8 per thread
            // slower.
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 4, false, 32, 8});
            clamped.compute_at(output, v.xi).unroll(clamped.args()[0]).unroll(clamped.args()[1]);
            blur_x.compute_at(output, v.xi).unroll(x).unroll(y);
            // Whole images specialised (zero_mins: 22 -> 13 kernel arguments) and, on OpenCL, the block loops never
            // partitioned (-> 11: the partition bounds are arguments too): 1920x1080 on an H200's OpenCL 22.3-25.4
            // -> 19.2-21.1 us a call (specialisation alone 20.5-22.7 us); 4096^2 and 16384^2 level.
            if (get_target().has_feature(Target::OpenCL)) output.never_partition_all();  // before: a specialisation
            output.specialize(zero_mins(input, output));                                 // copies the schedule
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func blur_x{"blur_x"}, clamped;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Gaussian5x5, gaussian5x5)
