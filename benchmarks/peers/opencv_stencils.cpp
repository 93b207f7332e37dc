// OpenCV peers of the stencil pipelines: blur3x3, gaussian5x5, sobel, unsharp_mask, conv3x3_f16.
// Every border is BORDER_REPLICATE (the pipelines' repeat_edge).
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "opencv_util.h"

namespace bench::cvb {

using Results = std::map<std::string, Array>;

// blur3x3: 3x3 box filter, normalised (rounded mean): the pipeline's definition.
OpenCvCall bind_blur3x3(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_8UC1));
    auto dst = new_mat(src->rows, src->cols, CV_8UC1);
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run([&](const cv::Range &r) {
                    cv::blur(src->rowRange(r), dst->rowRange(r), cv::Size(3, 3), cv::Point(-1, -1),
                             cv::BORDER_REPLICATE);
                });
            },
            [=] {
                return Results{{"output", array_of(*dst, kU8, shape)}};
            }};
}

// gaussian5x5: sigma 0 with a 5-tap kernel is OpenCV's fixed {1, 4, 6, 4, 1} / 16, separable in f32.
OpenCvCall bind_gaussian5x5(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_32FC1));
    auto dst = new_mat(src->rows, src->cols, CV_32FC1);
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run([&](const cv::Range &r) {
                    cv::GaussianBlur(src->rowRange(r), dst->rowRange(r), cv::Size(5, 5), 0, 0, cv::BORDER_REPLICATE);
                });
            },
            [=] {
                return Results{{"output", array_of(*dst, kF32, shape)}};
            }};
}

// sobel: OpenCV's 3x3 Sobel kernels are the pipeline's gx (right column - left column, weights
// 1 2 1) and gy (bottom row - top row); cartToPolar computes both outputs, magnitude and angle.
OpenCvCall bind_sobel(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_8UC1));
    const int rows = src->rows, cols = src->cols;
    auto gx = new_mat(rows, cols, CV_32FC1), gy = new_mat(rows, cols, CV_32FC1);
    auto mag = new_mat(rows, cols, CV_32FC1), ang = new_mat(rows, cols, CV_32FC1);
    const RowBands bands(rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run([&](const cv::Range &r) {
                    cv::Sobel(src->rowRange(r), gx->rowRange(r), CV_32F, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
                    cv::Sobel(src->rowRange(r), gy->rowRange(r), CV_32F, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
                    cv::cartToPolar(gx->rowRange(r), gy->rowRange(r), mag->rowRange(r), ang->rowRange(r), false);
                });
            },
            [=] {
                Array angle = array_of(*ang, kF32, shape);  // [0, 2pi) -> (-pi, pi], as atan2
                for (size_t i = 0; i < angle.elements(); i++) {
                    float &a = angle.data<float>()[i];
                    if (a > static_cast<float>(M_PI)) a -= static_cast<float>(2 * M_PI);
                }
                return Results{{"magnitude", array_of(*mag, kF32, shape)}, {"angle", angle}};
            }};
}

// unsharp_mask: out = in + (in - blur) * amount/16 = (1 + amount/16) in - (amount/16) blur. The u8
// GaussianBlur is OpenCV's bit-exact fixed-point path, which runs on the pool itself (given the whole
// image: a ROI would send it down the generic filter path); addWeighted does not, so it runs in bands.
OpenCvCall bind_unsharp_mask(const CaseSpec &c, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_8UC1));
    auto blur = new_mat(src->rows, src->cols, CV_8UC1), dst = new_mat(src->rows, src->cols, CV_8UC1);
    const double k = c.scalars.at("amount") / 16.0;
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                cv::GaussianBlur(*src, *blur, cv::Size(5, 5), 0, 0, cv::BORDER_REPLICATE);
                bands.run([&](const cv::Range &r) {
                    cv::addWeighted(src->rowRange(r), 1 + k, blur->rowRange(r), -k, 0, dst->rowRange(r));
                });
            },
            [=] {
                return Results{{"output", array_of(*dst, kU8, shape)}};
            }};
}

// conv3x3_f16: the binomial 3x3 kernel in f32 (see opencv_peers.cpp for why not f16).
OpenCvCall bind_conv3x3_f16(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_32FC1));
    auto dst = new_mat(src->rows, src->cols, CV_32FC1);
    auto kernel = std::make_shared<cv::Mat>((cv::Mat_<float>(3, 3) << 1, 2, 1, 2, 4, 2, 1, 2, 1) / 16.f);
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run([&](const cv::Range &r) {
                    cv::filter2D(src->rowRange(r), dst->rowRange(r), CV_32F, *kernel, cv::Point(-1, -1), 0,
                                 cv::BORDER_REPLICATE);
                });
            },
            [=] {
                return Results{{"output", array_of(*dst, kF32, shape)}};
            }};
}

}  // namespace bench::cvb
