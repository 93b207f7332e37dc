// Internal to the OpenCV peers: harness::Array <-> cv::Mat, row bands on OpenCV's pool, and
// the bind functions of each group of peers (opencv_stencils.cpp, opencv_image_ops.cpp,
// opencv_matrix_ops.cpp).
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "opencv_peers.h"

namespace bench::cvb {

using harness::Array;
using harness::CaseSpec;

// A cv::Mat of `rows` rows of shape[0] elements over a Halide-order array (no copy); `cv_type` must
// match the array's element type (checked, std::runtime_error otherwise). rows = 0: every row of
// every plane (the product of the outer dimensions).
cv::Mat mat_of(const Array &a, int cv_type, int rows = 0);
// The product of a's dimensions after the first (rows of all planes).
int rows_of(const Array &a);
// A copy of a single-channel Mat as an Array of the given type and Halide-order shape (the Mat's
// element count must match).
Array array_of(const cv::Mat &m, halide_type_t type, std::vector<int> shape);

// Runs body(band) for row bands covering [0, rows) on cv::parallel_for_: for OpenCV calls that
// ignore the pool (they run on the calling thread). About 8 bands per pool thread, so that a thread
// that the shared machine holds up does not hold up a static half (like Halide's task queue). A
// filter given ROIs of its whole-image Mats reads the rows around its band from the parent, so the
// banded result equals the whole-image call (checked by opencv_peers_test).
class RowBands {
public:
    explicit RowBands(int rows);  // sizes the bands for cv::getNumThreads()
    void run(const std::function<void(const cv::Range &)> &body) const;
    // The same with the band's index in [0, count()).
    void run_indexed(const std::function<void(int band, const cv::Range &)> &body) const;
    int count() const { return bands_; }

private:
    int rows_, bands_;
};

// A Mat kept alive by the bound call.
using MatPtr = std::shared_ptr<cv::Mat>;
inline MatPtr new_mat(int rows, int cols, int type) {
    return std::make_shared<cv::Mat>(rows, cols, type);
}
inline MatPtr wrap(const cv::Mat &m) {
    return std::make_shared<cv::Mat>(m);
}

extern const halide_type_t kU8, kI32, kF32;

// Image stencils (opencv_stencils.cpp).
OpenCvCall bind_blur3x3(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_gaussian5x5(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_sobel(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_unsharp_mask(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_conv3x3_f16(const CaseSpec &, const std::vector<Array> &);
// Per-pixel, colour, resampling, histogram (opencv_image_ops.cpp).
OpenCvCall bind_brighten(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_rgb_to_yuv(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_resize_bilinear(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_hist_equalize(const CaseSpec &, const std::vector<Array> &);
// Matrix product, reduction, sorting (opencv_matrix_ops.cpp).
OpenCvCall bind_matmul(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_reduce_stats(const CaseSpec &, const std::vector<Array> &);
OpenCvCall bind_bitonic_sort(const CaseSpec &, const std::vector<Array> &);

}  // namespace bench::cvb
