// harness::ParallelPool: a thread pool for the parallel loops of Halide pipelines, installed in place of
// Halide 21's own (halide_set_custom_do_par_for), for an application that calls pipelines back to back on
// many cores. Tasks are taken with one atomic add (Halide 21's pool takes one mutex per task), and idle
// workers spin for a bounded time (`spin_us`, like TBB's and OpenMP's block time) before they sleep on a
// condition variable (Halide 21's workers sleep at once, so every parallel loop has to wake them). Same
// results as Halide's pool: only who runs each task changes. Library harness::parallel, header-only use
// of Halide's runtime API; the pipelines need no change.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace harness {

struct ParallelPoolOptions {
    int threads = 0;     // threads that run tasks, the caller included; 0: HL_NUM_THREADS, else one per CPU
    int spin_us = 2000;  // how long an idle worker spins before it sleeps (0: sleeps at once)
};

// Installs the pool as Halide's halide_do_par_for for every pipeline of the process while it lives;
// the destructor puts back the previous one and joins the workers (no pipeline may be running then).
// One pool at a time: a second one throws std::logic_error. Also sets halide_set_num_threads(threads),
// so that schedules that read the pool's size (halide_get_num_threads()) see this pool's.
//
// What it runs: every halide_do_par_for call (a parallel loop without async producers). A parallel loop
// started inside a task (nested parallelism) runs its tasks on the calling thread, in order; a call
// from a second application thread while the pool is busy does the same. Loops with async producers go
// through halide_do_parallel_tasks, which stays Halide's pool. A task's non-zero result (a Halide error
// code) is the loop's result (the first one seen; the loop's remaining tasks are skipped); a C++
// exception thrown out of a task becomes halide_error_code_generic_error.
class ParallelPool {
public:
    explicit ParallelPool(ParallelPoolOptions options = {});
    ~ParallelPool();
    ParallelPool(const ParallelPool &) = delete;
    ParallelPool &operator=(const ParallelPool &) = delete;

    int threads() const;
    int spin_us() const;
    // Tasks run by the pool's workers (not the caller) since the pool started: a test's check that the
    // loops really ran in parallel.
    uint64_t tasks_run_by_workers() const;

    class Impl;

private:
    Impl *impl_;
};

// A pool by the name a benchmark's option gives (pipeline-benchmarks --halide_pool, aot-harness bench
// --halide-pool): "halide" (nullptr: Halide's own pool stays) or "harness[:<spin_us>]" (a ParallelPool of
// HL_NUM_THREADS threads, else one per CPU, installed). `description` receives what the benchmark's
// context records as `halide_pool`. Throws std::invalid_argument naming the value and the choices.
std::unique_ptr<ParallelPool> make_pool_by_name(const std::string &name, std::string *description);
// The check make_pool_by_name does first, without a pool: throws std::invalid_argument for a bad name.
void check_pool_name(const std::string &name);

}  // namespace harness
