// NPP peers of the image stencils: blur3x3, gaussian5x5, sobel, unsharp_mask (npp_peers.h).
#include <cmath>
#include <stdexcept>

#include "npp_util.h"

namespace bench::nppb {

namespace {

npp::Size size_of(const Array &a) {
    return {a.shape.at(0), rows_of(a)};
}

}  // namespace

// blur3x3: u8 in, u8 out, 3x3 mean with replicated edges.
NppCall bind_blur3x3(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size = size_of(a);
    ImagePtr src = upload(a), dst = std::make_shared<Image>(src->row_bytes, src->rows);
    const std::vector<int> shape = a.shape;
    return {[=] {
                check(api().nppiFilterBoxBorder_8u_C1R_Ctx(src->row(0), src->step(), size, {0, 0}, dst->row(0),
                                                           dst->step(), size, {3, 3}, {1, 1}, npp::kBorderReplicate,
                                                           ctx()),
                      "nppiFilterBoxBorder_8u_C1R");
                sync();
            },
            [=] {
                return Results{{"output", download(*dst, kU8, shape)}};
            }};
}

// gaussian5x5: f32 in, f32 out, the binomial 1 4 6 4 1 / 16 separable kernel with replicated edges.
// The taps live in managed memory: NPP reads them wherever its implementation does.
NppCall bind_gaussian5x5(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size = size_of(a);
    ImagePtr src = upload(a), dst = std::make_shared<Image>(src->row_bytes, src->rows);
    void *taps = nullptr;
    check_cuda(api().cudaMallocManaged(&taps, 5 * sizeof(float), npp::kMemAttachGlobal), "cudaMallocManaged");
    std::shared_ptr<void> kernel(taps, [](void *p) { api().cudaFree(p); });
    const float w[5] = {1 / 16.f, 4 / 16.f, 6 / 16.f, 4 / 16.f, 1 / 16.f};
    for (int i = 0; i < 5; i++)
        static_cast<float *>(taps)[i] = w[i];
    const std::vector<int> shape = a.shape;
    return {[=] {
                check(api().nppiFilterGaussAdvancedBorder_32f_C1R_Ctx(
                          src->row<float>(0), src->step(), size, {0, 0}, dst->row<float>(0), dst->step(), size, 5,
                          static_cast<const float *>(kernel.get()), npp::kBorderReplicate, ctx()),
                      "nppiFilterGaussAdvancedBorder_32f_C1R");
                sync();
            },
            [=] {
                return Results{{"output", download(*dst, kF32, shape)}};
            }};
}

// sobel: u8 in; magnitude (NPP: 16s) and angle (f32) out, 3x3, L2, replicated edges; no x/y images.
NppCall bind_sobel(const CaseSpec &, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size = size_of(a);
    ImagePtr src = upload(a);
    auto mag = std::make_shared<Image>(static_cast<size_t>(size.width) * 2, size.height);
    auto angle = std::make_shared<Image>(static_cast<size_t>(size.width) * 4, size.height);
    const std::vector<int> shape = a.shape;
    return {[=] {
                check(api().nppiGradientVectorSobelBorder_8u16s_C1R_Ctx(
                          src->row(0), src->step(), size, {0, 0}, nullptr, 0, nullptr, 0, mag->row<int16_t>(0),
                          mag->step(), angle->row<float>(0), angle->step(), size, npp::kMask3x3, npp::kNormL2,
                          npp::kBorderReplicate, ctx()),
                      "nppiGradientVectorSobelBorder_8u16s_C1R");
                sync();
            },
            [=] {
                const Array m16 = download(*mag, halide_type_t(halide_type_int, 16, 1), shape);
                Array m(kF32, shape);
                for (size_t i = 0; i < m.elements(); i++)
                    m.data<float>()[i] = m16.data<int16_t>()[i];
                return Results{{"magnitude", m}, {"angle", download(*angle, kF32, shape)}};
            }};
}

// unsharp_mask: u8 in, u8 out; NPP's unsharp filter with the pipeline's radius and gain.
NppCall bind_unsharp_mask(const CaseSpec &c, const std::vector<Array> &in) {
    const Array &a = in.at(0);
    const npp::Size size = size_of(a);
    ImagePtr src = upload(a), dst = std::make_shared<Image>(src->row_bytes, src->rows);
    const float radius = 2, sigma = 1, weight = static_cast<float>(c.scalars.at("amount") / 16.0);
    int scratch_bytes = 0;
    check(api().nppiFilterUnsharpGetBufferSize_8u_C1R(radius, sigma, &scratch_bytes),
          "nppiFilterUnsharpGetBufferSize_8u_C1R");
    std::shared_ptr<void> scratch = device_alloc(static_cast<size_t>(scratch_bytes));
    const std::vector<int> shape = a.shape;
    return {[=] {
                check(api().nppiFilterUnsharpBorder_8u_C1R_Ctx(
                          src->row(0), src->step(), {0, 0}, dst->row(0), dst->step(), size, radius, sigma, weight, 0.f,
                          npp::kBorderReplicate, static_cast<npp::u8 *>(scratch.get()), ctx()),
                      "nppiFilterUnsharpBorder_8u_C1R");
                sync();
            },
            [=] {
                return Results{{"output", download(*dst, kU8, shape)}};
            }};
}

}  // namespace bench::nppb
