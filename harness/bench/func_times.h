// Per-Func time of a CPU benchmark (`bench --kernels`, pipeline-benchmarks --harness_kernels on cpu/host profiles):
// Halide's own sampling profiler, read through its runtime API (halide_profiler_get_state) in this process. The
// timed variant carries no profiling; its profiled twin (Registry::profiled: the same generator with the `profile`
// target feature, built with -DAOT_HARNESS_FUNC_PROFILE=<profile>) is called after the timed loop instead.
//
// The result, by benchmark name in the JSON's "kernels" beside the GPU breakdowns (kernel_times.h), in the same
// shape where it fits ("calls", "wall_ms_per_call", "share_of_wall", "clock", "note", "error"):
//   {"variant", "target", "calls", "wall_ms_per_call" (the twin's calls, profiling included), "runs" (calls the
//    profiler counted), "samples", "pipeline_ms_per_call" (the profiler's time inside the pipeline per call),
//    "funcs": [{func, ms_per_call, share_of_wall, average_threads, heap_peak_bytes, heap_allocations_per_call,
//    stack_peak_bytes}...], "funcs_ms_per_call" (their sum), "average_threads", "heap_peak_bytes"}
// Halide bills each sample to the Func running at that moment and scales a call's samples to the call's time inside
// the pipeline, so the Funcs add up to at most pipeline_ms_per_call, which is at most wall_ms_per_call.
#pragma once
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/registry.h"
#include "harness/spec.h"

#include <nlohmann/json.hpp>

namespace harness::perf {

// At least `calls` calls of `twin` on case `c` (and more until `min_seconds` of wall time, for samples enough at
// the profiler's 1 ms interval), after one warm-up call, with the profiler's statistics reset before and after.
nlohmann::json measure_func_breakdown(const Variant &twin, const CaseSpec &c, std::vector<Array> &inputs, int calls,
                                      double min_seconds);
// The breakdown of a CPU benchmark whose variant has no profiled twin: a note that says how to build one, and
// "no_twin": the profile.
nlohmann::json func_profile_missing(const std::string &profile);
// One line for all the benchmarks of `breakdowns` (by name) without a twin: how many, which, how to build them;
// "" when none.
std::string missing_twins_text(const nlohmann::json &breakdowns);
// funcs_ms (per call), funcs_share_pct (of the wall time) and func_ms/<func> counters.
void add_func_counters(benchmark::State &state, const nlohmann::json &breakdown);
// A few lines: the benchmark, the wall, pipeline and Func totals, one line per Func (time, share, threads, heap).
std::string func_breakdown_text(const std::string &benchmark, const nlohmann::json &breakdown);

}  // namespace harness::perf
