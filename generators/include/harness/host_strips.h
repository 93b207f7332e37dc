// harness/host_strips.h: row strips of the host schedules whose height is chosen per call from the
// image's rows and the thread count of Halide's pool. Header-only, Halide.h only.
//
// A strip height that is not a compile-time constant defeats Halide's sliding windows and storage
// folding (a producer stored per strip is then recomputed per row: gaussian5x5 ~100x slower, issue
// 27), so each candidate height is a constant in its own specialisation; the condition that picks one
// is evaluated once per call, before any strip runs, so a thread count that changes during the call
// cannot make strips and rows disagree. The rule: the tallest candidate height that still gives every
// thread `tasks_per_thread` strips (load balance on many cores), else the shortest.
#pragma once

#include <vector>

#include "Halide.h"

namespace harness {

// The thread count of Halide's pool at the start of a call: halide_get_num_threads() (what the app set
// with halide_set_num_threads(), else HL_NUM_THREADS, else one per CPU). Before the pool's first
// parallel loop it reads 0; then halide_set_num_threads(halide_set_num_threads(0)) sets the pool's own
// default (what its first loop would set) and returns it, so the first call and every later one pick
// the same strips. (Picking by another count on the first call made float outputs differ between the
// first call and the next ones: the last, guarded strip of another height rounds some sums
// differently.) The two reads must differ in form: Halide's CSE merges equal calls, pure or not.
inline Halide::Expr pool_threads() {
    using Halide::Internal::Call;
    const auto call = [](const char *fn, std::vector<Halide::Expr> args) {
        return Call::make(Halide::Int(32), fn, args, Call::Extern);
    };
    const Halide::Expr get = call("halide_get_num_threads", {});
    const Halide::Expr set_default = call("halide_set_num_threads", {call("halide_set_num_threads", {0})});
    return Call::make(Halide::Int(32), Call::if_then_else, {get > 0, get, set_default}, Call::PureIntrinsic);
}

// pool_threads() as a pure expression, for a split factor that is not specialised (a stage fused into another
// with compute_with may have no specialisations, so its strips' height is one expression). Pure because bounds
// inference cannot bound an impure call in a split factor ("accessed in an unbounded way"); pure also lets
// Halide evaluate it more than once per call, so it must give the same count every time: set(set(get()))
// returns the pool's count and changes nothing once the pool has one (before the first parallel loop it sets
// the pool's default, as that loop would, and returns it).
inline Halide::Expr pool_threads_pure() {
    using Halide::Internal::Call;
    const auto call = [](const char *fn, std::vector<Halide::Expr> args) {
        return Call::make(Halide::Int(32), fn, args, Call::PureExtern);
    };
    return call("halide_set_num_threads", {call("halide_set_num_threads", {call("halide_get_num_threads", {})})});
}

// Schedules f once per candidate strip height: `apply(stage, rows_per_strip)` schedules one
// specialisation of f (split of its rows by the constant rows_per_strip, parallel strips, ...; the same
// loop names in every one, so producers computed at a strip's loops find them in each). `heights`:
// tallest first. `rows`: the rows split into strips (the output's extent in y, or y * c when fused).
template<typename Apply>
void strips_by_threads(Halide::Func f, const Halide::Expr &rows, const std::vector<int> &heights, int tasks_per_thread,
                       Apply apply) {
    const Halide::Expr threads = pool_threads();
    for (size_t i = 0; i + 1 < heights.size(); i++)
        apply(f.specialize(rows >= threads * (tasks_per_thread * heights[i])), heights[i]);
    apply(Halide::Stage(f), heights.back());
}

// Schedules f with about `per_thread` strips per thread of the pool, all of one height
// ceil(rows / (per_thread x threads)) (at least `min_rows`): `apply(stage, rows_per_strip)` with a height
// that is pure (the output's extent and a constant), so sliding windows survive; one specialisation per
// thread count 2, 4, 8, 16, 32 (a count between two gets the larger one's strips), else 64.
template<typename Apply>
void strips_per_thread(Halide::Func f, const Halide::Expr &rows, int per_thread, int min_rows, Apply apply) {
    const Halide::Expr threads = pool_threads();
    for (int t : {2, 4, 8, 16, 32}) {
        apply(f.specialize(threads <= t), Halide::max(min_rows, (rows + per_thread * t - 1) / (per_thread * t)));
    }
    apply(Halide::Stage(f), Halide::max(min_rows, (rows + per_thread * 64 - 1) / (per_thread * 64)));
}

// Schedules f with `per_thread` strips per thread of one pure height ceil(rows / (per_thread x threads))
// where that height is at most `max_rows` (one specialisation per thread-count bucket (t/2, t], t = 2 ..
// 64), else as strips_by_threads(heights, tasks_per_thread). A pure but not constant split keeps sliding
// windows but not storage folding: a strip's intermediate then spans its whole height, hence the cap.
template<typename Apply>
void strips_per_thread_or_fixed(Halide::Func f, const Halide::Expr &rows, int per_thread, int max_rows,
                                const std::vector<int> &heights, int tasks_per_thread, Apply apply) {
    const Halide::Expr threads = pool_threads();
    for (int t = 2; t <= 64; t *= 2) {
        const Halide::Expr height = (rows + per_thread * t - 1) / (per_thread * t);
        apply(f.specialize(threads > t / 2 && threads <= t && height <= max_rows), height);
    }
    strips_by_threads(f, rows, heights, tasks_per_thread, apply);
}

// The stencils' strip rule (stencil_strips, stencil_strip_height): by default kStencilStripsPerThread strips per
// thread where that height is at most kStencilMaxRows rows, else the tallest candidate height that gives each
// thread kStencilTasksPerThread strips; a per-thread count's strips at least kStencilMinRows rows.
constexpr int kStencilStripsPerThread = 2, kStencilMaxRows = 96, kStencilTasksPerThread = 8, kStencilMinRows = 8;

// A stencil's host strips: `per_thread` > 0 (a candidate's GeneratorParam) gives that many strips per
// thread, else `strip_rows` > 0 one height; by default the rule above over `heights`.
template<typename Apply>
void stencil_strips(Halide::Func f, const Halide::Expr &rows, int per_thread, int strip_rows,
                    const std::vector<int> &heights, Apply apply) {
    if (per_thread > 0)
        strips_per_thread(f, rows, per_thread, kStencilMinRows, apply);
    else if (strip_rows > 0)
        strips_by_threads(f, rows, {strip_rows}, kStencilTasksPerThread, apply);
    else
        strips_per_thread_or_fixed(f, rows, kStencilStripsPerThread, kStencilMaxRows, heights, kStencilTasksPerThread,
                                   apply);
}

// stencil_strips' choice as one height expression instead of specialisations (see pool_threads_pure), for a
// stage with no intermediate Func (a split that is not a compile-time constant loses storage folding): the
// same rules, from the pool's exact thread count instead of its power-of-two bucket.
inline Halide::Expr stencil_strip_height(const Halide::Expr &rows, int per_thread, int strip_rows,
                                         const std::vector<int> &heights) {
    const Halide::Expr threads = pool_threads_pure();
    const auto per_thread_height = [&](int n) { return (rows + n * threads - 1) / (n * threads); };
    if (per_thread > 0) return Halide::max(kStencilMinRows, per_thread_height(per_thread));
    if (strip_rows > 0) return strip_rows;
    const Halide::Expr balanced = per_thread_height(kStencilStripsPerThread);
    Halide::Expr fixed = heights.back();
    for (size_t i = heights.size() - 1; i-- > 0;)
        fixed = Halide::select(rows >= threads * (kStencilTasksPerThread * heights[i]), heights[i], fixed);
    return Halide::select(balanced <= kStencilMaxRows, balanced, fixed);
}

// The candidate heights: `automatic` unless `forced` (a generator's strip_rows parameter) names one.
inline std::vector<int> strip_heights(int forced, std::vector<int> automatic) {
    return forced > 0 ? std::vector<int>{forced} : automatic;
}

}  // namespace harness
