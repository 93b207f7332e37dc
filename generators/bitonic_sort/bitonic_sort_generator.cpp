// bitonic_sort: sorts every row of an i32 image ascending with a bitonic network of 2^log2_n lanes
// (rows up to 256 long by default; shorter rows are padded with INT32_MAX, which sorts last).
//   stage_0(x, y) = x < width ? input(x, y) : INT32_MAX
//   for k = 2, 4, ..., n; for j = k/2, ..., 1:                 (36 stages for n = 256)
//     p = x ^ j;  up = (x & k) == 0;  low = (x & j) == 0
//     stage(x, y) = low == up ? min(prev(x, y), prev(p, y)) : max(prev(x, y), prev(p, y))
//   output(x, y) = last stage(x, y), x < width
// On a GPU every stage exchanges values between work-items: the `gpu` schedule keeps a row in
// workgroup memory with a barrier per stage.
#include <cstdint>
#include <limits>

#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class BitonicSort : public Generator<BitonicSort> {
public:
    ScheduleParam schedule;
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

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            for (Func &f : stages)
                f.compute_at(output, y);  // one row at a time, each stage a plain loop
            break;
        case Schedule::Host:
            // 16-row blocks in parallel, every stage stored y-innermost and vectorized over the 16 rows, so that the
            // partner x ^ j is a dense load, not a gather: 3.5x one thread. GuardWithIf: a last block of fewer rows
            // writes only its rows.
            output.split(y, yo, yi, 16, TailStrategy::GuardWithIf).reorder(yi, x, yo).parallel(yo).vectorize(yi);
            for (Func &f : stages)
                f.compute_at(output, yo).reorder_storage(y, x).reorder(y, x).vectorize(y, 16);
            break;
        case Schedule::Mali:
            // No local memory: every stage its own kernel over global memory (36 passes), 4 x i32 per
            // work-item, 8x4 work-groups (not measured).
            for (Func &f : stages) {
                f.compute_root().vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
            }
            output.gpu_tile(x, y, xo, yo, xi, yi, 32, 4, TailStrategy::GuardWithIf);
            break;
        case Schedule::Gpu:
            // One block per row, one thread per lane, each stage in workgroup memory with a barrier between stages (n *
            // 4 bytes of workgroup memory; not measured).
            output.gpu_tile(x, y, xo, yo, xi, yi, n, 1, TailStrategy::GuardWithIf);
            for (Func &f : stages)
                f.compute_at(output, xo).gpu_threads(x);
            break;
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    std::vector<Func> stages;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BitonicSort, bitonic_sort)
