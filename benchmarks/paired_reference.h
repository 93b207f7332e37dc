// The references a benchmark is compared with, measured interleaved with it: after every timed
// iteration (untimed, manual time), one copy of the same number of bytes and one call of the OpenCV
// equivalent. Both ratios then come from the same seconds of the same machine: on a shared VM whose
// memory bandwidth swings 2x within a minute, a roofline measured at another moment is not comparable.
//
//   pct_of_copy_bw    = 100 x copy time / benchmark time, where the copy moves as many bytes as the
//                       benchmark reads + writes ((inputs + outputs) / 2 copied): host memcpy with the
//                       profile's threads, or a device-to-device copy for GPU profiles
//   speedup_vs_opencv = OpenCV time / benchmark time, OpenCV with the profile's thread count
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "baselines/copy_bandwidth.h"
#include "baselines/opencv_baselines.h"
#include "harness/array.h"
#include "harness/spec.h"

namespace bench {

class PairedReference {
public:
    // `bytes_moved`: inputs + outputs of the benchmark. `threads`: the profile's CPU threads (also
    // set as OpenCV's thread count). `gpu_runtime`: "" for CPU profiles, else the runtime whose
    // device-to-device copy is the reference (host copy if it cannot be set up; copy_kind() says).
    // `baseline` may be null (no OpenCV equivalent); `inputs` must outlive this object.
    PairedReference(double bytes_moved, int threads, const std::string &gpu_runtime, const OpenCvBaseline *baseline,
                    const harness::CaseSpec &c, const std::vector<harness::Array> &inputs);
    ~PairedReference();

    // One untimed-for-the-benchmark round: a copy and an OpenCV call, each timed here. The first
    // call is a warm-up and is not counted. Returns "" or what failed.
    std::string run_once();

    bool has_opencv() const { return static_cast<bool>(opencv_); }
    double copy_seconds() const { return rounds_ ? copy_total_ / rounds_ : 0; }
    double opencv_seconds() const { return rounds_ ? opencv_total_ / rounds_ : 0; }
    const std::string &copy_kind() const { return copy_kind_; }

private:
    std::unique_ptr<HostCopy> host_;
    std::unique_ptr<DeviceCopy> device_;
    std::function<void()> opencv_;
    std::string copy_kind_;
    bool warm_ = false;
    int rounds_ = 0;
    double copy_total_ = 0, opencv_total_ = 0;
};

}  // namespace bench
