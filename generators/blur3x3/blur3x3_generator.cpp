// blur3x3: separable 3x3 box blur of a u8 image with clamped (repeat-edge) borders.
//   sum_x(x, y)  = in(x-1, y) + in(x, y) + in(x+1, y)              (u16)
//   output(x, y) = (sum_x(x, y-1) + sum_x(x, y) + sum_x(x, y+1) + 4) / 9   (rounded mean, u8)
#include "Halide.h"

namespace {

using namespace Halide;

class Blur3x3 : public Generator<Blur3x3> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func in16("in16");
        in16(x, y) = cast<uint16_t>(clamped(x, y));
        sum_x(x, y) = in16(x - 1, y) + in16(x, y) + in16(x + 1, y);
        output(x, y) = cast<uint8_t>((sum_x(x, y - 1) + sum_x(x, y) + sum_x(x, y + 1) + 4) / 9);

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Sliding window over rows: each row sum computed once, no vectors, no threads.
            sum_x.store_root().compute_at(output, y);
        } else if (s == "host") {
            // Strips of 32 rows in parallel, row sums kept in a sliding window per strip (Halide
            // folds it), and 4 output rows per pass over x, unrolled: the rows share the loads and
            // pair sums of their row sums (6 loads + 4 adds for 2 rows become 4 + 3): fewer
            // instructions per pixel. In pipeline-benchmarks: 61 % of copy bandwidth at 4096^2
            // (66-68 % at a quiet minute), 4.2x cv::blur; below the 80 % target, see
            // benchmarks/RESULTS.md for why. Measured on the 2-core shared VM (AVX2,
            // Halide 21 JIT, 2026-11-23, min of 10 interleaved runs): 1920x1080 0.69 -> 0.49 ms,
            // 4096x4096 2.49 -> 2.07 ms (quiet moment; 5.2 -> 4.5 ms under load); in cache
            // (1024x256, one thread) 0.139 -> 0.045 ms. Before (one row per pass, same strips):
            // ~20 AVX2 instructions per 32 pixels in each loop, ~1.5-1.7 Gpix/s per core.
            // Tried, within noise: strips of 4/8/16/64/128 rows, 2 rows per pass (0.51 ms), strips
            // of 64 (0.48 ms), row sums per strip without sliding, row sums inlined, 2x wider
            // row-sum vectors; column tiles of 512/1024 with the window per tile were 3x slower.
            // At a quiet minute, 4096^2, all 1.99-2.07 ms: 8 rows per pass, strips of 64, input
            // prefetch in x (64/256) or y (2/4); column tiles of 1024/2048 3.0-3.2 ms.
            const int v = natural_vector_size<uint16_t>();
            output.split(y, yo, yi, 32)
                .split(yi, yi, yii, 4)
                .reorder(yii, x, yi, yo)
                .unroll(yii)
                .parallel(yo)
                .vectorize(x, 2 * v);
            sum_x.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
        } else if (s == "mali") {
            // Mali: 8 x u16 lanes per work-item (128-bit), 8x4 work-groups; the row sums are
            // recomputed in registers instead of staged through local memory.
            output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: 4 x 8 outputs per thread, 32x8 threads per block; the thread's 6x10
            // input block (in16) and its 4x10 row sums are computed first, into registers (all
            // loops unrolled, so every index is a constant), then the 32 outputs are stored.
            // H100, 16384^2, resident (2026-11-23, experiments in docs/evidence/h100/README.md):
            // the former schedule (8 outputs per thread, unaligned 8-wide loads) took 0.43 ms
            // opencl / 0.45 ms cuda (45 % / 42 % of the device copy); this one 0.30 ms opencl
            // (63 %) / 0.27 ms cuda (71 %). Loading first matters most for cuda, whose PTX keeps
            // byte-wide loads in program order behind earlier stores (no noalias). Tried: 8 or 16
            // aligned lanes per thread (opencl 49 % / 31 %), 8x8 per thread with the row sums
            // sliding (51 %; in a folded array that cuda puts in local memory), 1 or 2 columns of
            // 8-16 rows per thread, lanes 32 apart (49-60 %), 4x16 per thread (opencl 67 %, cuda
            // 31 %), 8x8 (opencl 48 %, cuda 26 %).
            output.split(x, x, xv, 4)
                .split(y, y, yr, 8)
                .reorder(xv, yr, x, y)
                .unroll(xv)
                .unroll(yr)
                .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
            in16.compute_at(output, xi).unroll(x).unroll(y);
            sum_x.compute_at(output, xi).unroll(x).unroll(y);
        } else {
            throw CompileError("blur3x3: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, yii{"yii"}, xv{"xv"}, yr{"yr"};
    Func sum_x{"sum_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Blur3x3, blur3x3)
