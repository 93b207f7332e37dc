// The NPP peers' table (what each calls and how it differs from its pipeline) and the device
// helpers they share (npp_util.h).
#include "npp_peers.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "npp_util.h"

namespace bench {

namespace nppb {

const halide_type_t kU8{halide_type_uint, 8, 1}, kI32{halide_type_int, 32, 1}, kF32{halide_type_float, 32, 1};

const npp::Api &api() {
    std::string why;
    const npp::Api *a = npp::api(&why);
    if (!a) throw std::runtime_error("NPP unavailable: " + why);
    return *a;
}

const npp::StreamContext &ctx() {
    api();
    return npp::stream_context();
}

void check(int status, const char *what) {
    if (status < 0) throw std::runtime_error(std::string(what) + " failed: NPP status " + std::to_string(status));
}

void check_cuda(int err, const char *what) {
    if (err != 0) throw std::runtime_error(std::string(what) + " failed: " + api().cudaGetErrorString(err));
}

void sync() {
    check_cuda(api().cudaStreamSynchronize(ctx().stream), "cudaStreamSynchronize");
}

Image::Image(size_t row_bytes_, int rows_) : row_bytes(row_bytes_), rows(rows_) {
    check_cuda(api().cudaMallocPitch(&ptr, &pitch, row_bytes, static_cast<size_t>(rows)), "cudaMallocPitch");
}

Image::~Image() {
    if (ptr) api().cudaFree(ptr);
}

int rows_of(const Array &a) {
    int rows = 1;
    for (size_t d = 1; d < a.shape.size(); d++)
        rows *= a.shape[d];
    return rows;
}

ImagePtr upload(const Array &a) {
    const size_t row = static_cast<size_t>(a.shape.at(0)) * a.element_bytes();
    auto img = std::make_shared<Image>(row, rows_of(a));
    check_cuda(api().cudaMemcpy2D(img->ptr, img->pitch, a.bytes.data(), row, row, img->rows, npp::kHostToDevice),
               "cudaMemcpy2D (upload)");
    return img;
}

Array download(const Image &img, halide_type_t type, std::vector<int> shape) {
    Array out(type, std::move(shape));
    const size_t row = static_cast<size_t>(out.shape.at(0)) * out.element_bytes();
    const int rows = rows_of(out);
    if (row > img.row_bytes || rows > img.rows) throw std::runtime_error("npp peer: download larger than image");
    sync();
    check_cuda(api().cudaMemcpy2D(out.bytes.data(), row, img.ptr, img.pitch, row, rows, npp::kDeviceToHost),
               "cudaMemcpy2D (download)");
    return out;
}

std::shared_ptr<void> device_alloc(size_t bytes) {
    void *p = nullptr;
    check_cuda(api().cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
    return std::shared_ptr<void>(p, [](void *q) { api().cudaFree(q); });
}

}  // namespace nppb

const std::map<std::string, NppPeer> &npp_peers() {
    using namespace nppb;
    static const std::map<std::string, NppPeer> table{
        {"blur3x3",
         {"nppiFilterBoxBorder_8u_C1R 3x3, anchor (1,1), NPP_BORDER_REPLICATE",
          "NPP rounds the 9-pixel mean in its own way; the pipeline computes (sum + 4) / 9",
          {{"output", {1, 0}}},
          bind_blur3x3}},
        {"gaussian5x5",
         {"nppiFilterGaussAdvancedBorder_32f_C1R, 5 taps {1,4,6,4,1}/16 (the pipeline's kernel), NPP_BORDER_REPLICATE",
          "the same separable kernel and border; f32 sums in NPP's order (FilterGaussBorder's fixed 5x5 kernel "
          "has sigma 1.6, not the binomial's 1, so the advanced call with the pipeline's taps is the same work)",
          {{"output", {1e-4, 0}}},
          bind_gaussian5x5}},
        {"sobel",
         {"nppiGradientVectorSobelBorder_8u16s_C1R 3x3, nppiNormL2, NPP_BORDER_REPLICATE: magnitude (16s) and "
          "angle (32f) only",
          "NPP writes the magnitude as a 16-bit integer (2 bytes per pixel, the pipeline 4: NPP moves 7 bytes per "
          "pixel, the pipeline 9; results() converts it to f32). Its angle is not compared: on the H100 it was "
          "neither atan2(gy, gx) (82 of 49152 pixels within 1e-3) nor its negation (none), up to pi apart both "
          "ways; NPP calls its x image vertical and its y image horizontal, and which of the two it passes to "
          "atan2 first was not settled in the device time this had",
          {{"magnitude", {1, 0}}},
          bind_sobel}},
        {"unsharp_mask",
         {"nppiFilterUnsharpBorder_8u_C1R radius 2, sigma 1, weight amount/16, threshold 0, NPP_BORDER_REPLICATE",
          "NPP blurs with a sampled Gaussian of sigma 1 (weights 0.054 0.244 0.403 0.244 0.054) where the "
          "pipeline uses the binomial 1 4 6 4 1 / 16 (variance 1) in fixed point, and rounds in float",
          {{"output", {8, 0}}},  // 8 measured on the H100
          bind_unsharp_mask}},
        {"brighten",
         {"nppiMulC_8u_C1RSfs (gain, scale 2^-4) then nppiAddC_8u_C1IRSfs (offset) in place, planes as rows",
          "two passes over the image (NPP has no fused u8 multiply-add), the pipeline one; NPP rounds the scaled "
          "product half to even, the pipeline half up (+8 >> 4)",
          {{"output", {1, 0}}},
          bind_brighten}},
        {"rgb_to_yuv",
         {"nppiRGBToYCbCr420_8u_C3P3R (BT.601 studio range: the pipeline's coefficients) on an interleaved copy "
          "of the planar input made once, untimed",
          "NPP converts interleaved RGB only (its planar-input RGBToYUV420 uses the analog, full-range YUV "
          "coefficients): the timed call reads the same 3 bytes per pixel and writes the same 1.5; NPP computes "
          "in f32 (0.257 R + 0.504 G + 0.098 B + 16), the pipeline in 8.8 fixed point, and NPP's chroma "
          "sampling of each 2x2 block is its own",
          {{"out_y", {1, 0}}, {"out_u", {2, 0}}, {"out_v", {2, 0}}},  // as measured on the H100
          bind_rgb_to_yuv}},
        {"resize_bilinear",
         {"nppiResize_8u_P3R, NPPI_INTER_LINEAR, whole image to 2/3 in each direction",
          "NPP's sample positions and rounding are its own; the pipeline maps pixel centres and rounds f32: on "
          "the noise input a fraction of a pixel apart is up to 99 apart (H100), so the check uses a smooth ramp",
          {{"output", {1, 0}}},  // 1 measured on the H100 (the ramp)
          bind_resize_bilinear,
          true}},
        {"hist_equalize",
         {"nppiHistogramEven_8u_C1R (256 bins), the 1 KiB histogram to the host, the LUT there (the pipeline's "
          "formula), 256 bytes back, nppiLUTPalette_8u_C1R",
          "the cdf and LUT are made on the host between the two NPP calls (NPP has no scan): two small copies "
          "and a stream sync in the timed call",
          {{"histogram", {0, 0}}, {"output", {0, 0}}},
          bind_hist_equalize}},
        {"reduce_stats",
         {"nppiSum_32f_C1R + nppiMinMax_32f_C1R (results left on the device)",
          "two passes over the image, the pipeline one; NPP sums in f64",
          {{"stats", {1e-2, 0}}},
          bind_reduce_stats}},
        {"matmul",
         {"cublasSgemm (FP32, row-major C = A B as column-major C^T = B^T A^T)",
          "cuBLAS's own blocking and summation order",
          {{"c", {1e-3, 0}}},
          bind_matmul}},
    };
    return table;
}

NppCall npp_device_copy(size_t bytes) {
    using namespace nppb;
    std::shared_ptr<void> src = device_alloc(bytes), dst = device_alloc(bytes);
    return {[=] {
                check_cuda(api().cudaMemcpyAsync(dst.get(), src.get(), bytes, npp::kDeviceToDevice, ctx().stream),
                           "cudaMemcpyAsync (device to device)");
                sync();
            },
            [] { return nppb::Results{}; }};
}

std::string npp_unavailable_reason() {
    std::string why;
    return npp::api(&why) ? "" : why;
}

std::string npp_versions() {
    return npp::versions();
}

}  // namespace bench
