// rgb_to_yuv: cases, inputs, tolerance and the plain C++ reference.
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;
using harness::floor_shift;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    const int cw = (w + 1) / 2, chh = (h + 1) / 2;
    const uint8_t *src = in.data<uint8_t>();
    auto px = [&](int x, int y, int c) {
        return static_cast<int>(src[(static_cast<size_t>(c) * h + std::min(y, h - 1)) * w + std::min(x, w - 1)]);
    };
    const halide_type_t u8{halide_type_uint, 8, 1};
    Array oy(u8, {w, h}), ou(u8, {cw, chh}), ov(u8, {cw, chh});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const int v = floor_shift(66 * px(x, y, 0) + 129 * px(x, y, 1) + 25 * px(x, y, 2) + 128, 8) + 16;
            oy.data<uint8_t>()[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v);
        }
    }
    for (int y = 0; y < chh; y++) {
        for (int x = 0; x < cw; x++) {
            int m[3];
            for (int c = 0; c < 3; c++) {
                const int s = px(2 * x, 2 * y, c) + px(2 * x + 1, 2 * y, c) + px(2 * x, 2 * y + 1, c) +
                              px(2 * x + 1, 2 * y + 1, c);
                m[c] = (s + 2) / 4;
            }
            const int u = floor_shift(-38 * m[0] - 74 * m[1] + 112 * m[2] + 128, 8) + 128;
            const int v = floor_shift(112 * m[0] - 94 * m[1] - 18 * m[2] + 128, 8) + 128;
            ou.data<uint8_t>()[static_cast<size_t>(y) * cw + x] = static_cast<uint8_t>(std::clamp(u, 0, 255));
            ov.data<uint8_t>()[static_cast<size_t>(y) * cw + x] = static_cast<uint8_t>(std::clamp(v, 0, 255));
        }
    }
    return {oy, ou, ov};
}

harness::PipelineSpec make_rgb_to_yuv_spec() {
    harness::PipelineSpec spec;
    spec.name = "rgb_to_yuv";
    spec.summary = "planar u8 RGB -> YUV 4:2:0 (BT.601 integer), three outputs of two sizes";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason =
        "integer arithmetic with floor shifts: any difference is a bug (or an output never copied back)";
    const halide_type_t u8{halide_type_uint, 8, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const int cw = (width + 1) / 2, ch = (height + 1) / 2;
        c.inputs = {{"input", u8, {width, height, 3}, {harness::Recipe::Kind::UniformInt, 0, 255, 0x7E0'0001}}};
        c.outputs = {{"out_y", u8, {width, height}, {}}, {"out_u", u8, {cw, ch}, {}}, {"out_v", u8, {cw, ch}, {}}};
        return c;
    });
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_rgb_to_yuv_spec);
