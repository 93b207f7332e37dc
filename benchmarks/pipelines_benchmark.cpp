// pipeline-benchmarks: registers, from the harness registry, in this order (Google Benchmark runs
// them in registration order, so rooflines and baselines are measured before the pipelines):
//
//   BM_memcpy/...                          the copy rooflines (memcpy_benchmarks.h)
//   BM_opencv/<pipeline>/<size>/threads:<n> the OpenCV equivalent (baselines/opencv_baselines.h)
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
// copy of the same bytes and the OpenCV call after each timed iteration, so that both sides see the same machine),
// pct_of_copy_bw (host memcpy with the profile's threads, device-to-device copy for GPU profiles) and
// speedup_vs_opencv (OpenCV with the profile's thread count) where the pipeline has a baseline. Where NVIDIA NPP
// loads (baselines/npp_baselines.h), BM_npp/<pipeline>/<size> times the NPP equivalent (device-resident buffers of its
// own, launch + stream sync, paired with a cudart device-to-device copy) right before the GPU profiles' benchmarks of
// the same case, and those get speedup_vs_npp (NPP's median over theirs). NPP is not interleaved with the pipeline: its
// CUDA context is not Halide's (nor OpenCL's), and switching contexts after every iteration slowed the pipelines' own
// iterations by 0.1-0.14 ms on the H100 (blur3x3 cuda 16384^2 0.27 -> 0.40 ms); on a dedicated GPU the two medians a
// minute apart are stable (spread < 1 %).
//
// Own flags (before Google Benchmark's): --quick (smoke: 64x48, one iteration each, small copies),
// --harness_big (the GPU size past L2), --no_opencv_pairing (no OpenCV call after each iteration),
// --halide_spin_pool (a diagnostic: Halide's parallel loops on a pool whose idle workers spin, spin_pool.h),
// --check-thresholds=FILE (exit 1 listing floors not met).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>

#include "baselines/npp_baselines.h"
#include "baselines/opencv_baselines.h"
#include "bench_common.h"
#include "crash_trace.h"
#include "harness_overhead.h"
#include "memcpy_benchmarks.h"
#include "pool_overhead.h"
#include "spin_pool.h"
#include "report/environment.h"
#include "base/error.h"
#include "devices/opencl_probe.h"
#include "devices/cuda_probe.h"
#include "devices/runtime_availability.h"
#include "devices/vulkan_probe.h"
#include "golden/golden.h"
#include "spec/xfail.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "run/runner.h"
#include "devices/runtime_hooks.h"
#include "thresholds.h"

namespace {

using namespace harness;
using bench::g_opt;
using Clock = std::chrono::steady_clock;

struct BenchSize {
    std::string name;
    int width, height;
    bool gpu_only;
};

// The benchmark sizes, data-driven.
std::vector<BenchSize> bench_sizes() {
    if (g_opt.quick) return {{"64x48", 64, 48, false}};
    std::vector<BenchSize> s{{"1920x1080", 1920, 1080, false}, {"4096x4096", 4096, 4096, false}};
    if (g_opt.big) s.push_back({"16384x16384", 16384, 16384, true});
    return s;
}

using harness::perf::cached_case_inputs;  // one slot: the 16384^2 inputs do not pile up

// BM_npp name -> its median seconds per iteration, for the GPU benchmarks of the same case after it.
std::map<std::string, double> g_npp_seconds;

// ---- BM_opencv and BM_<pipeline> ----------------------------------------------------------------

// One benchmark of the table: an OpenCV baseline (variant == nullptr) or a compiled variant.
struct Bench {
    std::string name;
    const Variant *variant = nullptr;
    const bench::OpenCvBaseline *baseline = nullptr;  // the OpenCV call timed (baseline) or paired (pipeline)
    const bench::NppBaseline *npp = nullptr;          // BM_npp: the NPP call timed; a GPU pipeline: its NPP peer
    const CaseSpec *c = nullptr;
    bool roundtrip = false;
    int threads = 1;          // CPU threads of the profile (OpenCV's thread count)
    std::string gpu_runtime;  // "" for CPU profiles and baselines
    std::string device, driver;
};

// The host copies run on OpenCV's pool, as the OpenCV calls they are paired with (its size is the
// profile's thread count, set before each benchmark).
void opencv_pool(size_t n, const std::function<void(size_t)> &body) {
    bench::opencv_parallel_for(n, body);
}

// Timed the way `aot-harness bench` times (harness/bench/timing.h): the OpenCV call as the body.
void run_baseline(benchmark::State &state, const Bench *b) {
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    bench::opencv_set_threads(b->threads);
    harness::perf::PairedReference ref(bench::work_of(*b->c).bytes, b->threads, "", {}, opencv_pool);
    std::function<void()> call;
    try {
        call = b->baseline->bind(*b->c, inputs).run;  // after opencv_set_threads: bands sized for the pool
    } catch (const std::exception &e) {
        return bench::fail(state, b->name, e.what());
    }
    call();  // warm-up: OpenCV's thread pool, output pages
    const auto r = harness::perf::timed_loop(state, ref, bench::work_of(*b->c), [&] {
        call();
        return std::string();
    });
    bench::record_measured(b->name, r.seconds_per_iter, bench::work_of(*b->c), b->device, b->driver, r.error);
}

// BM_npp: the NPP equivalent, each iteration followed by a device-to-device copy of the same bytes in
// NPP's own context (pct_of_copy_bw); its median per-iteration time is what speedup_vs_npp divides.
void run_npp(benchmark::State &state, const Bench *b) {
    bench::set_running(b->name);
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    bench::NppCall call, copy;
    try {
        call = b->npp->bind(*b->c, inputs);
        copy = bench::npp_device_copy(static_cast<size_t>(bench::work_of(*b->c).bytes / 2));
        call.run();  // warm-up
        copy.run();
    } catch (const std::exception &e) {
        return bench::fail(state, b->name, e.what());
    }
    double total = 0, copy_total = 0;
    std::vector<double> per;
    for (auto _ : state) {
        try {
            const auto t0 = std::chrono::steady_clock::now();
            call.run();
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            state.SetIterationTime(s);
            total += s;
            per.push_back(s);
            const auto t1 = std::chrono::steady_clock::now();
            copy.run();
            copy_total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        } catch (const std::exception &e) {
            return bench::fail(state, b->name, e.what());
        }
    }
    const double n = static_cast<double>(state.iterations());
    bench::set_counters(state, b->name, total / n, bench::work_of(*b->c), copy_total / n, b->device, b->driver);
    std::nth_element(per.begin(), per.begin() + static_cast<std::ptrdiff_t>(per.size() / 2), per.end());
    g_npp_seconds[b->name] = per[per.size() / 2];  // the last repetition's median: the GPU is steady
    state.SetLabel(bench::npp_versions());
}

// The shared pipeline loop, with the OpenCV equivalent paired (speedup_vs_opencv) and NPP's median
// of the same case, measured just before, as speedup_vs_npp.
void run_pipeline(benchmark::State &state, const Bench *b) {
    bench::set_running(b->name);
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    bench::opencv_set_threads(b->threads);
    harness::perf::PipelineBench pb{b->name, b->variant, b->c, b->roundtrip, b->threads, b->gpu_runtime};
    const auto paired = [&]() -> std::vector<harness::perf::PairedCall> {
        if (!b->baseline || g_opt.no_opencv_pairing) return {};
        return {{"opencv", b->baseline->bind(*b->c, inputs).run}};
    };
    const auto r = harness::perf::run_pipeline_benchmark(state, pb, inputs, paired, opencv_pool);
    bench::record_measured(b->name, r.seconds_per_iter, bench::work_of(*b->c), b->device, b->driver, r.error);
    if (b->npp && r.error.empty() && r.seconds_per_iter > 0) {
        const auto it = g_npp_seconds.find("BM_npp/" + b->variant->pipeline + "/" + b->c->name);
        if (it != g_npp_seconds.end()) state.counters["speedup_vs_npp"] = it->second / r.seconds_per_iter;
    }
}

void register_all() {
    Registry &reg = Registry::instance();
    reg.validate();
    install_halide_error_handler();
    const nlohmann::json opencl = probe_opencl(), cuda = probe_cuda();
    const nlohmann::json env = environment_info();
    const std::string cpu_model = env.value("/host_cpu/model"_json_pointer, std::string("unknown cpu"));
    const int nthreads = bench::all_threads();

    // Which profiles run here, and on which device.
    struct Runnable {
        const Profile *profile;
        std::string device, driver;
        nlohmann::json selected;  // the OpenCL platform/device Halide will pick
    };
    std::map<std::string, Runnable> runnable;
    std::map<std::string, Runnable> gpu_runtimes;  // runtime -> a device it runs on
    for (const auto &prof : profiles()) {
        if (prof.target.empty()) continue;
        nlohmann::json selected;
        const std::string why = runtime_unavailable_reason(prof.runtime, opencl, cuda, &selected);
        if (!why.empty()) {
            benchmark::AddCustomContext("skipped." + prof.name, why);
            continue;
        }
        Runnable r{&prof, cpu_model, "", selected};
        if (prof.runtime == "opencl") {
            r.device = selected.value("device", "");
            r.driver = selected.value("platform", "") + " " + selected.value("driver_version", "");
            benchmark::AddCustomContext("device." + prof.name, selected.dump());
        } else if (prof.runtime == "cuda") {
            r.device = cuda.value("/devices/0/name"_json_pointer, std::string("cuda device"));
            r.driver = "CUDA " + std::to_string(cuda.value("driver_version", 0));
            benchmark::AddCustomContext("device." + prof.name, r.device + " / " + r.driver);
        } else if (prof.runtime == "vulkan") {
            r.device = selected.value("device", "");
            r.driver = selected.value("driver_name", "") + " " + selected.value("driver_version", "") + " (" +
                       selected.value("driver_info", "") + ")";
            benchmark::AddCustomContext("device." + prof.name, selected.dump());
        }
        runnable[prof.name] = r;
        if (prof.is_gpu()) gpu_runtimes.emplace(prof.runtime, r);
    }

    // Rooflines, measured now so that every benchmark's pct_of_copy_bw uses the same value.
    std::map<std::string, bench::DeviceName> gpu_devices;
    for (const auto &[runtime, r] : gpu_runtimes)
        gpu_devices[runtime] = {r.device, r.driver};
    bench::register_memcpy_benchmarks(cpu_model, gpu_devices);
    // NVIDIA NPP, loaded at run time: the GPU profiles' peer where it runs, else the reason in the context.
    const std::string npp_reason = gpu_runtimes.empty() ? "no GPU profile runs here" : bench::npp_unavailable_reason();
    benchmark::AddCustomContext(npp_reason.empty() ? "npp" : "skipped.npp",
                                npp_reason.empty() ? bench::npp_versions() : npp_reason);

    // Cases: make_case at every size, else the spec's `large` (`small` with --quick) case. Baselines
    // are registered before the pipelines, one per (pipeline, size, thread count) that a profile uses.
    const XfailList xfails = XfailList::load(default_golden_dir() + "/xfail.json");
    static std::deque<CaseSpec> owned;
    static std::deque<Bench> baselines, pipelines;
    for (const auto &p : reg.pipelines()) {
        const PipelineSpec &spec = reg.spec(p);
        std::vector<std::pair<const CaseSpec *, bool>> cases;  // case, gpu_only
        if (spec.make_case) {
            for (const auto &s : bench_sizes()) {
                owned.push_back(spec.make_case(s.width, s.height));
                owned.back().name = s.name;
                cases.emplace_back(&owned.back(), s.gpu_only);
            }
        } else {
            cases.emplace_back(&spec.find_case(g_opt.quick ? "small" : "large"), false);
        }
        // A strip-height candidate (generators/CMakeLists.txt, HARNESS_STRIP_CANDIDATES), <name>_strips<rows>,
        // is paired with <name>'s baseline.
        const size_t strips_at = p.rfind("_strips");
        const std::string base =
            bench::opencv_baselines().count(p) || strips_at == std::string::npos ? p : p.substr(0, strips_at);
        const auto cv_it = bench::opencv_baselines().find(base);
        const bench::OpenCvBaseline *cv = cv_it == bench::opencv_baselines().end() ? nullptr : &cv_it->second;
        if (cv) benchmark::AddCustomContext("opencv_baseline." + p, cv->what);
        const auto npp_it = bench::npp_baselines().find(p);
        const bench::NppBaseline *npp =
            npp_it == bench::npp_baselines().end() || !npp_reason.empty() ? nullptr : &npp_it->second;
        if (npp) benchmark::AddCustomContext("npp_baseline." + p, npp->what);
        for (const auto &[c, gpu_only] : cases) {
            for (const auto &prof_name : reg.profiles_of(p)) {
                auto rit = runnable.find(prof_name);
                if (rit == runnable.end()) continue;
                const Profile &prof = *rit->second.profile;
                // Per pipeline: a variant that failed to compile, or a device without an extension
                // the spec needs, is skipped with the reason in the context.
                std::string why = compile_error_message(*reg.find(p, prof_name));
                if (why.empty() && prof.runtime == "opencl")
                    why = missing_extensions_reason(spec.required_extensions, rit->second.selected);
                if (why.empty() && prof.runtime == "vulkan") {
                    why =
                        missing_vulkan_features_reason(reg.find(p, prof_name)->metadata->target, rit->second.selected);
                }
                if (why.empty()) {
                    // A variant golden/xfail.json expects to be an ERROR on this device (it cannot run
                    // here, e.g. bitonic_sort/vulkan-mali on lavapipe) is not benchmarked.
                    RunRecord probe;
                    probe.pipeline = p;
                    probe.profile = prof_name;
                    probe.case_name = c->name;
                    probe.outcome = Outcome::Error;
                    xfails.apply(probe, rit->second.selected);
                    if (probe.outcome == Outcome::XFail)
                        why = "golden/xfail.json expects an ERROR here: " + probe.xfail_reason;
                }
                if (!why.empty()) {
                    benchmark::AddCustomContext("skipped." + p + "/" + prof_name + "/" + c->name, why);
                    continue;
                }
                if (gpu_only && !prof.is_gpu()) continue;
                const int t = bench::profile_threads(prof);
                const std::string base_name = "BM_opencv/" + base + "/" + c->name + "/threads:" + std::to_string(t);
                if (cv && std::none_of(baselines.begin(), baselines.end(),
                                       [&](const Bench &x) { return x.name == base_name; })) {
                    baselines.push_back({base_name, nullptr, cv, nullptr, c, false, t, "", cpu_model, ""});
                }
                const std::string npp_bench = "BM_npp/" + p + "/" + c->name;
                if (npp && prof.is_gpu() && std::none_of(pipelines.begin(), pipelines.end(), [&](const Bench &x) {
                        return x.name == npp_bench;
                    })) {
                    pipelines.push_back(
                        {npp_bench, nullptr, nullptr, npp, c, false, t, "", "NVIDIA NPP", bench::npp_versions()});
                }
                for (const bool roundtrip : {false, true}) {
                    if (roundtrip && !prof.is_gpu()) continue;
                    const std::string name =
                        "BM_" + p + "/" + prof_name + "/" + c->name + "/" + (roundtrip ? "roundtrip" : "resident");
                    pipelines.push_back({name, reg.find(p, prof_name), cv, prof.is_gpu() ? npp : nullptr, c, roundtrip,
                                         t, prof.is_gpu() ? prof.runtime : "", rit->second.device, rit->second.driver});
                }
            }
        }
    }
    for (const Bench &b : baselines)
        bench::configure(benchmark::RegisterBenchmark(b.name.c_str(), run_baseline, &b));
    for (const Bench &b : pipelines)
        bench::configure(benchmark::RegisterBenchmark(b.name.c_str(), b.variant ? run_pipeline : run_npp, &b));
    bench::register_harness_overhead(g_opt.quick);
    if (!g_opt.quick) bench::register_pool_overhead(nthreads);

    benchmark::AddCustomContext("halide_version", env.value("halide_version", std::string("?")));
    nlohmann::json targets;
    for (const auto &prof : profiles())
        targets[prof.name] = prof.target;
    benchmark::AddCustomContext("profile_targets", targets.dump());
    nlohmann::json cl_devices = nlohmann::json::array();
    for (const auto &pl : opencl.value("platforms", nlohmann::json::array())) {
        for (const auto &d : pl.value("devices", nlohmann::json::array())) {
            cl_devices.push_back({{"platform", pl.value("name", "")},
                                  {"platform_version", pl.value("version", "")},
                                  {"device", d.value("name", "")},
                                  {"driver_version", d.value("driver_version", "")}});
        }
    }
    benchmark::AddCustomContext("opencl_devices", cl_devices.dump());
    benchmark::AddCustomContext("host_cpu", cpu_model + ", " + std::to_string(nthreads) + " threads");
    benchmark::AddCustomContext("opencv_version", bench::opencv_version());
    benchmark::AddCustomContext("mode",
                                g_opt.quick ? "quick (smoke: tiny sizes, one iteration; no timing value)" : "full");
}

// Removes this binary's own flags from argv (Google Benchmark rejects unknown ones).
void parse_own_flags(int *argc, char **argv) {
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const std::string a = argv[i];
        if (a == "--quick")
            g_opt.quick = true;
        else if (a == "--harness_big")
            g_opt.big = true;
        else if (a == "--no_opencv_pairing")
            g_opt.no_opencv_pairing = true;
        else if (a == "--halide_spin_pool")
            bench::install_halide_spin_pool();
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

}  // namespace

int main(int argc, char **argv) {
    bench::install_crash_trace();
    parse_own_flags(&argc, argv);
    try {
        register_all();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "pipeline-benchmarks: error: %s\n", e.what());
        return 2;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    int rc = 0;
    if (!g_opt.thresholds.empty()) {
        try {
            rc = check_floors();
        } catch (const std::exception &e) {
            std::fprintf(stderr, "pipeline-benchmarks: error: %s\n", e.what());
            rc = 2;
        }
    }
    bench::exit_without_teardown(rc);
}
