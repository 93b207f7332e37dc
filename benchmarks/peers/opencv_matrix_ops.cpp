// OpenCV peers of the matrix product, the reduction and the sort: matmul, reduce_stats,
// bitonic_sort. None of these OpenCV calls uses the pool, so each runs in row bands.
#include <algorithm>
#include <limits>

#include <opencv2/core.hpp>

#include "opencv_util.h"

namespace bench::cvb {

using Results = std::map<std::string, Array>;

// matmul: Halide's A(k, i) with k innermost is the row-major M x K matrix, B(j, k) the K x N one, and
// C(j, i) = sum_k A(k, i) B(j, k) is the row-major product A B. Bands of rows of A and C.
OpenCvCall bind_matmul(const CaseSpec &, const std::vector<Array> &in) {
    auto a = wrap(mat_of(in.at(0), CV_32FC1)), b = wrap(mat_of(in.at(1), CV_32FC1));
    if (a->cols != b->rows)
        throw std::runtime_error("matmul peer: A has " + std::to_string(a->cols) + " columns, B " +
                                 std::to_string(b->rows) + " rows");
    auto c = new_mat(a->rows, b->cols, CV_32FC1);
    const RowBands bands(a->rows);
    return {[=] {
                bands.run(
                    [&](const cv::Range &r) { cv::gemm(a->rowRange(r), *b, 1.0, cv::noArray(), 0.0, c->rowRange(r)); });
            },
            [=] {
                return Results{{"c", array_of(*c, kF32, {c->cols, c->rows})}};
            }};
}

// reduce_stats: OpenCV has no single call for sum, min and max: cv::sum and cv::minMaxIdx, each a
// pass over the band (the second one mostly from cache), then the bands' partials are combined.
OpenCvCall bind_reduce_stats(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_32FC1));
    const RowBands bands(src->rows);
    struct Partial {
        double sum, lo, hi;
    };
    auto partials = std::make_shared<std::vector<Partial>>(bands.count());
    auto stats = std::make_shared<std::vector<float>>(3);
    return {[=] {
                bands.run_indexed([&](int band, const cv::Range &r) {
                    Partial &p = (*partials)[static_cast<size_t>(band)];
                    const cv::Mat rows = src->rowRange(r);
                    p.sum = cv::sum(rows)[0];
                    cv::minMaxIdx(rows, &p.lo, &p.hi);
                });
                double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
                for (const Partial &p : *partials) {
                    sum += p.sum;
                    lo = std::min(lo, p.lo);
                    hi = std::max(hi, p.hi);
                }
                *stats = {static_cast<float>(sum), static_cast<float>(lo), static_cast<float>(hi)};
            },
            [=] {
                return Results{{"stats", array_of(cv::Mat(1, 3, CV_32FC1, stats->data()), kF32, {3})}};
            }};
}

// bitonic_sort: the pipeline sorts every row ascending, which is what cv::sort does with
// SORT_EVERY_ROW (std::sort per row inside OpenCV).
OpenCvCall bind_bitonic_sort(const CaseSpec &, const std::vector<Array> &in) {
    auto src = wrap(mat_of(in.at(0), CV_32SC1));
    auto dst = new_mat(src->rows, src->cols, CV_32SC1);
    const RowBands bands(src->rows);
    const std::vector<int> shape = in.at(0).shape;
    return {[=] {
                bands.run([&](const cv::Range &r) {
                    cv::sort(src->rowRange(r), dst->rowRange(r), cv::SORT_EVERY_ROW | cv::SORT_ASCENDING);
                });
            },
            [=] {
                return Results{{"output", array_of(*dst, kI32, shape)}};
            }};
}

}  // namespace bench::cvb
