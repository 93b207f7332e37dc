// BM_pool (pool_overhead.h): the start-up and hand-out cost of Halide's thread pool and OpenCV's.
#include "pool_overhead.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "peers/opencv_peers.h"
#include "bench/copy.h"

namespace bench {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kTaskSeconds = 20e-6;

using Pool = void (*)(size_t, const std::function<void(size_t)> &);

void spin_task(size_t) {
    const auto t0 = Clock::now();
    while (std::chrono::duration<double>(Clock::now() - t0).count() < kTaskSeconds) {}
}

void halide_pool(size_t n, const std::function<void(size_t)> &body) {
    harness::perf::halide_parallel_for(n, body);
}

void opencv_pool(size_t n, const std::function<void(size_t)> &body) {
    opencv_parallel_for(n, body);
}

// before: nullptr = 1 ms of sleep before each timed loop.
void run_pool(benchmark::State &state, Pool timed, Pool before, int threads) {
    opencv_set_threads(threads);
    const std::function<void(size_t)> task = spin_task;
    timed(threads, task);  // both pools started
    if (before) before(threads, task);
    std::vector<double> per;
    for (auto _ : state) {
        if (before)
            before(threads, task);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const auto t0 = Clock::now();
        timed(threads, task);
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        state.SetIterationTime(s);
        per.push_back(s);
    }
    std::nth_element(per.begin(), per.begin() + static_cast<std::ptrdiff_t>(per.size() / 2), per.end());
    state.counters["overhead_us"] = (per[per.size() / 2] - kTaskSeconds) * 1e6;
}

}  // namespace

void register_pool_overhead(int threads) {
    struct Case {
        const char *name;
        Pool timed, before;
    };
    static const Case cases[] = {
        {"halide/after_opencv", halide_pool, opencv_pool}, {"halide/after_halide", halide_pool, halide_pool},
        {"halide/after_sleep", halide_pool, nullptr},      {"opencv/after_halide", opencv_pool, halide_pool},
        {"opencv/after_opencv", opencv_pool, opencv_pool}, {"opencv/after_sleep", opencv_pool, nullptr}};
    for (const Case &c : cases) {
        std::string name = c.name;
        const size_t slash = name.find('/');
        name = "BM_pool/" + name.substr(0, slash) + "/threads:" + std::to_string(threads) + name.substr(slash);
        benchmark::RegisterBenchmark(name.c_str(),
                                     [c, threads](benchmark::State &s) { run_pool(s, c.timed, c.before, threads); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond)
            ->Iterations(200);  // ~0.25 s with the sleeps
    }
}

}  // namespace bench
