#include "opencv_baselines.h"

#include <memory>
#include <stdexcept>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace bench {

namespace {

using harness::Array;
using harness::CaseSpec;

// A Halide-order u8 array (x fastest) as a cv::Mat of `rows` rows of shape[0] columns; no copy.
cv::Mat u8_mat(const Array &a, int rows) {
    if (a.type.code != halide_type_uint || a.type.bits != 8) throw std::runtime_error("opencv baseline: input is not u8");
    return cv::Mat(rows, a.shape.at(0), CV_8UC1, const_cast<uint8_t *>(a.data<uint8_t>()));
}

int rows_of(const Array &a) {
    int rows = 1;
    for (size_t d = 1; d < a.shape.size(); d++) rows *= a.shape[d];
    return rows;
}

// brighten: planar channels are just more rows. convertTo rounds (v * gain/16 + offset) to nearest
// and saturates; the pipeline rounds the product before adding the offset: the same work, within 1.
std::function<void()> bind_brighten(const CaseSpec &c, const std::vector<Array> &in) {
    auto src = std::make_shared<cv::Mat>(u8_mat(in.at(0), rows_of(in.at(0))));
    auto dst = std::make_shared<cv::Mat>(src->rows, src->cols, CV_8UC1);
    const double alpha = c.scalars.at("gain") / 16.0, beta = c.scalars.at("offset");
    return [src, dst, alpha, beta] { src->convertTo(*dst, CV_8U, alpha, beta); };
}

// blur3x3: 3x3 box filter, normalised (rounded mean), replicated borders: the pipeline's definition.
std::function<void()> bind_blur3x3(const CaseSpec &, const std::vector<Array> &in) {
    auto src = std::make_shared<cv::Mat>(u8_mat(in.at(0), rows_of(in.at(0))));
    auto dst = std::make_shared<cv::Mat>(src->rows, src->cols, CV_8UC1);
    return [src, dst] { cv::blur(*src, *dst, cv::Size(3, 3), cv::Point(-1, -1), cv::BORDER_REPLICATE); };
}

}  // namespace

const std::map<std::string, OpenCvBaseline> &opencv_baselines() {
    static const std::map<std::string, OpenCvBaseline> baselines{
        {"brighten", {"cv::Mat::convertTo(CV_8U, alpha=gain/16, beta=offset), planes as rows", bind_brighten}},
        {"blur3x3", {"cv::blur 3x3, BORDER_REPLICATE", bind_blur3x3}},
        // Next (other branch): gaussian5x5 -> cv::GaussianBlur, sobel -> cv::Sobel x/y + cv::magnitude,
        // resize -> cv::resize INTER_LINEAR, histeq -> cv::equalizeHist, rgb2yuv -> cv::cvtColor,
        // matmul -> cv::gemm, reduce -> cv::sum + cv::minMaxLoc, sort -> cv::sort(SORT_EVERY_ROW).
    };
    return baselines;
}

void opencv_set_threads(int n) {
    if (cv::getNumThreads() != n) cv::setNumThreads(n);  // re-creates the pool: not in timed code
}

void opencv_parallel_for(size_t n, const std::function<void(size_t)> &body) {
    cv::parallel_for_(cv::Range(0, static_cast<int>(n)),
                      [&](const cv::Range &r) {
                          for (int i = r.start; i < r.end; i++) body(static_cast<size_t>(i));
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
