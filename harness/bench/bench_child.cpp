// The child side of `aot-harness bench` (`__bench-one`): one profile's benchmarks in one process,
// Google Benchmark's JSON written and closed, then the record, then a normal exit. The parent
// (bench_command.cpp) classifies what it sees as `run` does (supervisor.h): a driver that crashes at
// exit after the record is a TEARDOWN_FAULT whose results are complete.
#include <benchmark/benchmark.h>

#include <deque>
#include <map>

#include "bench_command.h"
#include "bench_plan.h"
#include "harness/parallel_pool.h"
#include "bench/calibration.h"
#include "bench/timing.h"
#include "devices/machine_state.h"
#include "cli/cli_options.h"
#include "report/environment.h"
#include "base/error.h"
#include "base/files.h"
#include "golden/golden.h"
#include "variant/invocation.h"
#include "devices/cuda_probe.h"
#include "base/outcome.h"
#include "base/profile.h"
#include "matrix/run_matrix.h"
#include "devices/runtime_hooks.h"
#include "devices/kernel_log.h"
#include "base/version.h"
#include "spec/xfail.h"

namespace harness::perf {

namespace {

// Benchmarks that failed (SkipWithError), for the record: name -> message.
std::map<std::string, std::string> &failures() {
    static std::map<std::string, std::string> f;
    return f;
}

// --kernels: calls of the per-kernel (GPU) or per-Func (CPU) pass (0 = off), and each benchmark's breakdown by name.
int kernel_calls = 0;
std::string child_profile;  // the one profile this child measures
nlohmann::json &kernel_results() {
    static nlohmann::json k = nlohmann::json::object();
    return k;
}

void run_one(benchmark::State &state, const PipelineBench *b) {
    KernelBreakdown kernels;
    kernels.calls = kernel_calls;
    kernels.runtime = b->gpu_runtime;
    if (b->gpu_runtime.empty()) {  // a CPU profile: Halide's per-Func profile, from the profiled twin if built
        kernels.profile = child_profile;
        kernels.profiled = Registry::instance().profiled(b->variant->pipeline, child_profile);
    }
    // The copy rounds after each repetition's loop, not between two calls (timing.h, Pairing).
    const LoopResult r =
        run_pipeline_benchmark(state, *b, cached_case_inputs(*b->c), {}, {}, Pairing::AfterLoop, &kernels);
    if (!r.error.empty()) failures()[b->name] = r.error;
    // Repetitions each measure again: the last one's breakdown stands.
    if (!kernels.result.is_null()) kernel_results()[b->name] = kernels.result;
}

// The device a profile runs on, for the JSON context (device.<profile>) and the history's driver.
std::string device_description(const Profile &prof, const Availability &a, const nlohmann::json &cuda) {
    if (prof.runtime == "cuda") {
        return nlohmann::json{{"device", cuda.value("/devices/0/name"_json_pointer, std::string("cuda device"))},
                              {"platform", "CUDA"},
                              {"driver_version", std::to_string(cuda.value("driver_version", 0))}}
            .dump();
    }
    if (a.selected.contains(prof.name)) return a.selected.at(prof.name).dump();
    return "";
}

}  // namespace

int bench_child_main(const std::vector<std::string> &words) {
    const BenchArgs split = split_bench_args(words);
    const Args args = parse_command_args("__bench-one", split.harness);
    const BenchOptions o = bench_options(args);
    const std::string json = args.get("json"), record = args.get("record");
    install_halide_error_handler();
    child_profile = o.profile;
    if (o.kernels) {
        kernel_calls = o.quick ? 2 : 20;
        set_kernel_timing(true);  // before the runtimes make their queues (OpenCL profiling, Vulkan query pool)
    }
    // --halide-pool harness: every Halide parallel loop of this child on harness::ParallelPool (named in the context).
    std::string pool_description;
    const std::unique_ptr<ParallelPool> pool = make_pool_by_name(o.halide_pool, &pool_description);
    benchmark::AddCustomContext("halide_pool", pool_description);
    BenchPlan plan;
    plan_bench(o, plan);
    const Profile &prof = find_profile(o.profile);
    const Availability avail = check_availability();
    const nlohmann::json cuda = prof.runtime == "cuda" ? probe_cuda() : nlohmann::json();
    const XfailList xfails =
        XfailList::load((o.golden_dir.empty() ? default_golden_dir() : o.golden_dir) + "/xfail.json");
    const Registry &reg = Registry::instance();

    static std::deque<PipelineBench> benches;
    const int threads = profile_threads(prof);
    for (const BenchTask &t : plan.tasks) {
        const Variant *v = reg.find(t.pipeline, t.profile);
        std::string why = compile_error_message(*v);
        if (why.empty()) why = pipeline_unavailable_reason(avail, reg.spec(t.pipeline), t.profile);
        if (why.empty()) {
            // A variant golden/xfail.json expects to be an ERROR on this device is not benchmarked.
            RunRecord probe;
            probe.pipeline = t.pipeline;
            probe.profile = t.profile;
            probe.case_name = t.c->name;
            probe.outcome = Outcome::Error;
            xfails.apply(probe, avail.selected.value(t.profile, nlohmann::json()));
            if (probe.outcome == Outcome::XFail) why = "xfail.json expects an ERROR here: " + probe.xfail_reason;
        }
        if (!why.empty()) {
            benchmark::AddCustomContext("skipped." + t.pipeline + "/" + t.profile + "/" + t.c->name, why);
            continue;
        }
        benches.push_back({t.name(), v, t.c, t.mode == "roundtrip", threads, prof.is_gpu() ? prof.runtime : ""});
        auto *bm = benchmark::RegisterBenchmark(benches.back().name.c_str(), run_one, &benches.back());
        bm->Unit(benchmark::kMillisecond)->UseManualTime();
        if (o.quick) bm->Iterations(1);
    }
    const nlohmann::json env = environment_info();
    benchmark::AddCustomContext("aot_harness_version", version_text());
    benchmark::AddCustomContext("halide_version", env.value("halide_version", std::string("?")));
    benchmark::AddCustomContext("host_cpu", env.value("/host_cpu/model"_json_pointer, std::string("unknown cpu")) +
                                                ", " + std::to_string(all_threads()) + " threads");
    benchmark::AddCustomContext("target." + prof.name, prof.target);
    if (const std::string dev = device_description(prof, avail, cuda); !dev.empty())
        benchmark::AddCustomContext("device." + prof.name, dev);
    benchmark::AddCustomContext("copy_reference." + prof.name,
                                prof.is_gpu() ? prof.runtime + " device-to-device copy (halide_buffer_copy)" :
                                                "host memcpy, " + std::to_string(threads) + " thread(s)");
    benchmark::AddCustomContext("mode", o.quick ? "quick (one iteration each; no timing value)" : "full");

    std::vector<std::string> flags{"--benchmark_out=" + json, "--benchmark_out_format=json"};
    if (o.repetitions > 0) flags.push_back("--benchmark_repetitions=" + std::to_string(o.repetitions));
    if (!o.min_time.empty()) flags.push_back("--benchmark_min_time=" + o.min_time);
    flags.insert(flags.end(), split.google.begin(), split.google.end());
    google_initialize(flags);  // the parent checked them
    // The machine's speed at the block's start and end (calibration.h), for the comparison of runs; --quick
    // times nothing, so it calibrates nothing either.
    const std::vector<std::string> gpu_runtime =
        prof.is_gpu() ? std::vector<std::string>{prof.runtime} : std::vector<std::string>{};
    nlohmann::json calibration = nlohmann::json::object();
    const MachineSources sources = MachineSources::from_environment();
    const nlohmann::json own_start = own_cpu_wait(sources);  // how long this process's threads wait for a CPU
    if (!benches.empty() && !o.quick) calibration["start"] = calibrate(threads, gpu_runtime);
    const size_t ran = benches.empty() ? 0 : benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();  // the JSON file is complete and closed here
    if (!benches.empty() && !o.quick) calibration["end"] = calibrate(threads, gpu_runtime);
    calibration["wait_share"] = wait_share(own_start, own_cpu_wait(sources));
    if (o.kernels) write_file_atomic(json + ".kernels", kernel_results().dump() + "\n");

    RunRecord r;
    r.pipeline = "*";
    r.profile = o.profile;
    r.case_name = "*";
    r.mode = "bench";
    r.outcome = failures().empty() ? Outcome::Pass : Outcome::Fail;
    r.message = std::to_string(ran) + " benchmark(s) ran, " + std::to_string(benches.size() - ran) + " filtered out, " +
                std::to_string(failures().size()) + " failed";
    if (!failures().empty()) r.message += ": " + failures().begin()->first + ": " + failures().begin()->second;
    r.metrics["benchmarks"] = ran;
    r.metrics["calibration"] = calibration;
    write_file_atomic(record, r.to_json().dump() + "\n");
    return outcome_exit_code(r.outcome);
}

}  // namespace harness::perf
