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
            // Chunks of 32 rows (of the fused y*c) per parallel task, full native vectors of u8.
            // Memory-bound: one read, one write per byte. One row per task (the first schedule)
            // let the two threads interleave 4 KB rows, breaking each thread's sequential stream:
            // Halide 21 JIT, 2-vCPU shared VM (AVX2), 2026-11-23, median of 10 interleaved runs
            // at a quiet minute: 1920x1080x3 0.685 -> 0.371 ms, 4096x4096x3 7.5-9.1 -> 5.2-6.1 ms
            // (~19 GB/s, the speed of a 2-thread memcpy then). 8/16/64/256-row chunks were within
            // 5 % of 32; 2x natural vectors and unroll 2 were within noise. GuardWithIf: images
            // with fewer than 32 rows stay correct.
            output.fuse(y, c, yc)
                .split(yc, yo, yi, 32, TailStrategy::GuardWithIf)
                .parallel(yo)
                .vectorize(x, natural_vector_size<uint8_t>());
        } else if (s == "mali") {
            // Mali: 16 x u8 per work-item (one 128-bit vload/vstore), 8x4 work-groups, no local memory.
            output.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 8, 4).gpu_blocks(c);
        } else if (s == "gpu") {
            // Generic GPU: 4 bytes x 4 rows per thread, 32x8 threads per block; the thread's 4x4
            // input block is loaded into registers (input.in()) before anything is stored, and
            // the strides/mins are specialised to multiples of 4 so that OpenCL gets aligned uchar4
            // loads and stores (the generic path, e.g. odd widths, keeps vload4/vstore4).
            // H100, 16384^2 x 3, resident (2026-11-23, experiments in docs/evidence/h100/README.md):
            // the former schedule (16 B per thread, unaligned) took 2.56 ms opencl / 2.79 ms cuda,
            // 21 % / 19 % of the device copy: NVIDIA's OpenCL compiler turns an unaligned vload16
            // into 16 byte loads, and 32 lanes 16 bytes apart make every byte load touch 4 cache
            // lines. This schedule: opencl 0.55 ms (99 % of the copy), cuda 0.66 ms (83 %). cuda
            // stays behind because Halide's PTX backend emits byte-wide loads and stores for u8
            // vectors of external buffers (their host alignment is unknown), and without noalias
            // a load cannot move above an earlier store; loading the block first is what got it
            // from 79 % (same tiling, loads and stores interleaved per row) to 83 %. Tried: 16/8 B
            // per thread aligned (opencl 100 % / 92 %, cuda 19 % / 66 %), lanes 32 bytes apart
            // (opencl 85 %, cuda 49 %), 4 B x 8 rows (opencl 98 %, cuda 81 %), y and c fused (52 %).
            output.split(x, x, xv, 4)
                .split(y, y, yr, 4)
                .reorder(xv, yr, x, y, c)
                .vectorize(xv)
                .unroll(yr)
                .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
                .gpu_blocks(c);
            Func block = input.in();
            block.compute_at(output, xi).vectorize(block.args()[0]).unroll(block.args()[1]);
            output.specialize(input.dim(0).min() % 4 == 0 && input.dim(1).stride() % 4 == 0 &&
                              input.dim(2).stride() % 4 == 0 && output.dim(0).min() % 4 == 0 &&
                              output.dim(1).stride() % 4 == 0 && output.dim(2).stride() % 4 == 0);
        } else {
            throw CompileError("brighten: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yc{"yc"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yr{"yr"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Brighten, brighten)
