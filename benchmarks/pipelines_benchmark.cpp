// pipeline-benchmarks: registers BM_<pipeline>/<profile>/<case>/<mode> for every compiled variant
// whose profile can run here, from the harness registry and specs.
//
// Modes:
//   resident   inputs copied to the device once; the timed loop runs the pipeline and waits for the
//              device (outputs stay there). For CPU profiles this is simply the call.
//   roundtrip  each iteration marks the inputs dirty, runs, copies outputs back and frees device
//              memory: what an application that hands host buffers to Halide pays.
// Counters: pixels_per_second (output width x height), bytes_per_second (inputs read once + outputs
// written once).
#include <benchmark/benchmark.h>

#include <cstdio>

#include "harness/environment.h"
#include "harness/error.h"
#include "harness/opencl_info.h"
#include "harness/profile.h"
#include "harness/registry.h"
#include "harness/runner.h"
#include "harness/runtime_hooks.h"

namespace {

using namespace harness;

struct Bench {
    const Variant *variant;
    const CaseSpec *c;
    bool roundtrip;
};

void run_benchmark(benchmark::State &state, Bench b) {
    std::vector<Array> inputs = case_inputs(*b.c);
    Invocation inv(*b.variant, *b.c, inputs);
    std::string err;
    if (inv.call(&err) != 0) {  // warm-up: compiles kernels, checks it runs at all
        state.SkipWithError(("pipeline failed: " + err).c_str());
        return;
    }
    if (!b.roundtrip && inv.call_resident() != 0) {
        state.SkipWithError("pipeline failed on the resident warm-up");
        return;
    }
    for (auto _ : state) {
        int rc;
        if (b.roundtrip) {
            inv.touch_inputs();
            rc = inv.call(&err);
        } else {
            rc = inv.call_resident();
            if (rc == 0) rc = inv.device_sync();
        }
        if (rc != 0) {
            state.SkipWithError(("pipeline failed: " + take_halide_error()).c_str());
            return;
        }
    }
    const std::vector<Array> outputs = inv.outputs();
    const Array &out = outputs.at(0);
    const double pixels = static_cast<double>(out.shape.at(0)) * (out.shape.size() > 1 ? out.shape[1] : 1);
    double bytes = 0;
    for (const auto &a : inputs) bytes += static_cast<double>(a.bytes.size());
    for (const auto &a : outputs) bytes += static_cast<double>(a.bytes.size());
    const auto iters = static_cast<double>(state.iterations());
    state.counters["pixels_per_second"] = benchmark::Counter(pixels * iters, benchmark::Counter::kIsRate);
    state.counters["bytes_per_second"] = benchmark::Counter(bytes * iters, benchmark::Counter::kIsRate);
    state.SetLabel(b.variant->metadata->target);
}

void register_all() {
    Registry &reg = Registry::instance();
    reg.validate();
    install_halide_error_handler();
    const nlohmann::json opencl = probe_opencl(), cuda = probe_cuda();
    for (const auto &p : reg.pipelines()) {
        const PipelineSpec &spec = reg.spec(p);
        for (const auto &prof : reg.profiles_of(p)) {
            nlohmann::json selected;
            std::string why = runtime_unavailable_reason(find_profile(prof).runtime, opencl, cuda, &selected);
            if (why.empty() && find_profile(prof).runtime == "opencl") {
                why = missing_extensions_reason(spec.required_extensions, selected);
            }
            if (why.empty()) why = compile_error_message(*reg.find(p, prof));
            if (!why.empty()) {
                benchmark::AddCustomContext("skipped." + p + "/" + prof, why);
                continue;
            }
            if (!selected.is_null()) benchmark::AddCustomContext("device." + prof, selected.dump());
            for (const auto &c : spec.cases) {
                for (const bool roundtrip : {false, true}) {
                    const std::string name = "BM_" + p + "/" + prof + "/" + c.name + "/" + (roundtrip ? "roundtrip" : "resident");
                    benchmark::RegisterBenchmark(name.c_str(), run_benchmark, Bench{reg.find(p, prof), &c, roundtrip})
                        ->Unit(benchmark::kMillisecond)
                        ->UseRealTime();
                }
            }
        }
    }
    benchmark::AddCustomContext("halide_version", std::to_string(HALIDE_VERSION_MAJOR) + "." +
                                                      std::to_string(HALIDE_VERSION_MINOR) + "." +
                                                      std::to_string(HALIDE_VERSION_PATCH));
    nlohmann::json targets;
    for (const auto &prof : profiles()) targets[prof.name] = prof.target;
    benchmark::AddCustomContext("profile_targets", targets.dump());
}

}  // namespace

int main(int argc, char **argv) {
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
    return 0;
}
