// PairedReference (paired_reference.h): the copy and the OpenCV call timed after every benchmark iteration.
#include "paired_reference.h"

#include <algorithm>
#include <chrono>

namespace bench {

PairedReference::PairedReference(double bytes_moved, int threads, const std::string &gpu_runtime,
                                 const OpenCvBaseline *baseline, const harness::CaseSpec &c,
                                 const std::vector<harness::Array> &inputs) {
    const size_t bytes = std::max<size_t>(64, static_cast<size_t>(bytes_moved / 2));
    opencv_set_threads(threads);
    if (!gpu_runtime.empty()) {
        try {
            device_ = std::make_unique<DeviceCopy>(gpu_runtime, bytes);
            copy_kind_ = gpu_runtime + " device-to-device copy";
        } catch (const std::exception &e) {
            copy_kind_ = std::string("host memcpy (device copy unavailable: ") + e.what() + ")";
        }
    }
    if (!device_) {
        host_ = std::make_unique<HostCopy>(bytes, threads);
        if (copy_kind_.empty()) copy_kind_ = "host memcpy, " + std::to_string(threads) + " thread(s)";
    }
    if (baseline) opencv_ = baseline->bind(c, inputs).run;  // after opencv_set_threads: bands sized for the pool
}

PairedReference::~PairedReference() = default;

std::string PairedReference::run_once() {
    const double copy = device_ ? device_->run() : host_->run();
    if (copy <= 0) return device_ ? device_->error() : "host copy failed";
    double cv = 0;
    if (opencv_) {
        const auto t0 = std::chrono::steady_clock::now();
        opencv_();
        cv = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (!warm_) {
        warm_ = true;
        return "";
    }
    copy_total_ += copy;
    opencv_total_ += cv;
    rounds_++;
    return "";
}

}  // namespace bench
