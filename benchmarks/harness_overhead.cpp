// BM_harness_overhead (harness_overhead.h): one call through Invocation against the bare variant call.
#include "harness_overhead.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <deque>

#include "harness/registry.h"
#include "run/runner.h"

namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

void run_overhead(benchmark::State &state, const harness::Variant *variant, const harness::CaseSpec *c) {
    std::vector<harness::Array> inputs = harness::case_inputs(*c);
    harness::Invocation inv(*variant, *c, inputs, harness::BufferMode::Host, 64);
    std::string err;
    if (inv.call(&err) != 0) {
        state.SkipWithError(("pipeline failed: " + err).c_str());
        return;
    }
    double raw = 0, verified = 0, fill = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        const int e1 = inv.call_resident();
        const auto t1 = Clock::now();
        const int e2 = inv.call(&err, 0xCD);
        const auto t2 = Clock::now();
        inv.fill_outputs(0x32);  // the canary fill alone, timed apart
        const auto t3 = Clock::now();
        if (e1 != 0 || e2 != 0) {
            state.SkipWithError(("pipeline failed: " + err).c_str());
            return;
        }
        raw += seconds(t0, t1);
        verified += seconds(t1, t2);
        fill += seconds(t2, t3);
        state.SetIterationTime(seconds(t1, t2));
    }
    const double n = static_cast<double>(state.iterations());
    state.counters["raw_call_ms"] = raw / n * 1e3;
    state.counters["verified_call_ms"] = verified / n * 1e3;
    state.counters["canary_fill_ms"] = fill / n * 1e3;
    // Everything the harness adds, and the same without the canary fill (one pass over the
    // outputs, which is the price of detecting outputs that were never written).
    state.counters["overhead_pct"] = raw > 0 ? 100.0 * (verified - raw) / raw : 0;
    state.counters["dispatch_overhead_pct"] = raw > 0 ? 100.0 * (verified - raw - fill) / raw : 0;
    state.SetLabel(variant->metadata->target);
}

}  // namespace

void register_harness_overhead(bool quick) {
    static std::deque<harness::CaseSpec> cases;
    const harness::Registry &reg = harness::Registry::instance();
    for (const auto &p : reg.pipelines()) {
        const harness::PipelineSpec &spec = reg.spec(p);
        const harness::Variant *host = reg.find(p, "host");
        if (!spec.make_case || !host || !host->compile_error.empty()) continue;
        const int w = quick ? 64 : 1920, h = quick ? 48 : 1080;
        cases.push_back(spec.make_case(w, h));
        cases.back().name = std::to_string(w) + "x" + std::to_string(h);
        const std::string name = "BM_harness_overhead/" + p + "/host/" + cases.back().name;
        auto *bm = benchmark::RegisterBenchmark(name.c_str(), run_overhead, host, &cases.back());
        bm->Unit(benchmark::kMillisecond)->UseManualTime();
        if (quick) bm->Iterations(1);
    }
}

}  // namespace bench
