// OpenCV peers of the per-pixel, colour, resampling and histogram pipelines: brighten,
// rgb_to_yuv, resize_bilinear, hist_equalize.
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "opencv_util.h"

namespace bench::cvb {

using Results = std::map<std::string, Array>;

// brighten: planar channels are just more rows. convertTo does not use the pool: row bands.
OpenCvCall bind_brighten(const CaseSpec &c, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_8UC1));
    auto dst = new_mat(src->rows, src->cols, CV_8UC1);
    const double alpha = c.scalars.at("gain") / 16.0, beta = c.scalars.at("offset");
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run(
                    [&](const cv::Range &r) { src->rowRange(r).convertTo(dst->rowRange(r), CV_8U, alpha, beta); });
            },
            [=] {
                return Results{{"output", array_of(*dst, kU8, shape)}};
            }};
}

// rgb_to_yuv: COLOR_RGB2YUV_I420 is the pipeline's conversion (BT.601 studio range, Y at full
// resolution, U and V from 2x2 blocks, three planes one after the other), but OpenCV takes
// interleaved RGB only. The planar input is interleaved once here, untimed: the timed call reads the
// same 3 bytes per pixel and writes the same 1.5, each in OpenCV's own layout. (Timing cv::merge
// too would add a pass over the image that the pipeline does not make.)
OpenCvCall bind_rgb_to_yuv(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const int w = a.shape.at(0), h = a.shape.at(1);
    if (a.shape.size() != 3 || a.shape[2] != 3) throw std::runtime_error("rgb_to_yuv peer: input is not W x H x 3");
    if (w % 2 || h % 2) {
        throw std::runtime_error("rgb_to_yuv peer: cv::cvtColor I420 needs an even width and height, not " +
                                 std::to_string(w) + "x" + std::to_string(h));
    }
    const cv::Mat planes = mat_of(a, CV_8UC1);  // R rows, then G rows, then B rows
    auto rgb = new_mat(h, w, CV_8UC3);
    cv::merge(std::vector<cv::Mat>{planes.rowRange(0, h), planes.rowRange(h, 2 * h), planes.rowRange(2 * h, 3 * h)},
              *rgb);
    auto yuv = new_mat(h * 3 / 2, w, CV_8UC1);
    return {[=] { cv::cvtColor(*rgb, *yuv, cv::COLOR_RGB2YUV_I420); },
            [=] {
                const int cw = w / 2, ch = h / 2;
                const cv::Mat u(ch, cw, CV_8UC1, yuv->ptr(h)), v(ch, cw, CV_8UC1, yuv->ptr(h) + cw * ch);
                return Results{{"out_y", array_of(yuv->rowRange(0, h), kU8, {w, h})},
                               {"out_u", array_of(u, kU8, {cw, ch})},
                               {"out_v", array_of(v, kU8, {cw, ch})}};
            }};
}

// resize_bilinear: one cv::resize per plane into the planes of one output buffer. INTER_LINEAR is
// pixel-centre aligned with replicated edges, like the pipeline; cv::resize runs on the pool itself.
OpenCvCall bind_resize_bilinear(const CaseSpec &c, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const std::vector<int> out_shape = c.outputs.at(0).shape;
    const int ih = a.shape.at(1), ow = out_shape.at(0), oh = out_shape.at(1);
    const int planes = a.shape.size() > 2 ? a.shape[2] : 1;
    auto src = wrap(mat_of(a, CV_8UC1));
    auto dst = new_mat(oh * planes, ow, CV_8UC1);
    return {[=] {
                for (int p = 0; p < planes; p++) {
                    cv::resize(src->rowRange(p * ih, (p + 1) * ih), dst->rowRange(p * oh, (p + 1) * oh),
                               cv::Size(ow, oh), 0, 0, cv::INTER_LINEAR);
                }
            },
            [=] {
                return Results{{"output", array_of(*dst, kU8, out_shape)}};
            }};
}

// hist_equalize: equalizeHist makes the histogram, its scan and the LUT, and applies it (on the pool
// from 640x480 up); the histogram itself stays inside OpenCV.
OpenCvCall bind_hist_equalize(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_8UC1));
    auto dst = new_mat(src->rows, src->cols, CV_8UC1);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] { cv::equalizeHist(*src, *dst); }, [=] { return Results{{"output", array_of(*dst, kU8, shape)}}; }};
}

}  // namespace bench::cvb
