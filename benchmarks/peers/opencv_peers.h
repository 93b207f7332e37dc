// OpenCV equivalents of the suite's pipelines: the `speedup_vs_opencv` peers.
//
// One entry per pipeline name (opencv_peers.cpp lists them, with what each one calls and how
// its result differs from the pipeline's); pipelines without an entry get no speedup_vs_opencv
// counter. Every peer reads the same input bytes (same sizes and dtypes) and writes outputs of
// the same sizes as the pipeline, with OpenCV's thread pool set to the profile's thread count. An
// OpenCV call that runs on one thread whatever cv::setNumThreads says (convertTo, the separable
// filters on f32, Sobel, cartToPolar, addWeighted, sum, minMaxLoc, sort, gemm on the reference
// BLAS) is run in row bands on cv::parallel_for_, so that it uses the same threads as the pipeline.
// opencv_peers_test checks every peer's results against the pipeline's reference.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/spec.h"

namespace bench {

// One bound OpenCV equivalent: inputs wrapped, outputs and temporaries preallocated.
struct OpenCvCall {
    std::function<void()> run;  // runs the OpenCV equivalent once
    // The last run's results as the pipeline's outputs (Halide order, the output's type), by output
    // name; only the outputs OpenCV computes (e.g. equalizeHist keeps its histogram to itself).
    // Untimed: for opencv_peers_test.
    std::function<std::map<std::string, harness::Array>()> results;
};

// How close an OpenCV result is to the pipeline's reference on the test cases: |OpenCV - reference|
// <= max_abs everywhere, differences taken modulo `period` when it is not 0 (angles).
struct Agreement {
    double max_abs = 0;
    double period = 0;
};

struct OpenCvPeer {
    std::string what;  // the OpenCV calls, for the JSON context: "cv::blur 3x3, BORDER_REPLICATE, ..."
    // Why the numbers may differ from the pipeline's (rounding, formula, precision), and per output
    // name how much (checked by opencv_peers_test).
    std::string differs;
    std::map<std::string, Agreement> agrees;
    // Binds a case's inputs (Halide order, as harness::case_inputs makes them) and scalars. Call it
    // after opencv_set_threads(): row bands are sized for OpenCV's pool. The inputs must outlive the
    // returned call. Throws std::runtime_error for a case the OpenCV call cannot take (I420 needs an
    // even width and height).
    std::function<OpenCvCall(const harness::CaseSpec &, const std::vector<harness::Array> &)> bind;
};

// pipeline name -> its OpenCV peer.
const std::map<std::string, OpenCvPeer> &opencv_peers();

// cv::setNumThreads(n), and the OpenCV version with its parallel framework, so that the harness
// needs no OpenCV header.
void opencv_set_threads(int n);
// cv::parallel_for_ over [0, n) with n stripes: OpenCV's thread pool (TBB here).
void opencv_parallel_for(size_t n, const std::function<void(size_t)> &body);
std::string opencv_version();

}  // namespace bench
