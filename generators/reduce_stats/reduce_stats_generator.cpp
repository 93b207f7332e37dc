// reduce_stats: sum, minimum and maximum of an f32 image, as one tuple reduction:
//   stats(0) = sum(input),  stats(1) = min(input),  stats(2) = max(input)
// The parallel schedules split the reduction with rfactor, so the summation order (and therefore
// the rounding of the sum) differs from the serial golden; min and max are exact.
#include <limits>

#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class ReduceStats : public Generator<ReduceStats> {
public:
    ScheduleParam schedule;

    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 1>> stats{"stats"};

    void generate() {
        // Algorithm
        RDom r(0, input.dim(0).extent(), 0, input.dim(1).extent(), "r");
        const float inf = std::numeric_limits<float>::infinity();
        acc() = {0.f, inf, -inf};
        Expr v = input(r.x, r.y);
        acc() = {acc()[0] + v, min(acc()[1], v), max(acc()[2], v)};
        stats(k) = mux(k, {acc()[0], acc()[1], acc()[2]});

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        stats.set_estimates({{0, 3}});
        stats.dim(0).set_bounds(0, 3);

        // Schedule (one measured line per decision; the experiments: benchmarks/RESULTS.md, "Schedule log")
        acc.compute_root();
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // one serial pass in row-major order
        case Schedule::Host: {
            // rfactor twice: 8 column lanes (vectorized) x 16-row strips (parallel), then a serial combine:
            // 96-128 % of copy bw, 2.2-3.2x OpenCV (AVX2 VM, 2026-11-23).
            RVar rxo("rxo"), rxi("rxi"), ryo("ryo"), ryi("ryi");
            acc.update().split(r.x, rxo, rxi, 8).split(r.y, ryo, ryi, 16);
            Func partial = acc.update().rfactor({{rxi, u}, {ryo, w}});
            partial.compute_root().vectorize(u).update().parallel(w).vectorize(u);
            break;
        }
        case Schedule::Mali:
        case Schedule::Gpu: {
            // rfactor over rows: one work-item sums a row (coalesced across the group), one thread combines;
            // groups of 16 on Mali (no local memory), 64 elsewhere (not measured).
            const int group = schedule.value() == Schedule::Mali ? 16 : 64;
            Func partial = acc.update().rfactor(r.y, u);
            partial.compute_root().gpu_tile(u, uo, ui, group, TailStrategy::GuardWithIf);
            partial.update().gpu_tile(u, uo, ui, group, TailStrategy::GuardWithIf);
            acc.gpu_single_thread();
            acc.update().gpu_single_thread();
            stats.gpu_single_thread();
            break;
        }
        }
    }

private:
    Var k{"k"}, u{"u"}, w{"w"}, uo{"uo"}, ui{"ui"};
    Func acc{"acc"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ReduceStats, reduce_stats)
