// The table of pipeline-benchmarks (pipeline_table.h).
#include "pipeline_table.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_plan.h"
#include "bench_common.h"
#include "bench_runs.h"
#include "harness_overhead.h"
#include "memcpy_benchmarks.h"
#include "pool_overhead.h"
#include "report/environment.h"
#include "devices/opencl_probe.h"
#include "devices/cuda_probe.h"
#include "devices/runtime_availability.h"
#include "devices/vulkan_probe.h"
#include "golden/golden.h"
#include "spec/xfail.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "devices/runtime_hooks.h"

namespace bench {

namespace {

using namespace harness;

struct BenchSize {
    std::string name;
    int width, height;
    bool gpu_only;
};

// The benchmark sizes, data-driven.
std::vector<BenchSize> bench_sizes() {
    if (g_opt.quick) return {{"64x48", 64, 48, false}};
    if (!g_opt.sizes.empty()) {
        std::vector<BenchSize> s;
        for (const auto &[w, h] :
             harness::perf::parse_size_list(g_opt.sizes, "--harness_sizes:", "--harness_sizes=64x64,4096x4096"))
            s.push_back({std::to_string(w) + "x" + std::to_string(h), w, h, false});
        return s;
    }
    std::vector<BenchSize> s{{"1920x1080", 1920, 1080, false}, {"4096x4096", 4096, 4096, false}};
    if (g_opt.big) s.push_back({"16384x16384", 16384, 16384, true});
    return s;
}

}  // namespace

Registered register_all() {
    Registry &reg = Registry::instance();
    reg.validate();
    install_halide_error_handler();
    const nlohmann::json opencl = probe_opencl(), cuda = probe_cuda();
    const nlohmann::json env = environment_info();
    const std::string cpu_model = env.value("/host_cpu/model"_json_pointer, std::string("unknown cpu"));
    const int nthreads = all_threads();

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
    std::map<std::string, DeviceName> gpu_devices;
    for (const auto &[runtime, r] : gpu_runtimes)
        gpu_devices[runtime] = {r.device, r.driver};
    register_memcpy_benchmarks(cpu_model, gpu_devices);
    // NVIDIA NPP, loaded at run time: the GPU profiles' peer where it runs, else the reason in the context.
    const std::string npp_reason = gpu_runtimes.empty() ? "no GPU profile runs here" : npp_unavailable_reason();
    benchmark::AddCustomContext(npp_reason.empty() ? "npp" : "skipped.npp",
                                npp_reason.empty() ? npp_versions() : npp_reason);

    // Cases: make_case at every size, else the spec's `large` (`small` with --quick) case. Peers
    // are registered before the pipelines, one per (pipeline, size, thread count) that a profile uses.
    const XfailList xfails = XfailList::load(default_golden_dir() + "/xfail.json");
    static std::deque<CaseSpec> owned;
    static std::deque<Bench> peers, pipelines;
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
        // is paired with <name>'s peer.
        const size_t strips_at = p.rfind("_strips");
        // A GPU schedule candidate, <name>_c<n>, shares <name>'s OpenCV and NPP peers (candidate_base).
        const std::string base = opencv_peers().count(p)        ? p :
                                 strips_at != std::string::npos ? p.substr(0, strips_at) :
                                                                  candidate_base(p);
        const auto cv_it = opencv_peers().find(base);
        const OpenCvPeer *cv = cv_it == opencv_peers().end() ? nullptr : &cv_it->second;
        if (cv) benchmark::AddCustomContext("opencv_peer." + p, cv->what);
        const auto npp_it = npp_peers().find(base);
        const NppPeer *npp = npp_it == npp_peers().end() || !npp_reason.empty() ? nullptr : &npp_it->second;
        if (npp && base == p) benchmark::AddCustomContext("npp_peer." + p, npp->what);
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
                const int t = profile_threads(prof);
                const std::string base_name = "BM_opencv/" + base + "/" + c->name + "/threads:" + std::to_string(t);
                if (cv &&
                    std::none_of(peers.begin(), peers.end(), [&](const Bench &x) { return x.name == base_name; })) {
                    peers.push_back({base_name, nullptr, cv, nullptr, c, false, t, "", cpu_model, "", ""});
                }
                const std::string npp_bench = "BM_npp/" + base + "/" + c->name;
                if (npp && prof.is_gpu() && std::none_of(pipelines.begin(), pipelines.end(), [&](const Bench &x) {
                        return x.name == npp_bench;
                    })) {
                    pipelines.push_back(
                        {npp_bench, nullptr, nullptr, npp, c, false, t, "", "NVIDIA NPP", npp_versions(), ""});
                }
                for (const bool roundtrip : {false, true}) {
                    if (roundtrip && !prof.is_gpu()) continue;
                    const std::string name =
                        "BM_" + p + "/" + prof_name + "/" + c->name + "/" + (roundtrip ? "roundtrip" : "resident");
                    pipelines.push_back({name, reg.find(p, prof_name), cv, prof.is_gpu() ? npp : nullptr, c, roundtrip,
                                         t, prof.is_gpu() ? prof.runtime : "", rit->second.device, rit->second.driver,
                                         npp_bench});
                }
            }
        }
    }
    for (const Bench &b : peers)
        configure(benchmark::RegisterBenchmark(b.name.c_str(), run_peer, &b));
    for (const Bench &b : pipelines)
        configure(benchmark::RegisterBenchmark(b.name.c_str(), b.variant ? run_pipeline : run_npp, &b));
    register_harness_overhead(g_opt.quick);
    if (!g_opt.quick) register_pool_overhead(nthreads);

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
    benchmark::AddCustomContext("opencv_version", opencv_version());
    benchmark::AddCustomContext("mode",
                                g_opt.quick ? "quick (smoke: tiny sizes, one iteration; no timing value)" : "full");
    Registered out;
    for (const auto &[name, r] : runnable)
        out.profiles.push_back(name);
    for (const auto &[runtime, r] : gpu_runtimes)
        out.gpu_runtimes.push_back(runtime);
    return out;
}

}  // namespace bench
