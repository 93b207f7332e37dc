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

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        acc.compute_root();
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // one serial pass in row-major order
        case Schedule::Host: {
            // rfactor twice: 8 column lanes (vectorized) x 16-row strips (parallel), then a serial combine: at or above
            // the copy bandwidth, 2.2-3.2x OpenCV on 2 cores.
            RVar rxo("rxo"), rxi("rxi"), ryo("ryo"), ryi("ryi");
            acc.update().split(r.x, rxo, rxi, 8).split(r.y, ryo, ryi, 16);
            Func partial = acc.update().rfactor({{rxi, u}, {ryo, w}});
            partial.compute_root().vectorize(u).update().parallel(w).vectorize(u);
            break;
        }
        case Schedule::Mali: {
            // rfactor over rows: one work-item sums a row (coalesced across the group), one thread combines;
            // work-groups of 16 (no local memory).
            Func partial = acc.update().rfactor(r.y, u);
            partial.compute_root().gpu_tile(u, uo, ui, 16, TailStrategy::GuardWithIf);
            partial.update().gpu_tile(u, uo, ui, 16, TailStrategy::GuardWithIf);
            acc.gpu_single_thread();
            acc.update().gpu_single_thread();
            stats.gpu_single_thread();
            break;
        }
        case Schedule::Gpu:
            gpu_tree(r);
            break;
        }
    }

    // A tree of partial reductions (rfactor at each level), every level in parallel but the last steps:
    //   per thread (t, b): rows b, b + 1024, ... and in them columns t, t + 256, ... (a warp reads 32
    //     consecutive floats; 4 loads in flight per thread), accumulated in registers, then stored in GPU
    //     shared memory;
    //   per block (b): its 256 thread partials, one thread (a serial loop over shared memory);
    //   one last kernel of 32 threads: fin(q) = 16 block partials each, then acc and stats (one thread),
    //     all in shared memory: one intermediate in device memory (block_part), not three (with three
    //     kernels and intermediates for the tail, opencl took 0.183 ms at 4096^2, now 0.088 ms).
    // The block count is fixed (a grid-stride over rows), so the serial tails stay short at any size. 512 blocks,
    // not 1024: at 1920x1080 a call on an H200 took 0.029 against 0.040 ms (cuda) and 0.058 against 0.062 ms
    // (opencl), the tail kernel combining half as many partials (256 blocks: the same at 1080p).
    // Against NPP's Sum + MinMax on an H100 the first GPU schedule took 0.449-0.485 ms at 4096^2; this one 0.064-0.088
    // ms (1.3-1.9x NPP), and 16384^2 runs at 84-94 % of the device copy.
    // (A level of 32 lanes between thread and block, lane w combining the threads w, w + 32, ... or
    // [w * threads / 32, (w + 1) * threads / 32), gives PoCL 3.1 a wrong sum, 257x131: 16829 -> 16377;
    // oclgrind and the CPU get the right one.)
    void gpu_tree(const RDom &r) {
        const int threads = 256, blocks = 512, unroll = 4;
        RVar rxo("rxo"), rxi("rxi"), rxu("rxu"), ryo("ryo"), ryi("ryi"), rto("rto"), rti("rti"), rbo("rbo"), rbi("rbi");
        Var t("t"), b("b"), q("q"), bo("bo"), bi("bi"), ko("ko"), ki("ki");
        acc.update().split(r.y, ryo, ryi, blocks).split(r.x, rxo, rxi, threads);
        Func block_part = acc.update().rfactor(ryi, b);
        Func thread_part = block_part.update().rfactor(rxi, t);
        acc.update().split(ryi, rbo, rbi, 32);
        Func fin = acc.update().rfactor(rbi, q);

        // block_part: one thread per block (a thread loop of 1: no barrier between its statements).
        block_part.compute_root().gpu_tile(b, bo, bi, 64);
        block_part.update().split(rxi, rto, rti, 8).gpu_tile(b, bo, bi, 1).unroll(rti);
        // Each thread accumulates in registers (thread_part at the thread loop of its shared-memory copy).
        Func thread_shared = thread_part.in(block_part);
        thread_shared.compute_at(block_part, bo).gpu_threads(t);
        thread_part.compute_at(thread_shared, t);
        thread_part.update().split(rxo, rxo, rxu, unroll).reorder(rxu, rxo, ryo).unroll(rxu);
        if (get_target().has_feature(Target::Vulkan)) {
            // Vulkan: the tail as three kernels (fin with 32 threads, acc and stats on one thread each): the
            // one-block tail below hands its kernel a bool (fin's `loaded` flag) in the uniform argument
            // block, which spirv-val rejects (vulkan_repro/spirv_val; Halide 21's hoisted-bool bug).
            Var qo("qo"), qi("qi");
            fin.compute_root().gpu_tile(q, qo, qi, 32);
            fin.update().reorder(rbo, q).gpu_tile(q, qo, qi, 32);
            acc.gpu_single_thread();
            acc.update().gpu_single_thread();
            stats.gpu_single_thread();
            return;
        }
        // The tail: one block; stats' 3 threads, fin's 32 (32 loads in flight each), acc on one thread,
        // in shared memory.
        stats.gpu_tile(k, ko, ki, 3);
        acc.compute_at(stats, ko);
        fin.compute_at(stats, ko).gpu_threads(q);
        fin.update().reorder(rbo, q).gpu_threads(q);
        // Unrolled on CUDA only (Halide's PTX has no loop unrolling of its own). OpenCL compilers unroll a loop of
        // 16 themselves; unrolled in the source, PoCL took 11.5 s to compile this kernel (a 263 KB object),
        // 0.45 s as a loop: the slowest compile of the precommit tests on a machine whose kernel cache is empty.
        if (get_target().has_feature(Target::CUDA)) fin.update().unroll(rbo);
    }

private:
    Var k{"k"}, u{"u"}, w{"w"}, uo{"uo"}, ui{"ui"};
    Func acc{"acc"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ReduceStats, reduce_stats)
