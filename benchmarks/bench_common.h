// What the parts of pipeline-benchmarks share: the command-line options, the work of a case, the
// counters every benchmark sets, and the per-benchmark results kept for --check-thresholds.
#pragma once
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "base/profile.h"
#include "harness/spec.h"
#include "thresholds.h"

namespace bench {

struct Options {
    // no_opencv_pairing: skip the OpenCV call after each iteration (speedup_vs_opencv is then absent);
    // for big GPU sizes, where one CPU OpenCV call costs a thousand GPU iterations.
    bool quick = false, big = false, no_opencv_pairing = false;
    std::string thresholds;
};
extern Options g_opt;

// benchmark name -> results, for --check-thresholds.
extern std::map<std::string, Measured> g_measured;

// Hardware threads (at least 1).
int all_threads();
// Threads a profile's code uses on the CPU: the portable schedule is single-threaded, the others use
// Halide's thread pool (one thread per core); GPU profiles are compared with all-threads OpenCV.
int profile_threads(const harness::Profile &p);

// Pixels (width x height of the first 2-D output, or of the first input when no output is an
// image, as for reduce_stats) and bytes moved (inputs read once + outputs written once) of one call.
struct Work {
    double pixels = 0, bytes = 0;
};
Work work_of(const harness::CaseSpec &c);

// pixels_per_second, bytes_per_second and pct_of_copy_bw (`copy_seconds`: the time a copy of the
// same bytes took, measured alongside), and the Mpix/s kept for the thresholds.
void set_counters(benchmark::State &state, const std::string &name, double seconds_per_iter, Work w,
                  double copy_seconds, const std::string &device, const std::string &driver);

// Marks the benchmark failed (SkipWithError) and keeps the message for the thresholds.
void fail(benchmark::State &state, const std::string &name, const std::string &msg);

// Every benchmark: milliseconds, manual time; one iteration with --quick.
benchmark::internal::Benchmark *configure(benchmark::internal::Benchmark *bm);

}  // namespace bench
