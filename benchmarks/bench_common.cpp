// pipeline-benchmarks' options, counters and failure bookkeeping (bench_common.h).
#include "bench_common.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "harness/registry.h"

namespace bench {

Options g_opt;
std::map<std::string, Measured> g_measured;

harness::perf::Pairing parse_pairing(const std::string &value) {
    if (value == "blocks") return harness::perf::Pairing::AfterLoop;
    if (value == "iteration") return harness::perf::Pairing::EachIteration;
    throw std::invalid_argument("--pairing: '" + value + "' is not blocks or iteration; e.g. --pairing=blocks");
}

const char *pairing_name(harness::perf::Pairing p) {
    return p == harness::perf::Pairing::AfterLoop ? "blocks" : "iteration";
}

void set_counters(benchmark::State &state, const std::string &name, double seconds_per_iter, Work w,
                  double copy_seconds, const std::string &device, const std::string &driver) {
    state.counters["pixels_per_second"] = w.pixels / seconds_per_iter;
    state.counters["bytes_per_second"] = w.bytes / seconds_per_iter;
    state.counters["pct_of_copy_bw"] = 100.0 * copy_seconds / seconds_per_iter;
    record_measured(name, seconds_per_iter, w, device, driver);
}

void record_measured(const std::string &name, double seconds_per_iter, Work w, const std::string &device,
                     const std::string &driver, const std::string &error) {
    Measured &m = g_measured[name];
    m.device = device;
    m.driver = driver;
    if (!error.empty())
        m.error = error;
    else
        m.mpix_per_s.push_back(w.pixels / seconds_per_iter / 1e6);
}

void fail(benchmark::State &state, const std::string &name, const std::string &msg) {
    g_measured[name].error = msg;
    state.SkipWithError(msg.c_str());
}

benchmark::internal::Benchmark *configure(benchmark::internal::Benchmark *bm) {
    bm->Unit(benchmark::kMillisecond)->UseManualTime();
    if (g_opt.quick) bm->Iterations(1);
    return bm;
}

std::string candidate_base(const std::string &p) {
    const size_t at = p.rfind("_c");
    if (at == std::string::npos || at + 2 == p.size() ||
        p.find_first_not_of("0123456789", at + 2) != std::string::npos ||
        !harness::Registry::instance().find(p.substr(0, at), "cpu"))
        return p;
    return p.substr(0, at);
}

}  // namespace bench
