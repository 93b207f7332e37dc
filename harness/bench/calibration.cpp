// The block calibration (calibration.h): a fixed arithmetic workload and the copies, each the median of a
// few repetitions after a warm-up.
#include "bench/calibration.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace harness::perf {

namespace {

// A dependent chain of integer operations (xorshift): its time follows the core's clock, not memory. About
// 0.6 ms per chunk at 2.5 GHz: short enough that some of many repetitions run within one time slice of a
// loaded machine, so that their best is the machine's speed rather than its load.
constexpr uint64_t kWorkSteps = 1u << 18;
std::atomic<uint64_t> g_calibration_sink{0};

__attribute__((noinline)) uint64_t work_chunk(uint64_t seed) {
    uint64_t x = seed | 1;
    for (uint64_t i = 0; i < kWorkSteps; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    return x;
}

// Seconds for `threads` chunks on `threads` threads of `pf` (one chunk each), the best of `reps`: the machine's
// speed (its clocks), which a neighbour's load slows only in the repetitions it hits; how much the load took is
// the benchmark threads' wait for a CPU (machine_state.h, own_cpu_wait).
double best_work_seconds(int threads, const ParallelFor &pf, int reps) {
    std::vector<double> took;
    for (int r = 0; r <= reps; r++) {
        const auto t0 = std::chrono::steady_clock::now();
        if (threads <= 1) {
            g_calibration_sink += work_chunk(static_cast<uint64_t>(r) + 1);
        } else {
            pf(static_cast<size_t>(threads), [&](size_t i) { g_calibration_sink += work_chunk(i * 7919 + r + 1); });
        }
        if (r > 0) took.push_back(seconds_since(t0));  // the first is the warm-up
    }
    return *std::min_element(took.begin(), took.end());
}

// The best bandwidth (bytes/s, read + write) of `reps` copies after a warm-up; 0 when a copy fails.
template<typename Copy>
double best_bandwidth(Copy &copy, int reps) {
    if (copy.run() <= 0) return 0;
    double best = 0;
    for (int i = 0; i < reps; i++) {
        const double s = copy.run();
        if (s <= 0) return 0;
        best = std::max(best, 2.0 * static_cast<double>(copy.bytes()) / s);
    }
    return best;
}

}  // namespace

nlohmann::json calibrate(int threads, const std::vector<std::string> &gpu_runtimes, const ParallelFor &parallel_for) {
    const auto t0 = std::chrono::steady_clock::now();
    const ParallelFor pf = parallel_for ? parallel_for : ParallelFor(halide_parallel_for);
    threads = std::max(1, threads);
    nlohmann::json out{{"threads", threads}};
    out["cpu_work_ms"] = 1e3 * best_work_seconds(threads, pf, 31);
    out["cpu_work_1t_ms"] = threads == 1 ? out["cpu_work_ms"].get<double>() : 1e3 * best_work_seconds(1, pf, 31);
    constexpr size_t kCopyBytes = 32u << 20;
    {
        HostCopy copy(kCopyBytes, threads, HostCopy::Kind::Memcpy, pf);
        out["host_copy_GBps"] = best_bandwidth(copy, 7) / 1e9;
    }
    for (const std::string &runtime : gpu_runtimes) {
        try {
            DeviceCopy copy(runtime, kCopyBytes);
            const double bw = best_bandwidth(copy, 7);
            if (bw > 0)
                out["device_copy_GBps"][runtime] = bw / 1e9;
            else
                out["device_copy_error." + runtime] = copy.error();
        } catch (const std::exception &e) {
            out["device_copy_error." + runtime] = e.what();
        }
    }
    out["seconds"] = seconds_since(t0);
    return out;
}

}  // namespace harness::perf
