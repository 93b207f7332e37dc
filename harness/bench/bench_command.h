// The two sides of `aot-harness bench` (private to harness/bench/): the parent (bench_command.cpp)
// plans, runs one child per profile under the supervisor and merges their Google Benchmark JSON; the
// child (bench_child.cpp) runs one profile's benchmarks.
#pragma once
#include <string>
#include <vector>

namespace harness::perf {

// The words after `bench`: the harness's options, and Google Benchmark's own flags (--benchmark_*,
// and every word after a `--`), passed to Google Benchmark as they are. Throws Error for
// --benchmark_out and --benchmark_out_format (bench writes the JSON itself: --json FILE).
struct BenchArgs {
    std::vector<std::string> harness, google;
};
BenchArgs split_bench_args(const std::vector<std::string> &words);

// benchmark::Initialize over `flags` (argv[0] "aot-harness bench"; the words live as long as the process,
// as Google Benchmark keeps argv[0]). Returns the words it did not recognise.
std::vector<std::string> google_initialize(const std::vector<std::string> &flags);

int bench_main(const std::vector<std::string> &words);        // `aot-harness bench`
int bench_child_main(const std::vector<std::string> &words);  // `aot-harness __bench-one`

}  // namespace harness::perf
