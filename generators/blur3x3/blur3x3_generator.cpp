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

        // Schedule (one measured line per decision; the experiments: benchmarks/RESULTS.md, "Schedule log")
        switch (schedule.value()) {
        case Schedule::Portable:
            sum_x.store_root().compute_at(output, y);  // sliding window over rows: each row sum once
            break;
        case Schedule::Host: {
            // 32-row strips in parallel, row sums sliding per strip, 4 output rows per pass sharing their
            // row sums: 4096^2 2.49 -> 2.07 ms, 1080p 0.69 -> 0.49 ms (AVX2 VM, 2026-11-23).
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
            // 4 x 8 outputs per thread, its 6x10 input block and row sums in registers first: H100 opencl 4096^2
            // 0.042 -> 0.039 ms, 16384^2 0.321 -> 0.271 ms (61 -> 70 % of copy); cuda 0.031 -> 0.029 ms, 0.263 ->
            // 0.264 ms (issue 27 round 1, 2026-11-25). Blocks of 64 x 4 threads (256 x 32 pixels) instead of
            // 32 x 8 (128 x 64): 16384^2 opencl 0.285 -> 0.268 ms (68 -> 71 % of copy, 0.97 -> 1.03x NPP), cuda
            // 0.266 -> 0.263 ms; 4096^2 0.040 / 0.029 ms either way (H100, round 5, 17:37 UTC); on the H100 of
            // round 6 (17:50 UTC) 16384^2 opencl 0.286 ms (0.98x NPP), cuda 0.265 ms (1.06x). Not kept (rounds
            // 4-5, 16:57-17:37 UTC, benchmarks/h100/issue27/gpu_round4-5/): 128 x 2 and 256 x 1 threads, 32 x 32,
            // 4 x 4 or 8 x 4 or 16 x 4 per thread, row sums sliding down 8 or 16 rows per thread (fewer live
            // registers): level or slower. Without a declared host alignment every u8 store is a byte store in the
            // PTX (st.global.b8; Halide 21 aligns a vector store no further than the buffer's host_alignment,
            // CodeGen_LLVM.cpp): the specialisation below declares it (the harness's buffers are 128-byte aligned).
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 8, true, 64, 4});
            in16.compute_at(output, v.xi).unroll(x).unroll(y);
            sum_x.compute_at(output, v.xi).unroll(x).unroll(y);
            // Rows at multiples of 4 with 16 bytes of declared host alignment: each row's 4 outputs one 32-bit
            // store (st.global.b32 / an aligned uchar4) instead of 4 byte stores: H200 16384^2 opencl 0.238-0.253 ->
            // 0.223-0.237 ms (57-59 -> 60-63 % of copy), cuda 0.232-0.237 -> 0.218-0.223 ms; 4096^2 opencl 0.028-0.037
            // -> 0.027-0.035 ms, cuda 0.022-0.028 -> 0.020-0.027 (two rounds, A/B in one binary, issue 27,
            // benchmarks/h200/issue27/round1-2/). Not kept: the input block as aligned words (align_bounds(x, 4)
            // on in16: its registers become a local-memory array indexed by x's remainder).
            output.specialize(gpu_aligned_rows(4, output));
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
