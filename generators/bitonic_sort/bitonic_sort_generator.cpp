// bitonic_sort: sorts every row of an i32 image ascending with a bitonic network of 2^log2_n lanes
// (rows up to 256 long by default; shorter rows are padded with INT32_MAX, which sorts last).
//   stage_0(x, y) = x < width ? input(x, y) : INT32_MAX
//   for k = 2, 4, ..., n; for j = k/2, ..., 1:                 (36 stages for n = 256)
//     p = x ^ j;  up = (x & k) == 0;  low = (x & j) == 0
//     stage(x, y) = low == up ? min(prev(x, y), prev(p, y)) : max(prev(x, y), prev(p, y))
//   output(x, y) = last stage(x, y), x < width
// On a GPU every stage exchanges values between work-items: the `gpu` schedule keeps a row in
// workgroup memory with a barrier per stage (seed 002's "needs workgroup memory").
#include <cstdint>
#include <limits>

#include "Halide.h"

namespace {

using namespace Halide;

class BitonicSort : public Generator<BitonicSort> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    GeneratorParam<int> log2_n{"log2_n", 8, 1, 10};

    Input<Buffer<int32_t, 2>> input{"input"};
    Output<Buffer<int32_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        const int n = 1 << int(log2_n);
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func first("stage_0");
        first(x, y) = select(x < input.dim(0).extent(), clamped(x, y), std::numeric_limits<int32_t>::max());
        stages.push_back(first);
        for (int k = 2; k <= n; k *= 2) {
            for (int j = k / 2; j >= 1; j /= 2) {
                Func prev = stages.back();
                Func next("stage_" + std::to_string(stages.size()));
                Expr mine = prev(x, y), other = prev(clamp(x ^ j, 0, n - 1), y);
                Expr keep_min = ((x & j) == 0) == ((x & k) == 0);
                next(x, y) = select(keep_min, min(mine, other), max(mine, other));
                stages.push_back(next);
            }
        }
        output(x, y) = stages.back()(x, y);

        // Estimates
        input.set_estimates({{0, n}, {0, 4096}});
        output.set_estimates({{0, n}, {0, 4096}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // One row at a time, every stage a plain loop over the row.
            for (Func &f : stages) f.compute_at(output, y);
        } else if (s == "host") {
            // Blocks of 16 rows in parallel; every stage of a block stored with y innermost
            // (reorder_storage) and vectorized over the 16 rows: the partner prev(x ^ j, y..y+15) is
            // then one dense 16-lane load instead of a 16-lane gather (x ^ j is not a ramp to Halide),
            // and the keep-min condition is one scalar per x. The transposes are paid once, in
            // stage_0 (gathered from the x-innermost input) and in the output (scattered stores).
            // Halide 21 JIT, 2-vCPU shared VM (AVX2), 2026-11-23, 256x4096, one thread, process
            // CPU time: 26.6 ms (the previous schedule: rows in parallel, each stage 8 lanes of x
            // with gathered partners) -> 7.5 ms; 8-row blocks 10.7 ms, 32-row blocks the same as 16.
            // cv::sort (std::sort per row) took 32-37 ms on one thread. GuardWithIf: a last block of
            // fewer than 16 rows writes only its rows; its stages compute whole blocks (reading
            // repeat_edge rows past the end).
            output.split(y, yo, yi, 16, TailStrategy::GuardWithIf).reorder(yi, x, yo).parallel(yo).vectorize(yi);
            for (Func &f : stages) f.compute_at(output, yo).reorder_storage(y, x).reorder(y, x).vectorize(y, 16);
        } else if (s == "mali") {
            // Mali: no local memory, so every stage is its own kernel over global memory (36 passes):
            // 4 x i32 lanes per work-item (one 128-bit load of `mine`, partners gathered), 8x4
            // work-groups. Costs bandwidth, relies on nothing but global memory.
            for (Func &f : stages) {
                f.compute_root().vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
            }
            output.gpu_tile(x, y, xo, yo, xi, yi, 32, 4, TailStrategy::GuardWithIf);
        } else if (s == "gpu") {
            // Generic GPU: one block per row, one thread per lane; each stage lives in workgroup
            // memory (n * 4 bytes, lifetimes reused) with a barrier between stages.
            output.gpu_tile(x, y, xo, yo, xi, yi, n, 1, TailStrategy::GuardWithIf);
            for (Func &f : stages) f.compute_at(output, xo).gpu_threads(x);
        } else {
            throw CompileError("bitonic_sort: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    std::vector<Func> stages;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BitonicSort, bitonic_sort)
