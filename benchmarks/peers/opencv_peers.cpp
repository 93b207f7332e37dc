// The OpenCV equivalent of each suite pipeline (opencv_peers.h): Array <-> cv::Mat and one call per pipeline.
#include "opencv_peers.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <opencv2/core.hpp>

#include "opencv_util.h"

namespace bench {

namespace cvb {

const halide_type_t kU8{halide_type_uint, 8, 1}, kI32{halide_type_int, 32, 1}, kF32{halide_type_float, 32, 1};

namespace {

halide_type_t halide_type_of(int cv_depth) {
    switch (cv_depth) {
    case CV_8U:
        return kU8;
    case CV_32S:
        return kI32;
    case CV_32F:
        return kF32;
    default:
        throw std::runtime_error("opencv peer: unsupported cv depth " + std::to_string(cv_depth));
    }
}

}  // namespace

int rows_of(const Array &a) {
    int rows = 1;
    for (size_t d = 1; d < a.shape.size(); d++)
        rows *= a.shape[d];
    return rows;
}

cv::Mat mat_of(const Array &a, int cv_type, int rows) {
    const halide_type_t want = halide_type_of(CV_MAT_DEPTH(cv_type));
    if (a.type.code != want.code || a.type.bits != want.bits) {
        throw std::runtime_error("opencv peer: input of type " + harness::dtype_name(a.type) + ", expected " +
                                 harness::dtype_name(want));
    }
    return cv::Mat(rows ? rows : rows_of(a), a.shape.at(0), cv_type, const_cast<uint8_t *>(a.bytes.data()));
}

Array array_of(const cv::Mat &m, halide_type_t type, std::vector<int> shape) {
    Array out(type, std::move(shape));
    if (m.total() * m.elemSize() != out.bytes.size() || m.channels() != 1) {
        throw std::runtime_error("opencv peer: result of " + std::to_string(m.total()) + " elements for an output of " +
                                 std::to_string(out.elements()));
    }
    const size_t row = m.cols * m.elemSize();
    for (int r = 0; r < m.rows; r++)
        std::memcpy(out.bytes.data() + r * row, m.ptr(r), row);
    return out;
}

RowBands::RowBands(int rows) : rows_(rows), bands_(std::max(1, std::min(rows, 8 * cv::getNumThreads()))) {}

void RowBands::run(const std::function<void(const cv::Range &)> &body) const {
    run_indexed([&](int, const cv::Range &r) { body(r); });
}

void RowBands::run_indexed(const std::function<void(int band, const cv::Range &)> &body) const {
    const int rows = rows_, bands = bands_;
    cv::parallel_for_(
        cv::Range(0, bands),
        [&](const cv::Range &r) {
            for (int b = r.start; b < r.end; b++) {
                body(b, cv::Range(static_cast<int>(int64_t(rows) * b / bands),
                                  static_cast<int>(int64_t(rows) * (b + 1) / bands)));
            }
        },
        bands);
}

}  // namespace cvb

const std::map<std::string, OpenCvPeer> &opencv_peers() {
    using namespace cvb;
    static const std::map<std::string, OpenCvPeer> peers{
        {"brighten",
         {"cv::Mat::convertTo(CV_8U, alpha=gain/16, beta=offset), planes as rows, in row bands",
          "convertTo rounds v*gain/16 + offset once; the pipeline rounds the product, then adds",
          {{"output", {1}}},
          bind_brighten}},
        {"blur3x3",
         {"cv::blur 3x3, BORDER_REPLICATE, in row bands", "the same rounded mean", {{"output", {1}}}, bind_blur3x3}},
        {"gaussian5x5",
         {"cv::GaussianBlur 5x5 (sigma 0: the 1 4 6 4 1 kernel), f32, BORDER_REPLICATE, in row bands",
          "f32 sums in another order",
          {{"output", {1e-5}}},
          bind_gaussian5x5}},
        {"sobel",
         {"cv::Sobel dx and dy (3x3, u8 -> f32, BORDER_REPLICATE) + cv::cartToPolar (magnitude and "
          "angle, radians), in row bands",
          "cartToPolar's angle is in [0, 2pi) and accurate to about 0.3 degrees (atan2: [-pi, pi], "
          "a few ULP)",
          {{"magnitude", {1e-3}}, {"angle", {0.01, 6.283185307179586}}},
          bind_sobel}},
        {"sobel_strict",  // the same pipeline built with strict_float
         {"as sobel", "as sobel", {{"magnitude", {1e-3}}, {"angle", {0.01, 6.283185307179586}}}, bind_sobel}},
        {"resize_bilinear",
         {"cv::resize INTER_LINEAR per plane (u8, pixel-centre aligned, clamped edges; parallel inside OpenCV)",
          "OpenCV interpolates u8 in 11-bit fixed point, the pipeline in f32",
          {{"output", {1}}},
          bind_resize_bilinear}},
        {"hist_equalize",
         {"cv::equalizeHist (histogram, scan, LUT; parallel inside OpenCV)",
          "OpenCV's LUT maps the lowest occupied bin to 0 ((cdf - cdf_min) * 255 / (total - cdf_min)); "
          "the pipeline's is cdf * 255 / total; the histogram output is not exposed by OpenCV",
          {{"output", {2}}},
          bind_hist_equalize}},
        {"rgb_to_yuv",
         {"cv::cvtColor COLOR_RGB2YUV_I420 (BT.601 studio range, 4:2:0 planar out; parallel inside "
          "OpenCV) on an interleaved copy of the planar input made once, untimed",
          "Y: the same within rounding. U and V: OpenCV 4.6 point-samples the chroma (the top-left "
          "pixel of each 2x2 block), the pipeline averages the block, so on noise they differ by up to "
          "~120 and are not compared. Same bytes read and written; the pipeline does more arithmetic",
          {{"out_y", {1}}},
          bind_rgb_to_yuv}},
        {"matmul",
         {"cv::gemm (f32; OpenCV hands it to the system BLAS: netlib reference here), in bands of rows of A",
          "f32 dot products summed in another order",
          {{"c", {1e-3}}},
          bind_matmul}},
        {"reduce_stats",
         {"cv::sum + cv::minMaxIdx (two passes) per row band, partials combined",
          "OpenCV sums in f64, the pipeline in f32 lanes",
          {{"stats", {1e-2}}},
          bind_reduce_stats}},
        {"bitonic_sort",
         {"cv::sort SORT_EVERY_ROW | SORT_ASCENDING (std::sort of each row), in row bands",
          "none: the same sorted rows",
          {{"output", {0}}},
          bind_bitonic_sort}},
        {"unsharp_mask",
         {"cv::GaussianBlur 5x5 u8 (bit-exact fixed point; parallel inside OpenCV) + cv::addWeighted "
          "(1 + amount/16, -amount/16) in row bands",
          "addWeighted rounds 2.5 in - 1.5 blur once; the pipeline floors (in - blur) * amount / 16",
          {{"output", {1}}},
          bind_unsharp_mask}},
        {"conv3x3_f16",
         {"cv::filter2D 3x3 (1 2 1; 2 4 2; 1 2 1)/16 in f32, BORDER_REPLICATE, in row bands: OpenCV's "
          "filters take no f16 (CV_16F is storage only), f32 is its nearest type and the pipeline's "
          "input and output type",
          "f32 arithmetic instead of f16: differences of a few f16 ULPs",
          {{"output", {4e-3}}},
          bind_conv3x3_f16}},
        // No equivalent: int_edges (per-lane variable shifts with 16-bit wrap-around).
    };
    return peers;
}

void opencv_set_threads(int n) {
    if (cv::getNumThreads() != n) cv::setNumThreads(n);  // re-creates the pool: not in timed code
}

void opencv_parallel_for(size_t n, const std::function<void(size_t)> &body) {
    cv::parallel_for_(
        cv::Range(0, static_cast<int>(n)),
        [&](const cv::Range &r) {
            for (int i = r.start; i < r.end; i++)
                body(static_cast<size_t>(i));
        },
        static_cast<double>(n));
}

std::string opencv_version() {
    // "4.6.0, TBB (ver 2021.8 interface 12080)": the parallel framework decides what setNumThreads does.
    const std::string info = cv::getBuildInformation();
    const size_t at = info.find("Parallel framework:");
    std::string framework = "no parallel framework";
    if (at != std::string::npos) {
        const size_t begin = info.find_first_not_of(' ', at + 19), end = info.find('\n', at);
        framework = info.substr(begin, end - begin);
    }
    return cv::getVersionString() + ", " + framework;
}

}  // namespace bench
