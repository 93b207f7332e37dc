// What `aot-harness bench` measures: its options, and the benchmarks they select (private to harness/bench/).
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "base/args.h"
#include "harness/registry.h"
#include "harness/spec.h"

namespace harness::perf {

struct BenchOptions {
    std::string pipeline, profile, case_name;  // filters as `run`: names and globs, comma-separated
    std::vector<std::pair<int, int>> sizes;    // --size WxH,...: cases from the spec's make_case
    bool resident = true, roundtrip = true;    // --mode resident|roundtrip|all (roundtrip: GPU profiles only)
    int repetitions = 0;                       // --repetitions (0 = Google Benchmark's default, 1)
    std::string min_time;                      // --min-time seconds ("" = Google Benchmark's default)
    std::string halide_pool;                   // --halide-pool: halide (default) or harness[:<spin_us>]
    bool quick = false;                        // --quick: one iteration per benchmark (a smoke run)
    bool kernels = false;                      // --kernels: per-kernel device time of GPU benchmarks
    std::string json;                          // --json FILE ("" = none)
    double timeout = 3600;                     // --timeout per profile's child, seconds
    std::string golden_dir;                    // --golden-dir (its xfail.json)
};
// Checks and converts the options parsed with the table's `bench` (or `__bench-one`) row. Throws Error.
BenchOptions bench_options(const Args &args);

// A list of sizes "1920x1080,4096x4096" (1..65536 each, no empty entry) -> (width, height) pairs, for
// `aot-harness bench --size` and pipeline-benchmarks --harness_sizes. Throws Error naming the bad entry:
// "<option> '<entry>' is not WIDTHxHEIGHT (1..65536 each); write e.g. <example>".
std::vector<std::pair<int, int>> parse_size_list(const std::string &text, const std::string &option,
                                                 const std::string &example);

// One benchmark: BM_<pipeline>/<profile>/<case>/<mode>.
struct BenchTask {
    std::string pipeline, profile, mode;
    const CaseSpec *c = nullptr;
    std::string name() const { return "BM_" + pipeline + "/" + profile + "/" + c->name + "/" + mode; }
};

struct BenchPlan {
    std::vector<BenchTask> tasks;    // pipeline, profile, case, mode order
    std::vector<std::string> notes;  // pipelines --size could not be applied to, and why
    std::deque<CaseSpec> sized;      // the --size cases (tasks point into it)
};
// The benchmarks the filters select (run's filters: a name or glob that matches nothing is an
// Error listing the known names). With --size and no --case, only the sized cases.
void plan_bench(const BenchOptions &o, BenchPlan &plan);

}  // namespace harness::perf
