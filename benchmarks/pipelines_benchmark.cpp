// pipeline-benchmarks: its options and main(). It registers (pipeline_table.h), from the harness registry,
// in this order (Google Benchmark runs
// them in registration order, so rooflines and peers are measured before the pipelines):
//
//   BM_memcpy/...                          the copy rooflines (memcpy_benchmarks.h)
//   BM_opencv/<pipeline>/<size>/threads:<n> the OpenCV equivalent (peers/opencv_peers.h)
//   BM_<pipeline>/<profile>/<size>/<mode>  every compiled variant whose profile can run here
//   BM_harness_overhead/...                what the harness adds to a call (harness_overhead.h)
//   BM_pool/...                            a parallel call on Halide's pool and OpenCV's (pool_overhead.h)
//
// Sizes: 1920x1080 and 4096x4096 for pipelines whose spec has make_case (else the spec's `large`
// case), plus 16384x16384 for GPU profiles with --harness_big (past a 50 MB L2: inputs + outputs
// > 4x L2). Modes: `resident` (inputs already on the device, outputs left there, device synchronised
// inside the timed region) for every profile; `roundtrip` (inputs marked dirty, run, outputs copied
// back, device memory released) for GPU profiles only: on the CPU it is the same call.
// Every benchmark uses manual time (steady_clock around each iteration).
//
// Counters: pixels_per_second (width x height of the first image output, else of the input; bytes
// for memcpy), bytes_per_second (inputs read once + outputs written once; read + write for memcpy),
// and, measured interleaved with the benchmark (harness/bench/timing.h, the timing code `aot-harness bench` uses: a
// copy of the same bytes and the OpenCV call, as many rounds as calls after each repetition's loop, or after every
// call with --pairing=iteration, so that both sides see the same machine),
// pct_of_copy_bw (host memcpy with the profile's threads, device-to-device copy for GPU profiles) and
// speedup_vs_opencv (OpenCV with the profile's thread count) where the pipeline has a peer. Where NVIDIA NPP
// loads (peers/npp_peers.h), BM_npp/<pipeline>/<size> times the NPP equivalent (device-resident buffers of its
// own, launch + stream sync, paired with a cudart device-to-device copy) right before the GPU profiles' benchmarks of
// the same case, and those get speedup_vs_npp (NPP's median over theirs). NPP is not interleaved with the pipeline: its
// CUDA context is not Halide's (nor OpenCL's), and switching contexts after every iteration slowed the pipelines' own
// iterations by 0.1-0.14 ms on the H100 (blur3x3 cuda 16384^2 0.27 -> 0.40 ms); on a dedicated GPU the two medians a
// minute apart are stable (spread < 1 %).
//
// Own flags (before Google Benchmark's): --quick (smoke: 64x48, one iteration each, small copies),
// --harness_big (the GPU size past L2), --harness_sizes=WxH[,WxH...] (these sizes instead), --no_opencv_pairing (no
// OpenCV call after each iteration), --pairing=blocks|iteration (where the paired copy and OpenCV calls run:
// after each repetition's loop, the default, or after every call; bench_common.h says why blocks),
// --halide_pool=harness[:<spin_us>] (Halide's parallel loops on harness::ParallelPool, harness/parallel/, instead of
// Halide 21's own pool; the context's `halide_pool` says which pool every number of the run used),
// --harness_kernels (per GPU benchmark, each kernel's device time after the loop: kernel_ms/<kernel> counters),
// --harness_opencl_kernel_cache (OpenCL kernel objects reused across launches, devices/opencl_kernel_cache.h: what
// Halide's create-and-release per launch costs; the context's `opencl_kernel_cache` says whether it was on),
// --check-thresholds=FILE (exit 1 listing floors not met).
//
// What the machine was doing (devices/machine_state.h: clocks, temperatures, throttling, CPU pressure, sampled
// through the run) and a calibration at the run's start and end (harness/bench/calibration.h) go into the
// --benchmark_out JSON's context as one block, machine.run, for the comparison of runs (scripts/compare); the
// benchmarks of all profiles interleave, so there is one block for the run, not one per profile.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "bench_common.h"
#include "crash_trace.h"
#include "pipeline_table.h"
#include "thresholds.h"
#include "devices/kernel_log.h"
#include "devices/opencl_kernel_cache.h"
#include "harness/parallel_pool.h"
#include "bench/calibration.h"
#include "base/files.h"
#include "base/json_reader.h"
#include "devices/machine_state.h"

namespace {

using bench::g_opt;

// Removes this binary's own flags from argv (Google Benchmark rejects unknown ones).
void parse_own_flags(int *argc, char **argv, std::string &pairing) {
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const std::string a = argv[i];
        if (a == "--quick")
            g_opt.quick = true;
        else if (a == "--harness_big")
            g_opt.big = true;
        else if (a == "--no_opencv_pairing")
            g_opt.no_opencv_pairing = true;
        else if (a == "--harness_kernels")
            g_opt.kernels = true;
        else if (a == "--harness_opencl_kernel_cache")
            harness::set_opencl_kernel_cache(true);
        else if (a.rfind("--halide_pool=", 0) == 0)
            g_opt.halide_pool = a.substr(std::strlen("--halide_pool="));
        else if (a.rfind("--harness_sizes=", 0) == 0)
            g_opt.sizes = a.substr(std::strlen("--harness_sizes="));
        else if (a.rfind("--pairing=", 0) == 0)
            pairing = a.substr(std::strlen("--pairing="));
        else if (a.rfind("--check-thresholds=", 0) == 0)
            g_opt.thresholds = a.substr(std::strlen("--check-thresholds="));
        else
            argv[out++] = argv[i];
    }
    *argc = out;
}

int check_floors() {
    int checked = 0;
    const auto violations = bench::check_thresholds(g_opt.thresholds, bench::g_measured, &checked);
    std::printf("thresholds %s: %d floor(s) applied, %zu not met\n", g_opt.thresholds.c_str(), checked,
                violations.size());
    for (const auto &v : violations) {
        if (!v.error.empty()) {
            std::printf("  FAILED %s [%s]: %s\n", v.benchmark.c_str(), v.entry.c_str(), v.error.c_str());
        } else {
            std::printf("  BELOW FLOOR %s [%s]: %.2f Mpix/s < %.2f Mpix/s\n", v.benchmark.c_str(), v.entry.c_str(),
                        v.measured, v.floor);
        }
    }
    return violations.empty() ? 0 : 1;
}

// The --benchmark_out file of argv (Google Benchmark's flag), or "" when the JSON goes nowhere.
std::string benchmark_out(int argc, char **argv) {
    std::string out, format = "json";
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a.rfind("--benchmark_out=", 0) == 0) out = a.substr(std::strlen("--benchmark_out="));
        if (a.rfind("--benchmark_out_format=", 0) == 0) format = a.substr(std::strlen("--benchmark_out_format="));
    }
    return format == "json" ? out : "";
}

// Adds the machine block to the context of the JSON Google Benchmark wrote (and closed) at `path`.
void add_machine_block(const std::string &path, const nlohmann::json &block) {
    nlohmann::json doc = harness::parse_json(harness::read_file(path), path, "");
    doc["context"]["machine.run"] = block.dump();
    harness::write_file_atomic(path, doc.dump(2) + "\n");
}

}  // namespace

int main(int argc, char **argv) {
    bench::install_crash_trace();
    std::string pairing = "blocks";
    parse_own_flags(&argc, argv, pairing);
    if (g_opt.kernels) harness::set_kernel_timing(true);  // before the runtimes make their queues
    std::unique_ptr<harness::ParallelPool> pool;
    bench::Registered registered;
    try {
        g_opt.pairing = bench::parse_pairing(pairing);
        benchmark::AddCustomContext("pairing", bench::pairing_name(g_opt.pairing));
        std::string pool_description;
        pool = harness::make_pool_by_name(bench::g_opt.halide_pool, &pool_description);
        benchmark::AddCustomContext("halide_pool", pool_description);
        benchmark::AddCustomContext(
            "opencl_kernel_cache",
            harness::opencl_kernel_cache_on() ?
                "on: cl_kernel objects reused across launches (not Halide's runtime as shipped)" :
                "off: Halide's runtime as shipped (a kernel object made per launch)");
        registered = bench::register_all();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "pipeline-benchmarks: error: %s\n", e.what());
        return 2;
    }
    const std::string out = benchmark_out(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    harness::MachineSampler sampler;
    sampler.start();
    const nlohmann::json own_start = harness::own_cpu_wait(harness::MachineSources::from_environment());
    nlohmann::json calibration = nlohmann::json::object();
    if (!g_opt.quick) calibration["start"] = harness::perf::calibrate(bench::all_threads(), registered.gpu_runtimes);
    benchmark::RunSpecifiedBenchmarks();
    if (!g_opt.quick) calibration["end"] = harness::perf::calibrate(bench::all_threads(), registered.gpu_runtimes);
    benchmark::Shutdown();
    nlohmann::json block = sampler.stop();
    block["during"]["wait_share"] =
        harness::wait_share(own_start, harness::own_cpu_wait(harness::MachineSources::from_environment()));
    block["profiles"] = registered.profiles;
    block["calibration"] = calibration;
    std::printf("\nmachine during the run:\n%s", harness::describe_machine_block(block).c_str());
    int rc = 0;
    if (!out.empty()) {
        try {
            add_machine_block(out, block);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "pipeline-benchmarks: error: cannot add the machine record to %s: %s\n", out.c_str(),
                         e.what());
            rc = 2;
        }
    }
    if (!g_opt.thresholds.empty()) {
        try {
            rc = std::max(rc, check_floors());
        } catch (const std::exception &e) {
            std::fprintf(stderr, "pipeline-benchmarks: error: %s\n", e.what());
            rc = 2;
        }
    }
    bench::exit_without_teardown(rc);
}
