// BM_memcpy (memcpy_benchmarks.h): the host and device copy rooflines as benchmarks of their own.
#include "memcpy_benchmarks.h"

#include <stdexcept>

#include "bench/copy.h"
#include "peers/opencv_peers.h"
#include "bench_common.h"

namespace bench {

namespace {

using harness::perf::DeviceCopy;
using harness::perf::HostCopy;
using harness::perf::median_bandwidth;

// Copy bandwidths (bytes/s, read + write) measured at start-up.
struct Roofline {
    double host_1 = 0, host_all = 0;
    std::map<std::string, double> device;  // runtime -> device-to-device copy
};

// `roof`: the start-up bandwidth (bytes/s) that pct_of_copy_bw compares with.
void run_host_copy(benchmark::State &state, std::string name, size_t bytes, int threads, HostCopy::Kind kind,
                   double roof, std::string device) {
    opencv_set_threads(threads);
    HostCopy copy(bytes, threads, kind, opencv_parallel_for);
    copy.run();
    double total = 0;
    for (auto _ : state) {
        const double s = copy.run();
        state.SetIterationTime(s);
        total += s;
    }
    const double b = static_cast<double>(bytes);
    set_counters(state, name, total / state.iterations(), {2 * b, 2 * b}, roof > 0 ? 2 * b / roof : 0, device, "");
}

void run_device_copy(benchmark::State &state, std::string name, std::string runtime, size_t bytes, double roof,
                     std::string device, std::string driver) {
    try {
        DeviceCopy copy(runtime, bytes);
        if (copy.run() <= 0) return fail(state, name, copy.error());
        double total = 0;
        for (auto _ : state) {
            const double s = copy.run();
            if (s <= 0) return fail(state, name, copy.error());
            state.SetIterationTime(s);
            total += s;
        }
        const double b = static_cast<double>(bytes);
        set_counters(state, name, total / state.iterations(), {2 * b, 2 * b}, roof > 0 ? 2 * b / roof : 0, device,
                     driver);
    } catch (const std::exception &e) {
        fail(state, name, e.what());
    }
}

}  // namespace

void register_memcpy_benchmarks(const std::string &cpu_model, const std::map<std::string, DeviceName> &gpu_runtimes) {
    static Roofline roof;  // the registered benchmarks keep its values
    const int nthreads = all_threads();
    const size_t copy_bytes = g_opt.quick ? (8u << 20) : (256u << 20);
    const std::string mib = std::to_string(copy_bytes >> 20) + "MiB";
    {
        HostCopy one(copy_bytes, 1, HostCopy::Kind::Memcpy, opencv_parallel_for),
            all(copy_bytes, nthreads, HostCopy::Kind::Memcpy, opencv_parallel_for);
        const int reps = g_opt.quick ? 1 : 5;
        opencv_set_threads(nthreads);  // the all-threads copy runs on OpenCV's pool
        roof.host_1 = median_bandwidth(one, reps);
        roof.host_all = median_bandwidth(all, reps);
    }
    benchmark::AddCustomContext("copy_bw_GBps.host.threads:1", std::to_string(roof.host_1 / 1e9));
    benchmark::AddCustomContext("copy_bw_GBps.host.threads:" + std::to_string(nthreads),
                                std::to_string(roof.host_all / 1e9));
    for (const auto &[runtime, r] : gpu_runtimes) {
        try {
            DeviceCopy dev(runtime, copy_bytes);
            roof.device[runtime] = median_bandwidth(dev, g_opt.quick ? 1 : 5);
            if (roof.device[runtime] <= 0) throw std::runtime_error(dev.error());
            benchmark::AddCustomContext("copy_bw_GBps." + runtime + ".device",
                                        std::to_string(roof.device[runtime] / 1e9));
        } catch (const std::exception &e) {
            benchmark::AddCustomContext("copy_bw_GBps." + runtime + ".device",
                                        std::string("unavailable, host all-threads used: ") + e.what());
        }
    }
    using Kind = HostCopy::Kind;
    for (const Kind kind : {Kind::Memcpy, Kind::StoreLoop}) {
        for (const int t : {1, nthreads}) {
            const std::string name =
                std::string(kind == Kind::Memcpy ? "BM_memcpy/host" : "BM_memcpy/host-store-loop") +
                "/threads:" + std::to_string(t) + "/" + mib;
            configure(benchmark::RegisterBenchmark(name.c_str(), run_host_copy, name, copy_bytes, t, kind,
                                                   t == 1 ? roof.host_1 : roof.host_all, cpu_model));
            if (nthreads == 1) break;
        }
    }
    for (const auto &[runtime, r] : gpu_runtimes) {
        const std::string name = "BM_memcpy/" + runtime + "/device/" + mib;
        configure(benchmark::RegisterBenchmark(name.c_str(), run_device_copy, name, runtime, copy_bytes,
                                               roof.device[runtime], r.device, r.driver));
    }
}

}  // namespace bench
