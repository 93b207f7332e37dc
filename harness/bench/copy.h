// Copy bandwidth: the roofline of memory-bound pipelines (BM_memcpy and pct_of_copy_bw), shared by
// `aot-harness bench` and benchmarks/pipeline-benchmarks.
//
// Bandwidth counts bytes read + bytes written, so a copy of N bytes moves 2N bytes: the same rule as a
// pipeline's bytes_per_second (each input read once + each output written once).
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace harness::perf {

// Wall seconds since t0 on the steady clock: every timed loop of the benchmarks.
double seconds_since(std::chrono::steady_clock::time_point t0);

// Runs body(0) ... body(n - 1) on a thread pool and returns when all are done.
using ParallelFor = std::function<void(size_t n, const std::function<void(size_t)> &body)>;

// Halide's own thread pool (halide_do_par_for: dynamic, the pool the host profile's pipelines use;
// its size is HL_NUM_THREADS or one thread per core).
void halide_parallel_for(size_t n, const std::function<void(size_t)> &body);

// A host copy of `bytes` in 1 MiB chunks. With threads > 1 the chunks go to `parallel_for` (default:
// Halide's pool; dynamic, so that on a loaded machine a descheduled thread does not hold up a static
// half, and no thread start-up in the timed copy). Both buffers are touched at construction so that
// no page fault lands in a timed copy.
//   memcpy: glibc memcpy, which switches to non-temporal stores for large copies (no read for
//     ownership of the destination): the fastest copy, the roofline.
//   store loop: a plain vectorised loop with ordinary stores, as a Halide pipeline emits them; the
//     destination's cache lines are read before being written, so its counted bandwidth is lower.
class HostCopy {
public:
    enum class Kind { Memcpy, StoreLoop };
    HostCopy(size_t bytes, int threads, Kind kind = Kind::Memcpy, ParallelFor parallel_for = {});
    ~HostCopy();
    // One copy; returns its wall time in seconds.
    double run();
    size_t bytes() const { return bytes_; }

private:
    size_t bytes_;
    int threads_;
    Kind kind_;
    ParallelFor parallel_for_;
    std::unique_ptr<unsigned char[]> src_, dst_;
};

// A device-to-device copy of `bytes` through Halide's device interface of `runtime` ("opencl",
// "cuda" or "vulkan"): halide_buffer_copy between two device allocations (clEnqueueCopyBuffer,
// cuMemcpyDtoD, vkCmdCopyBuffer): each runtime's own copy is its roofline.
class DeviceCopy {
public:
    // Throws std::runtime_error naming the failing call if the runtime is not in this build or the
    // device cannot allocate the buffers.
    DeviceCopy(const std::string &runtime, size_t bytes);
    ~DeviceCopy();
    // One copy followed by a device sync; returns its wall time in seconds (0 on error, see error()).
    double run();
    size_t bytes() const { return bytes_; }
    const std::string &error() const { return error_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    size_t bytes_;
    std::string error_;
};

// Median bandwidth (bytes/s, read + write) of `reps` timed copies after one warm-up copy: the same
// statistic as the benchmarks report with --benchmark_repetitions.
double median_bandwidth(HostCopy &copy, int reps);
double median_bandwidth(DeviceCopy &copy, int reps);

}  // namespace harness::perf
