// Host and device copies, the rooflines of the benchmarks (harness/bench/copy.h).
#include "bench/copy.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "devices/device_release.h"

namespace harness::perf {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

namespace {

// Ordinary stores: GCC would turn a byte loop into a memcpy call, so copy 32-byte blocks through a
// vector type (vmovdqu loads and stores with AVX, two movdqu otherwise).
__attribute__((noinline)) void store_loop(unsigned char *dst, const unsigned char *src, size_t n) {
    typedef long long v4 __attribute__((vector_size(32), aligned(1)));
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        *reinterpret_cast<v4 *>(dst + i) = *reinterpret_cast<const v4 *>(src + i);
    for (; i < n; i++)
        dst[i] = src[i];
}

int par_for_task(void *, int idx, uint8_t *closure) {
    (*reinterpret_cast<const std::function<void(size_t)> *>(closure))(static_cast<size_t>(idx));
    return 0;
}

constexpr size_t kChunk = 1u << 20;

}  // namespace

void halide_parallel_for(size_t n, const std::function<void(size_t)> &body) {
    auto *closure = reinterpret_cast<uint8_t *>(const_cast<std::function<void(size_t)> *>(&body));
    halide_do_par_for(nullptr, par_for_task, 0, static_cast<int>(n), closure);
}

HostCopy::HostCopy(size_t bytes, int threads, Kind kind, ParallelFor parallel_for)
    : bytes_(bytes), threads_(std::max(1, threads)), kind_(kind),
      parallel_for_(parallel_for ? std::move(parallel_for) : ParallelFor(halide_parallel_for)),
      src_(new unsigned char[bytes]), dst_(new unsigned char[bytes]) {
    std::memset(src_.get(), 0x5A, bytes_);
    std::memset(dst_.get(), 0, bytes_);
}

HostCopy::~HostCopy() = default;

double HostCopy::run() {
    const size_t chunks = (bytes_ + kChunk - 1) / kChunk;
    auto chunk = [this](size_t c) {
        const size_t begin = c * kChunk, len = std::min(kChunk, bytes_ - begin);
        if (kind_ == Kind::Memcpy)
            std::memcpy(dst_.get() + begin, src_.get() + begin, len);
        else
            store_loop(dst_.get() + begin, src_.get() + begin, len);
    };
    const auto t0 = std::chrono::steady_clock::now();
    if (threads_ == 1 || chunks == 1) {
        for (size_t c = 0; c < chunks; c++)
            chunk(c);
    } else {
        parallel_for_(chunks, chunk);
    }
    return seconds_since(t0);
}

struct DeviceCopy::Impl {
    const halide_device_interface_t *iface = nullptr;
    Halide::Runtime::Buffer<uint8_t> src, dst;
};

DeviceCopy::DeviceCopy(const std::string &runtime, size_t bytes) : impl_(new Impl), bytes_(bytes) {
    impl_->iface = device_interface_for(runtime);
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

namespace {

template<typename Copy>
double median_of(Copy &copy, int reps) {
    if (copy.run() <= 0) return 0;  // warm-up
    std::vector<double> bw;
    for (int i = 0; i < reps; i++) {
        const double s = copy.run();
        if (s <= 0) return 0;
        bw.push_back(2.0 * static_cast<double>(copy.bytes()) / s);
    }
    std::sort(bw.begin(), bw.end());
    return bw[bw.size() / 2];
}

}  // namespace

double median_bandwidth(HostCopy &copy, int reps) {
    return median_of(copy, reps);
}
double median_bandwidth(DeviceCopy &copy, int reps) {
    return median_of(copy, reps);
}

}  // namespace harness::perf
