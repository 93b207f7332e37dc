// NPP (and cuBLAS) peers of the per-pixel, colour, resampling, histogram, reduction and matrix
// pipelines: brighten, rgb_to_yuv, resize_bilinear, hist_equalize, reduce_stats, matmul (npp_peers.h).
#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "npp_util.h"

namespace bench::nppb {

// brighten: planar channels are more rows. MulC with scale factor 4 is (v * gain) / 16 rounded; AddC
// adds the offset with saturation (the benchmark case's offset is positive; a negative one is SubC).
NppCall bind_brighten(const CaseSpec &c, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size{a.shape.at(0), rows_of(a)};
    const int gain = static_cast<int>(c.scalars.at("gain")), offset = static_cast<int>(c.scalars.at("offset"));
    if (gain < 0 || gain > 255 || offset < 0 || offset > 255)
        throw std::runtime_error("brighten npp peer: gain and offset must be in 0..255 (nppiMulC/AddC u8)");
    ImagePtr src = upload(a), dst = std::make_shared<Image>(src->row_bytes, src->rows);
    const std::vector<int> shape = a.shape;
    return {
        [=] {
            check(api().nppiMulC_8u_C1RSfs_Ctx(src->row(0), src->step(), static_cast<npp::u8>(gain), dst->row(0),
                                               dst->step(), size, 4, ctx()),
                  "nppiMulC_8u_C1RSfs");
            check(api().nppiAddC_8u_C1IRSfs_Ctx(static_cast<npp::u8>(offset), dst->row(0), dst->step(), size, 0, ctx()),
                  "nppiAddC_8u_C1IRSfs");
            sync();
        },
        [=] {
            return Results{{"output", download(*dst, kU8, shape)}};
        }};
}

// rgb_to_yuv: the planar input interleaved once on the host, untimed (NPP's YCbCr420 takes packed RGB).
NppCall bind_rgb_to_yuv(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    if (a.shape.size() != 3 || a.shape[2] != 3) throw std::runtime_error("rgb_to_yuv npp peer: input not WxHx3");
    const int w = a.shape[0], h = a.shape[1];
    if (w % 2 || h % 2) throw std::runtime_error("rgb_to_yuv npp peer: YCbCr420 needs an even width and height");
    Array packed(kU8, {3 * w, h});
    const size_t plane = static_cast<size_t>(w) * h;
    for (size_t i = 0; i < plane; i++)
        for (int ch = 0; ch < 3; ch++)
            packed.bytes[3 * i + ch] = a.bytes[ch * plane + i];
    ImagePtr src = upload(packed);
    auto y = std::make_shared<Image>(w, h), u = std::make_shared<Image>(w / 2, h / 2),
         v = std::make_shared<Image>(w / 2, h / 2);
    return {[=] {
                npp::u8 *dst[3] = {y->row(0), u->row(0), v->row(0)};
                int steps[3] = {y->step(), u->step(), v->step()};
                check(api().nppiRGBToYCbCr420_8u_C3P3R_Ctx(src->row(0), src->step(), dst, steps, {w, h}, ctx()),
                      "nppiRGBToYCbCr420_8u_C3P3R");
                sync();
            },
            [=] {
                return Results{{"out_y", download(*y, kU8, {w, h})},
                               {"out_u", download(*u, kU8, {w / 2, h / 2})},
                               {"out_v", download(*v, kU8, {w / 2, h / 2})}};
            }};
}

// resize_bilinear: 3 planes, the whole image to the case's output size, linear interpolation.
NppCall bind_resize_bilinear(const CaseSpec &c, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const std::vector<int> out_shape = c.outputs.at(0).shape;
    const int iw = a.shape.at(0), ih = a.shape.at(1), ow = out_shape.at(0), oh = out_shape.at(1);
    std::array<ImagePtr, 3> src, dst;
    for (int p = 0; p < 3; p++) {
        Array plane(kU8, {iw, ih});
        std::memcpy(plane.bytes.data(), a.bytes.data() + static_cast<size_t>(p) * iw * ih, plane.bytes.size());
        src[p] = upload(plane);
        dst[p] = std::make_shared<Image>(ow, oh);
    }
    if (src[0]->pitch != src[1]->pitch || dst[0]->pitch != dst[2]->pitch)
        throw std::runtime_error("resize npp peer: planes of one image got different pitches");
    return {[=] {
                const npp::u8 *s[3] = {src[0]->row(0), src[1]->row(0), src[2]->row(0)};
                npp::u8 *d[3] = {dst[0]->row(0), dst[1]->row(0), dst[2]->row(0)};
                check(api().nppiResize_8u_P3R_Ctx(s, src[0]->step(), {iw, ih}, {0, 0, iw, ih}, d, dst[0]->step(),
                                                  {ow, oh}, {0, 0, ow, oh}, npp::kInterLinear, ctx()),
                      "nppiResize_8u_P3R");
                sync();
            },
            [=] {
                Array out(kU8, out_shape);
                const size_t plane = static_cast<size_t>(ow) * oh;
                for (int p = 0; p < 3; p++) {
                    const Array one = download(*dst[p], kU8, {ow, oh});
                    std::memcpy(out.bytes.data() + p * plane, one.bytes.data(), plane);
                }
                return Results{{"output", out}};
            }};
}

// hist_equalize: histogram on the device, the LUT on the host from the pipeline's formula, LUT on the device.
NppCall bind_hist_equalize(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size{a.shape.at(0), rows_of(a)};
    ImagePtr src = upload(a), dst = std::make_shared<Image>(src->row_bytes, src->rows);
    size_t scratch_bytes = 0;
    check(api().nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(size, 257, &scratch_bytes, ctx()),
          "nppiHistogramEvenGetBufferSize_8u_C1R");
    std::shared_ptr<void> scratch = device_alloc(scratch_bytes), hist = device_alloc(256 * sizeof(int32_t)),
                          table = device_alloc(256);
    auto host_hist = std::make_shared<std::array<int32_t, 256>>();
    auto host_lut = std::make_shared<std::array<uint8_t, 256>>();
    const std::vector<int> shape = a.shape;
    const int64_t total = static_cast<int64_t>(size.width) * size.height;
    return {[=] {
                check(api().nppiHistogramEven_8u_C1R_Ctx(src->row(0), src->step(), size,
                                                         static_cast<int32_t *>(hist.get()), 257, 0, 256,
                                                         static_cast<npp::u8 *>(scratch.get()), ctx()),
                      "nppiHistogramEven_8u_C1R");
                check_cuda(api().cudaMemcpyAsync(host_hist->data(), hist.get(), 256 * sizeof(int32_t),
                                                 npp::kDeviceToHost, ctx().stream),
                           "cudaMemcpyAsync (histogram)");
                sync();
                int64_t cdf = 0;
                for (int i = 0; i < 256; i++) {
                    cdf += (*host_hist)[i];
                    (*host_lut)[i] = static_cast<uint8_t>((cdf * 255 + total / 2) / total);
                }
                check_cuda(api().cudaMemcpyAsync(table.get(), host_lut->data(), 256, npp::kHostToDevice, ctx().stream),
                           "cudaMemcpyAsync (LUT)");
                check(api().nppiLUTPalette_8u_C1R_Ctx(src->row(0), src->step(), dst->row(0), dst->step(), size,
                                                      static_cast<const npp::u8 *>(table.get()), 8, ctx()),
                      "nppiLUTPalette_8u_C1R");
                sync();
            },
            [=] {
                Array h(kI32, {256});
                std::memcpy(h.bytes.data(), host_hist->data(), h.bytes.size());
                return Results{{"histogram", h}, {"output", download(*dst, kU8, shape)}};
            }};
}

// reduce_stats: sum, min and max of an f32 image, left on the device as the pipeline leaves its stats.
NppCall bind_reduce_stats(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size{a.shape.at(0), rows_of(a)};
    ImagePtr src = upload(a);
    size_t sum_bytes = 0, minmax_bytes = 0;
    check(api().nppiSumGetBufferHostSize_32f_C1R_Ctx(size, &sum_bytes, ctx()), "nppiSumGetBufferHostSize_32f_C1R");
    check(api().nppiMinMaxGetBufferHostSize_32f_C1R_Ctx(size, &minmax_bytes, ctx()),
          "nppiMinMaxGetBufferHostSize_32f_C1R");
    std::shared_ptr<void> scratch = device_alloc(std::max(sum_bytes, minmax_bytes)), out = device_alloc(16);
    return {[=] {
                npp::u8 *buf = static_cast<npp::u8 *>(scratch.get());
                char *o = static_cast<char *>(out.get());
                check(api().nppiSum_32f_C1R_Ctx(src->row<float>(0), src->step(), size, buf,
                                                reinterpret_cast<double *>(o), ctx()),
                      "nppiSum_32f_C1R");
                check(api().nppiMinMax_32f_C1R_Ctx(src->row<float>(0), src->step(), size,
                                                   reinterpret_cast<float *>(o + 8), reinterpret_cast<float *>(o + 12),
                                                   buf, ctx()),
                      "nppiMinMax_32f_C1R");
                sync();
            },
            [=] {
                char host[16];
                check_cuda(api().cudaMemcpyAsync(host, out.get(), 16, npp::kDeviceToHost, ctx().stream),
                           "cudaMemcpyAsync (stats)");
                sync();
                double sum;
                float mn, mx;
                std::memcpy(&sum, host, 8);
                std::memcpy(&mn, host + 8, 4);
                std::memcpy(&mx, host + 12, 4);
                Array s(kF32, {3});
                s.data<float>()[0] = static_cast<float>(sum);
                s.data<float>()[1] = mn;
                s.data<float>()[2] = mx;
                return Results{{"stats", s}};
            }};
}

// matmul: c(j, i) = sum_k a(k, i) b(j, k), row-major, as column-major C^T = B^T A^T in one cublasSgemm.
NppCall bind_matmul(const CaseSpec &, const std::vector<Array> &in) {
    const npp::Api &f = api();
    if (!f.cublasSgemm_v2) throw std::runtime_error("cuBLAS unavailable: " + npp_versions());
    const Array &a = in.at(0), &b = in.at(1);
    const int kk = a.shape.at(0), m = a.shape.at(1), n = b.shape.at(0);
    if (b.shape.at(1) != kk) throw std::runtime_error("matmul cuBLAS peer: a and b do not chain");
    std::shared_ptr<void> da = device_alloc(a.bytes.size()), db = device_alloc(b.bytes.size()),
                          dc = device_alloc(static_cast<size_t>(m) * n * 4);
    check_cuda(f.cudaMemcpyAsync(da.get(), a.bytes.data(), a.bytes.size(), npp::kHostToDevice, ctx().stream),
               "upload a");
    check_cuda(f.cudaMemcpyAsync(db.get(), b.bytes.data(), b.bytes.size(), npp::kHostToDevice, ctx().stream),
               "upload b");
    sync();
    void *h = nullptr;
    check(-f.cublasCreate_v2(&h), "cublasCreate");
    std::shared_ptr<void> handle(h, [](void *p) { api().cublasDestroy_v2(p); });
    check(-f.cublasSetStream_v2(h, ctx().stream), "cublasSetStream");
    return {[=] {
                const float one = 1, zero = 0;
                check(-api().cublasSgemm_v2(handle.get(), npp::kCublasOpN, npp::kCublasOpN, n, m, kk, &one,
                                            static_cast<const float *>(db.get()), n,
                                            static_cast<const float *>(da.get()), kk, &zero,
                                            static_cast<float *>(dc.get()), n),
                      "cublasSgemm");
                sync();
            },
            [=] {
                Array c(kF32, {n, m});
                check_cuda(
                    api().cudaMemcpyAsync(c.bytes.data(), dc.get(), c.bytes.size(), npp::kDeviceToHost, ctx().stream),
                    "cudaMemcpyAsync (c)");
                sync();
                return Results{{"c", c}};
            }};
}

}  // namespace bench::nppb
