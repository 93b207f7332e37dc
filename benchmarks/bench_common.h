// What the parts of pipeline-benchmarks share: the command-line options, the counters every benchmark
// sets, and the per-benchmark results kept for --check-thresholds. How a pipeline is timed is shared
// with `aot-harness bench` (harness/include/harness/bench/timing.h).
#pragma once
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "base/profile.h"
#include "bench/timing.h"
#include "harness/spec.h"
#include "thresholds.h"

namespace bench {

struct Options {
    // no_opencv_pairing: skip the OpenCV call after each iteration (speedup_vs_opencv is then absent);
    // for big GPU sizes, where one CPU OpenCV call costs a thousand GPU iterations.
    bool quick = false, big = false, no_opencv_pairing = false;
    std::string thresholds;
    // --harness_sizes=WxH[,WxH...]: these image sizes instead of the defaults (e.g. 64x64 for what a call
    // costs with next to no work: the GPU runtimes' per-launch floor).
    std::string sizes;
    std::string halide_pool;  // --halide_pool: "" / "halide" = Halide's own, "harness[:<spin_us>]"
    // --pairing=blocks|iteration: where the paired rounds (copy, OpenCV) run (harness/bench/timing.h, Pairing).
    // blocks (the default, as `aot-harness bench`): after each repetition's loop, as many rounds as it had
    // iterations, so that each side runs its calls back to back on its own warm pool. iteration: a round after
    // every call, so each call of the pipeline follows OpenCV's and finds Halide's pool asleep, while each
    // OpenCV call follows its own pool's copy (on 16 cores: brighten 1080p 0.088 ms in blocks, 0.265 ms so).
    harness::perf::Pairing pairing = harness::perf::Pairing::AfterLoop;
    // --harness_kernels: per GPU benchmark, 20 more calls with every kernel launch timed by its runtime
    // (harness/bench/kernel_times.h): counters kernels_device_ms, kernels_share_pct and kernel_ms/<kernel>; per CPU
    // benchmark, Halide's profiler per Func from the profiled twin (harness/bench/func_times.h): funcs_ms,
    // funcs_share_pct and func_ms/<func>.
    bool kernels = false;
};

// "blocks" / "iteration" -> Pairing; throws std::invalid_argument naming the values otherwise.
harness::perf::Pairing parse_pairing(const std::string &value);
const char *pairing_name(harness::perf::Pairing p);
extern Options g_opt;

// benchmark name -> results, for --check-thresholds.
extern std::map<std::string, Measured> g_measured;

// The work of a case, thread counts: the shared timing code's (harness/bench/timing.h).
using harness::perf::all_threads;
using harness::perf::profile_threads;
using harness::perf::Work;
using harness::perf::work_of;

// pixels_per_second, bytes_per_second and pct_of_copy_bw (`copy_seconds`: the time a copy of the
// same bytes took, measured alongside), and the Mpix/s kept for the thresholds.
void set_counters(benchmark::State &state, const std::string &name, double seconds_per_iter, Work w,
                  double copy_seconds, const std::string &device, const std::string &driver);

// Keeps the Mpix/s of one repetition (or the error, when `error` is not empty) for the thresholds.
void record_measured(const std::string &name, double seconds_per_iter, Work w, const std::string &device,
                     const std::string &driver, const std::string &error = "");

// Marks the benchmark failed (SkipWithError) and keeps the message for the thresholds.
void fail(benchmark::State &state, const std::string &name, const std::string &msg);

// A GPU schedule candidate (generators/CMakeLists.txt, HARNESS_GPU_CANDIDATES), <name>_c<n>: <name>, whose
// OpenCV and NPP peers it shares; any other pipeline: itself.
std::string candidate_base(const std::string &pipeline);

// Every benchmark: milliseconds, manual time; one iteration with --quick.
benchmark::internal::Benchmark *configure(benchmark::internal::Benchmark *bm);

}  // namespace bench
