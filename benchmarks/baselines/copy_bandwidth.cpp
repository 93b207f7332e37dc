#include "copy_bandwidth.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#ifdef HARNESS_HAVE_OPENCL
#include "HalideRuntimeOpenCL.h"
#endif
#ifdef HARNESS_HAVE_CUDA
#include "HalideRuntimeCuda.h"
#endif

namespace bench {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

HostCopy::HostCopy(size_t bytes, int threads)
    : bytes_(bytes), threads_(std::max(1, threads)), src_(new unsigned char[bytes]), dst_(new unsigned char[bytes]) {
    std::memset(src_.get(), 0x5A, bytes_);
    std::memset(dst_.get(), 0, bytes_);
}

HostCopy::~HostCopy() = default;

double HostCopy::run() {
    const auto t0 = std::chrono::steady_clock::now();
    if (threads_ == 1) {
        std::memcpy(dst_.get(), src_.get(), bytes_);
    } else {
        std::vector<std::thread> pool;
        const size_t chunk = (bytes_ / threads_ + 63) / 64 * 64;
        for (int t = 0; t < threads_; t++) {
            const size_t begin = std::min(bytes_, chunk * t), end = std::min(bytes_, chunk * (t + 1));
            pool.emplace_back([this, begin, end] { std::memcpy(dst_.get() + begin, src_.get() + begin, end - begin); });
        }
        for (auto &th : pool) th.join();
    }
    return seconds_since(t0);
}

struct DeviceCopy::Impl {
    const halide_device_interface_t *iface = nullptr;
    Halide::Runtime::Buffer<uint8_t> src, dst;
};

DeviceCopy::DeviceCopy(const std::string &runtime, size_t bytes) : impl_(new Impl), bytes_(bytes) {
#ifdef HARNESS_HAVE_OPENCL
    if (runtime == "opencl") impl_->iface = halide_opencl_device_interface();
#endif
#ifdef HARNESS_HAVE_CUDA
    if (runtime == "cuda") impl_->iface = halide_cuda_device_interface();
#endif
    if (!impl_->iface) throw std::runtime_error("no device interface for runtime '" + runtime + "' in this build");
    impl_->src = Halide::Runtime::Buffer<uint8_t>(static_cast<int>(bytes));
    impl_->dst = Halide::Runtime::Buffer<uint8_t>(static_cast<int>(bytes));
    impl_->src.fill(0x5A);
    impl_->src.set_host_dirty(true);
    if (int err = impl_->src.copy_to_device(impl_->iface)) {
        throw std::runtime_error(runtime + " copy_to_device failed with Halide error " + std::to_string(err));
    }
    if (int err = impl_->dst.device_malloc(impl_->iface)) {
        throw std::runtime_error(runtime + " device_malloc failed with Halide error " + std::to_string(err));
    }
}

DeviceCopy::~DeviceCopy() {
    impl_->src.device_free();
    impl_->dst.device_free();
}

double DeviceCopy::run() {
    const auto t0 = std::chrono::steady_clock::now();
    int err = halide_buffer_copy(nullptr, impl_->src.raw_buffer(), impl_->iface, impl_->dst.raw_buffer());
    if (err == 0) err = impl_->dst.device_sync();
    if (err != 0) {
        error_ = "device-to-device halide_buffer_copy failed with Halide error " + std::to_string(err);
        return 0;
    }
    return seconds_since(t0);
}

template <typename Copy>
static double best_of(Copy &copy, int reps) {
    if (copy.run() <= 0) return 0;  // warm-up
    double best = 0;
    for (int i = 0; i < reps; i++) {
        const double s = copy.run();
        if (s <= 0) return 0;
        best = std::max(best, 2.0 * static_cast<double>(copy.bytes()) / s);
    }
    return best;
}

double best_bandwidth(HostCopy &copy, int reps) { return best_of(copy, reps); }
double best_bandwidth(DeviceCopy &copy, int reps) { return best_of(copy, reps); }

}  // namespace bench
