// What the parts of pipeline-benchmarks share (bench_common.h): thread counts per profile, failing and
// configuring a benchmark.
#include "bench_common.h"

#include <algorithm>
#include <thread>

namespace bench {

Options g_opt;
std::map<std::string, Measured> g_measured;

int all_threads() {
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int profile_threads(const harness::Profile &p) {
    return p.schedule == "portable" ? 1 : all_threads();
}

Work work_of(const harness::CaseSpec &c) {
    Work w;
    const auto count = [](const harness::BufferSpec &b) {
        double n = b.type.bytes();
        for (int d : b.shape)
            n *= d;
        return n;
    };
    for (const auto &b : c.inputs)
        w.bytes += count(b);
    for (const auto &b : c.outputs)
        w.bytes += count(b);
    // The first image output (hist_equalize's first output is its histogram), else the first input
    // (reduce_stats reduces an image to 3 numbers).
    const harness::BufferSpec *image = nullptr;
    for (const auto &b : c.outputs) {
        if (!image && b.shape.size() >= 2) image = &b;
    }
    if (!image) image = c.inputs.empty() ? &c.outputs.at(0) : &c.inputs.at(0);
    const auto &shape = image->shape;
    w.pixels = static_cast<double>(shape.at(0)) * (shape.size() > 1 ? shape[1] : 1);
    return w;
}

void set_counters(benchmark::State &state, const std::string &name, double seconds_per_iter, Work w,
                  double copy_seconds, const std::string &device, const std::string &driver) {
    state.counters["pixels_per_second"] = w.pixels / seconds_per_iter;
    state.counters["bytes_per_second"] = w.bytes / seconds_per_iter;
    state.counters["pct_of_copy_bw"] = 100.0 * copy_seconds / seconds_per_iter;
    Measured &m = g_measured[name];
    m.device = device;
    m.driver = driver;
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

}  // namespace bench
