// How a pipeline is timed: the one place `aot-harness bench` and benchmarks/pipeline-benchmarks share.
//
// Every benchmark uses manual time (steady_clock around each iteration). Untimed, PairedReference
// rounds run beside the loop: a copy of as many bytes as the benchmark moves, and any paired calls
// (pipeline-benchmarks pairs the OpenCV equivalent), each timed, so that every ratio comes from the
// same seconds of the same machine (on a shared VM whose memory bandwidth swings 2x within a minute, a
// roofline measured at another moment is not comparable). Where the rounds run (Pairing):
//   EachIteration  one round after every timed iteration (pipeline-benchmarks --pairing=iteration): the
//                  closest pairing, but the copy between two calls evicts the data of a pipeline that fits
//                  in the caches (on a 16-core Xeon a 4096^2 u8 stencil ran 16-20 % slower than called
//                  directly), and on many cores every call follows the paired call's pool and finds
//                  Halide's workers asleep (16 threads: brighten 1080p 0.088 ms in blocks, 0.265 ms so)
//   AfterLoop      as many rounds as iterations, right after each repetition's loop (aot-harness bench,
//                  pipeline-benchmarks by default): the timed loop is a plain loop of calls, as a direct
//                  caller's, and so is the paired call's; the repetitions interleave the two
//
// Counters (Google Benchmark's JSON, per repetition):
//   pixels_per_second  width x height of the first image output (else of the first input) per second
//   bytes_per_second   inputs read once + outputs written once, per second
//   pct_of_copy_bw     100 x copy time / benchmark time; the copy moves (inputs + outputs) / 2 bytes:
//                      host memcpy with the profile's threads, or for GPU profiles the device-to-device
//                      copy of the profile's own runtime (OpenCL, CUDA or Vulkan)
//   speedup_vs_<name>  paired call time / benchmark time, per paired call (e.g. speedup_vs_opencv)
//
// Modes: `resident` (inputs already on the device, outputs left there, device synchronised inside the
// timed region) for every profile; `roundtrip` (inputs marked dirty, run, outputs copied back, device
// memory released) for GPU profiles only: on the CPU it is the same call.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/array.h"
#include "bench/copy.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "harness/spec.h"

#include <nlohmann/json.hpp>

namespace harness::perf {

// Pixels and bytes moved (inputs read once + outputs written once) by one call of a case.
struct Work {
    double pixels = 0, bytes = 0;
};
Work work_of(const CaseSpec &c);

// The inputs of a case (harness::case_inputs), kept for the last inputs asked for: consecutive benchmarks
// share a case (or another pipeline's case of the same inputs), and one slot keeps big inputs from piling up.
const std::vector<Array> &cached_case_inputs(const CaseSpec &c);

// A call measured after every timed iteration (e.g. {"opencv", <the OpenCV equivalent>}).
struct PairedCall {
    std::string name;  // the counter is speedup_vs_<name>
    std::function<void()> run;
};

class PairedReference {
public:
    // `bytes_moved`: inputs + outputs of the benchmark. `threads`: the profile's CPU threads (for the
    // host copy). `gpu_runtime`: "" for CPU profiles, else the runtime whose device-to-device copy is
    // the reference (a host copy if it cannot be set up; copy_kind() says). `parallel_for`: the pool of
    // the host copy (default Halide's).
    PairedReference(double bytes_moved, int threads, const std::string &gpu_runtime, std::vector<PairedCall> calls = {},
                    ParallelFor parallel_for = {});
    ~PairedReference();

    // One round: a copy and each paired call, each timed here. The first round is a warm-up and is
    // not counted. Returns "" or what failed.
    std::string run_once();

    double copy_seconds() const { return rounds_ ? copy_total_ / rounds_ : 0; }
    // Mean seconds of paired call i.
    double call_seconds(size_t i) const { return rounds_ ? call_totals_.at(i) / rounds_ : 0; }
    const std::vector<PairedCall> &calls() const { return calls_; }
    const std::string &copy_kind() const { return copy_kind_; }

private:
    std::unique_ptr<HostCopy> host_;
    std::unique_ptr<DeviceCopy> device_;
    std::vector<PairedCall> calls_;
    std::vector<double> call_totals_;
    std::string copy_kind_;
    bool warm_ = false;
    int rounds_ = 0;
    double copy_total_ = 0;
};

// What a timed loop measured: seconds per iteration, or the error it stopped on (the benchmark is then
// marked failed with SkipWithError).
struct LoopResult {
    std::string error;
    double seconds_per_iter = 0;
};

enum class Pairing { EachIteration, AfterLoop };

// Times `body` once per iteration (manual time) with the reference rounds where `pairing` says; sets
// pixels_per_second, bytes_per_second and pct_of_copy_bw from `work`. `body` returns "" or an error.
LoopResult timed_loop(benchmark::State &state, PairedReference &ref, Work work,
                      const std::function<std::string()> &body, Pairing pairing = Pairing::EachIteration);

// One pipeline benchmark: a compiled variant on a case, resident or round trip.
struct PipelineBench {
    std::string name;  // BM_<pipeline>/<profile>/<case>/<mode>
    const Variant *variant = nullptr;
    const CaseSpec *c = nullptr;
    bool roundtrip = false;
    int threads = 1;          // CPU threads of the profile (the host copy's)
    std::string gpu_runtime;  // "" for CPU profiles
};

// Per-kernel time of a GPU benchmark (`bench --kernels`): after the timed loop, `calls` more calls of the same body
// with every kernel launch recorded and timed by the runtime's own clock (devices/kernel_log.h: OpenCL profiling
// events, CUDA events, Vulkan timestamp queries), beside the wall time of those calls. The timed loop itself runs
// as without it (only the OpenCL queue carries CL_QUEUE_PROFILING_ENABLE).
//   {"calls", "wall_ms_per_call", "kernels": [{kernel, launches_per_call, device_ms_per_call, share_of_wall,
//    global, work_group, groups, local/private memory, registers}...], "device_ms_per_call" (their sum, absent when a
//    launch was not timed), "share_of_wall", "clock", "note"}
// For a CPU benchmark (runtime ""), the same pass reads Halide's profiler per Func from the variant's profiled twin
// (bench/func_times.h), or says how to build one when `profiled` is null.
struct KernelBreakdown {
    int calls = 0;                      // 0 = off
    std::string runtime;                // the profile's GPU runtime; "" for a CPU profile
    nlohmann::json result;              // filled by run_pipeline_benchmark
    const Variant *profiled = nullptr;  // CPU profiles: the profiled twin (Registry::profiled), if built
    std::string profile;                // CPU profiles: the profile (for the note that says how to build the twin)
};
// (bench/kernel_times.h and bench/func_times.h measure it and turn it into counters and a report.)

// Runs a pipeline benchmark: binds the case's inputs (Invocation), warms up (kernels compiled,
// inputs resident), then the timed loop; speedup_vs_<name> for each paired call that `paired`
// returns (it is called once, after the inputs are bound; it may throw to fail the benchmark). The
// label is the variant's Halide target. With `kernels` (calls > 0), the per-kernel pass after the loop.
LoopResult run_pipeline_benchmark(benchmark::State &state, const PipelineBench &b, const std::vector<Array> &inputs,
                                  const std::function<std::vector<PairedCall>()> &paired = {},
                                  const ParallelFor &parallel_for = {}, Pairing pairing = Pairing::EachIteration,
                                  KernelBreakdown *kernels = nullptr);

// Threads a profile's code uses on the CPU: the portable schedule is single-threaded, the others use
// Halide's thread pool (one thread per core).
int profile_threads(const Profile &p);
// HL_NUM_THREADS where set (as Halide's pool), else the hardware threads (at least 1).
int all_threads();

}  // namespace harness::perf
