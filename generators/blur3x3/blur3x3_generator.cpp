// blur3x3: separable 3x3 box blur of a u8 image with clamped (repeat-edge) borders.
//   sum_x(x, y)  = in(x-1, y) + in(x, y) + in(x+1, y)              (u16)
//   output(x, y) = (sum_x(x, y-1) + sum_x(x, y) + sum_x(x, y+1) + 4) / 9   (rounded mean, u8)
#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class Blur3x3 : public Generator<Blur3x3> {
public:
    ScheduleParam schedule;

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in16(x, y) = cast<uint16_t>(clamped(x, y));
        sum_x(x, y) = in16(x - 1, y) + in16(x, y) + in16(x + 1, y);
        output(x, y) = cast<uint8_t>((sum_x(x, y - 1) + sum_x(x, y) + sum_x(x, y + 1) + 4) / 9);

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            sum_x.store_root().compute_at(output, y);  // sliding window over rows: each row sum once
            break;
        case Schedule::Host: {
            // 32-row strips in parallel, row sums sliding per strip, 4 output rows per pass sharing their row sums:
            // 1080p on 2 cores 0.69 -> 0.49 ms.
            const int v = natural_vector_size<uint16_t>();
            output.split(y, yo, yi, 32)
                .split(yi, yi, yii, 4)
                .reorder(yii, x, yi, yo)
                .unroll(yii)
                .parallel(yo)
                .vectorize(x, 2 * v);
            sum_x.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 8);  // 8 x u16 (128-bit); row sums recomputed in registers
            break;
        case Schedule::Gpu: {
            // 4 x 8 outputs per thread in blocks of 64 x 4 threads, each thread's 6x10 input block and row sums in
            // registers first: 16384^2 70 % of the device copy on an H100 (the first such schedule: 61 %). Other block
            // shapes, outputs per thread and row sums sliding down the rows measured level or slower.
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 8, true, 64, 4});
            in16.compute_at(output, v.xi).unroll(x).unroll(y);
            sum_x.compute_at(output, v.xi).unroll(x).unroll(y);
            // Rows at multiples of 4 with 16 bytes of declared host alignment: each row's 4 outputs are one 32-bit
            // store instead of 4 byte stores (Halide 21 aligns a vector store no further than the buffer's
            // host_alignment), 5-7 % faster at 16384^2. Not kept: the input block as aligned words (align_bounds(x, 4)
            // on in16 turns its registers into a local-memory array).
            // Whole images first (zero_mins: 22 -> 13 kernel arguments, each a cost per OpenCL launch): 1920x1080 on
            // an H200's OpenCL 0.0219-0.0228 -> 0.0198-0.0204 ms a call; 4096^2 and 16384^2 level.
            const Expr aligned = gpu_aligned_rows(4, output);
            output.specialize(aligned && zero_mins(input, output));
            output.specialize(aligned);
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"}, yii{"yii"};
    Func sum_x{"sum_x"}, in16{"in16"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Blur3x3, blur3x3)
