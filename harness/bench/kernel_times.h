// Per-kernel device time of a GPU benchmark (`bench --kernels`, pipeline-benchmarks --kernels): the measuring pass,
// its Google Benchmark counters and its report. The launches come from the interposed runtimes
// (devices/kernel_log.h); timing.h's run_pipeline_benchmark runs the pass after its timed loop.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace harness::perf {

// `calls` calls of `call` with every launch recorded and timed; the wall time of the calls beside the kernels'.
// `runtime` names the clock (opencl, cuda, vulkan). See KernelBreakdown (timing.h) for the result's fields.
nlohmann::json measure_kernel_breakdown(const std::function<std::string()> &call, int calls,
                                        const std::string &runtime);
// kernels_device_ms (per call), kernels_share_pct (of the wall time) and kernel_ms/<kernel> counters.
void add_kernel_counters(benchmark::State &state, const nlohmann::json &breakdown);
// A few lines: the benchmark, the wall and kernel totals, one line per kernel (launches, time, share, shape).
std::string kernel_breakdown_text(const std::string &benchmark, const nlohmann::json &breakdown);

}  // namespace harness::perf
