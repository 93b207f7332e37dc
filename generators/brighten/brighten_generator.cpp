// brighten: u8 elementwise gain + offset with saturation, on a planar 3-channel image.
//   output(x, y, c) = clamp(((input(x, y, c) * gain + 8) >> 4) + offset, 0, 255)
// gain is Q4 fixed point (16 = 1.0); offset is signed. Memory-bound: one read, one write per pixel.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class Brighten : public Generator<Brighten> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};
    GeneratorParam<int> per_thread{"per_thread", 0};  // host: > 0 = that many strips per thread  // host: 0 = chosen
                                                      // per call (host_strips.h)

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

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops: the golden reference variant
        case Schedule::Host: {
            // 32-row chunks of the fused y*c per task, not one row: 4096^2 x 3 on 2 cores 7.5-9.1 -> 5.2-6.1 ms.
            // GuardWithIf: images of fewer than 32 rows stay correct. No other height measured better on 16 or on 2
            // threads: one height.
            // one height.
            output.fuse(y, c, yc);
            const auto strips = [&](Stage s, const Expr &rows) {
                s.split(yc, yo, yi, rows, TailStrategy::GuardWithIf)
                    .parallel(yo)
                    .vectorize(x, natural_vector_size<uint8_t>());
            };
            const Expr rows = output.dim(1).extent() * output.dim(2).extent();
            if (per_thread > 0)
                strips_per_thread(output, rows, per_thread, 8, strips);
            else
                strips_by_threads(output, rows, strip_heights(strip_rows, {32}), 4, strips);
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 16);  // 16 x u8: one 128-bit vload/vstore per work-item
            output.gpu_blocks(c);
            break;
        case Schedule::Gpu: {
            // 4 B x 4 rows per thread, block loaded first, strides specialised to multiples of 4 (aligned uchar4):
            // 16384^2 x 3 opencl 2.56 -> 0.55 ms (21 -> 99 % of copy) on an H100.
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 4, true, 32, 8});
            output.gpu_blocks(c);
            Func block = input.in();
            block.compute_at(output, v.xi).vectorize(block.args()[0]).unroll(block.args()[1]);
            // With 16 bytes of declared host alignment (gpu_aligned_rows) the specialisation's loads and stores are
            // 32-bit on CUDA too, not bytes: 16384^2 cuda 64 -> 80 % of copy; OpenCL's uchar4 was aligned before.
            output.specialize(gpu_aligned_rows(4, input, output));
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yc{"yc"}, yo{"yo"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Brighten, brighten)
