// OpenCV equivalents of the suite's pipelines: the `speedup_vs_opencv` baselines.
//
// One entry per pipeline name. A new pipeline with an OpenCV counterpart (GaussianBlur, Sobel +
// magnitude, resize, equalizeHist, cvtColor, gemm, sum/minMaxLoc, sort) adds one entry in
// opencv_baselines.cpp; pipelines without an entry simply get no speedup_vs_opencv counter.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/spec.h"

namespace bench {

struct OpenCvBaseline {
    std::string what;  // the OpenCV call, for the JSON context: "cv::blur 3x3 BORDER_REPLICATE"
    // Binds a case's inputs (Halide order, as harness::case_inputs makes them) and scalars to
    // preallocated OpenCV outputs; the returned function runs the OpenCV equivalent once. The inputs
    // must outlive it.
    std::function<std::function<void()>(const harness::CaseSpec &, const std::vector<harness::Array> &)> bind;
};

// pipeline name -> its OpenCV baseline.
const std::map<std::string, OpenCvBaseline> &opencv_baselines();

// cv::setNumThreads(n), and the OpenCV version with its parallel framework, so that the harness
// needs no OpenCV header.
void opencv_set_threads(int n);
// cv::parallel_for_ over [0, n) with n stripes: OpenCV's thread pool (TBB here).
void opencv_parallel_for(size_t n, const std::function<void(size_t)> &body);
std::string opencv_version();

}  // namespace bench
