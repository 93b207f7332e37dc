// unsharp_mask: a multi-stage u8 pipeline (clamped edges):
//   blur_x(x, y)  = in(x-2) + 4 in(x-1) + 6 in(x) + 4 in(x+1) + in(x+2)                  (u16)
//   blur_y(x, y)  = (blur_x(y-2) + 4 blur_x(y-1) + 6 blur_x(y) + 4 blur_x(y+1) + blur_x(y+2) + 128) >> 8
//   output(x, y)  = clamp(in + ((in - blur_y) * amount + 8) >> 4, 0, 255)    amount: Q4 (16 = 1.0)
// The intermediates are materialised (portable, mali) or fused into tiles (host, gpu): the same
// integers either way. >> of a negative difference is an arithmetic (floor) shift.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class UnsharpMask : public Generator<UnsharpMask> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};
    GeneratorParam<int> per_thread{"per_thread", 0};  // host: > 0 = that many strips per thread  // host: 0 = chosen
                                                      // per call (host_strips.h)

    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<uint8_t> amount{"amount"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in16(x, y) = cast<uint16_t>(clamped(x, y));
        blur_x(x, y) = in16(x - 2, y) + 4 * in16(x - 1, y) + 6 * in16(x, y) + 4 * in16(x + 1, y) + in16(x + 2, y);
        Expr sum_y = cast<int32_t>(blur_x(x, y - 2)) + 4 * cast<int32_t>(blur_x(x, y - 1)) +
                     6 * cast<int32_t>(blur_x(x, y)) + 4 * cast<int32_t>(blur_x(x, y + 1)) +
                     cast<int32_t>(blur_x(x, y + 2));
        blur_y(x, y) = (sum_y + 128) >> 8;
        Expr v = cast<int32_t>(clamped(x, y));
        Expr sharpened = v + (((v - blur_y(x, y)) * cast<int32_t>(amount) + 8) >> 4);
        output(x, y) = cast<uint8_t>(clamp(sharpened, 0, 255));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        amount.set_estimate(24);
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            blur_x.compute_root();  // every stage materialised over the whole image (big intermediates)
            blur_y.compute_root();
            break;
        case Schedule::Host: {
            // Fused: strips in parallel, blur_x sliding per strip, blur_y inlined: 1.4-1.9x OpenCV on 2 cores.
            // GuardWithIf: no strip overlaps another's rows.
            // Strips per call (host_strips.h): 2 per thread where they are at most 96 rows (1080p on 16 threads: 25 %
            // faster than 8-row strips, 35 % faster than 32-row strips), else the tallest of 32/16/8 rows giving each
            // thread 8.
            // always_partition(x): the guarded last strip kept the repeat_edge clamp in every lane (gathers), 7x a
            // whole strip's time (task-times).
            const auto strips = [&](Stage s, const Expr &rows) {
                s.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 16).always_partition(x);
            };
            stencil_strips(output, output.dim(1).extent(), per_thread, strip_rows, {32, 16, 8}, strips);
            blur_x.store_at(output, yo).compute_at(output, yi).vectorize(x, 16).always_partition(x);
            break;
        }
        case Schedule::Mali:
            // blur_x and blur_y materialised in global memory (no local memory), 8 x 16-bit per work-item.
            mali_work_items(blur_x.compute_root(), x, y, 8);
            mali_work_items(blur_y.compute_root(), x, y, 8);
            mali_work_items(output, x, y, 8);
            break;
        case Schedule::Gpu: {
            // 4 x 4 outputs per thread, its 8x8 input block (in16) and 4x8 blur_x rows computed into registers first
            // (as blur3x3), blur_y inlined, no local memory or barriers: 16384^2 15 -> 52 % of copy (opencl) on an
            // H100; 4 x 8 per thread slower.
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 4, false, 32, 8});
            in16.compute_at(output, v.xi).unroll(x).unroll(y);
            blur_x.compute_at(output, v.xi).unroll(x).unroll(y);
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func in16{"in16"}, blur_x{"blur_x"}, blur_y{"blur_y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(UnsharpMask, unsharp_mask)
