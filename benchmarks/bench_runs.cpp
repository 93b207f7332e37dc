// The benchmark bodies of pipeline-benchmarks (bench_runs.h).
#include "bench_runs.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <vector>

#include "bench_common.h"
#include "crash_trace.h"

namespace bench {

namespace {

using harness::Array;
using harness::perf::cached_case_inputs;  // one slot: the 16384^2 inputs do not pile up

// BM_npp name -> its median seconds per iteration, for the GPU benchmarks of the same case after it.
std::map<std::string, double> g_npp_seconds;

}  // namespace

// Timed the way `aot-harness bench` times (harness/bench/timing.h): the OpenCV call as the body. The host
// copies run on OpenCV's pool (opencv_parallel_for), as the OpenCV calls they are paired with (its size is
// the profile's thread count, set before each benchmark).
void run_peer(benchmark::State &state, const Bench *b) {
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    opencv_set_threads(b->threads);
    harness::perf::PairedReference ref(work_of(*b->c).bytes, b->threads, "", {}, opencv_parallel_for);
    std::function<void()> call;
    try {
        call = b->opencv->bind(*b->c, inputs).run;  // after opencv_set_threads: bands sized for the pool
    } catch (const std::exception &e) {
        return fail(state, b->name, e.what());
    }
    call();  // warm-up: OpenCV's thread pool, output pages
    const auto r = harness::perf::timed_loop(
        state, ref, work_of(*b->c),
        [&] {
            call();
            return std::string();
        },
        g_opt.pairing);
    record_measured(b->name, r.seconds_per_iter, work_of(*b->c), b->device, b->driver, r.error);
}

// BM_npp: the NPP equivalent, each iteration followed by a device-to-device copy of the same bytes in
// NPP's own context (pct_of_copy_bw); its median per-iteration time is what speedup_vs_npp divides.
void run_npp(benchmark::State &state, const Bench *b) {
    set_running(b->name);
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    NppCall call, copy;
    try {
        call = b->npp->bind(*b->c, inputs);
        copy = npp_device_copy(static_cast<size_t>(work_of(*b->c).bytes / 2));
        call.run();  // warm-up
        copy.run();
    } catch (const std::exception &e) {
        return fail(state, b->name, e.what());
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
            return fail(state, b->name, e.what());
        }
    }
    const double n = static_cast<double>(state.iterations());
    set_counters(state, b->name, total / n, work_of(*b->c), copy_total / n, b->device, b->driver);
    std::nth_element(per.begin(), per.begin() + static_cast<std::ptrdiff_t>(per.size() / 2), per.end());
    g_npp_seconds[b->name] = per[per.size() / 2];  // the last repetition's median: the GPU is steady
    state.SetLabel(npp_versions());
}

// The shared pipeline loop, with the OpenCV equivalent paired (speedup_vs_opencv) and NPP's median
// of the same case, measured just before, as speedup_vs_npp.
void run_pipeline(benchmark::State &state, const Bench *b) {
    set_running(b->name);
    const std::vector<Array> &inputs = cached_case_inputs(*b->c);
    opencv_set_threads(b->threads);
    harness::perf::PipelineBench pb{b->name, b->variant, b->c, b->roundtrip, b->threads, b->gpu_runtime};
    const auto paired = [&]() -> std::vector<harness::perf::PairedCall> {
        if (!b->opencv || g_opt.no_opencv_pairing) return {};
        return {{"opencv", b->opencv->bind(*b->c, inputs).run}};
    };
    harness::perf::KernelBreakdown kernels{g_opt.kernels && !b->gpu_runtime.empty() ? 20 : 0, b->gpu_runtime, nullptr};
    const auto r =
        harness::perf::run_pipeline_benchmark(state, pb, inputs, paired, opencv_parallel_for, g_opt.pairing, &kernels);
    record_measured(b->name, r.seconds_per_iter, work_of(*b->c), b->device, b->driver, r.error);
    if (b->npp && r.error.empty() && r.seconds_per_iter > 0) {
        const auto it = g_npp_seconds.find(b->npp_case);
        if (it != g_npp_seconds.end()) state.counters["speedup_vs_npp"] = it->second / r.seconds_per_iter;
    }
}

}  // namespace bench
