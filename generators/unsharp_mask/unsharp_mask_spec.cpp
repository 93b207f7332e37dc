// unsharp_mask: cases, inputs, tolerance and the plain C++ reference (direct 5x5 binomial).
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;
using harness::floor_shift;

std::vector<Array> reference(const CaseSpec &c, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    const int amount = static_cast<int>(c.scalars.at("amount"));
    static const int k[5] = {1, 4, 6, 4, 1};
    const uint8_t *src = in.data<uint8_t>();
    Array out(in.type, in.shape);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int sum = 0;
            for (int j = 0; j < 5; j++) {
                for (int i = 0; i < 5; i++) {
                    const int sx = std::clamp(x + i - 2, 0, w - 1), sy = std::clamp(y + j - 2, 0, h - 1);
                    sum += k[i] * k[j] * src[static_cast<size_t>(sy) * w + sx];
                }
            }
            const int blur = (sum + 128) / 256;  // sum >= 0
            const int v = src[static_cast<size_t>(y) * w + x];
            const int sharpened = v + floor_shift((v - blur) * amount + 8, 4);
            out.data<uint8_t>()[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(std::clamp(sharpened, 0, 255));
        }
    }
    return {out};
}

harness::PipelineSpec make_unsharp_mask_spec() {
    harness::PipelineSpec spec;
    spec.name = "unsharp_mask";
    spec.summary = "unsharp mask: 5x5 binomial blur, signed difference, Q4 gain, u8 saturation (multi-stage)";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason =
        "integer stages with floor shifts: fused or materialised, every target must agree bit for bit";
    const halide_type_t u8{halide_type_uint, 8, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        c.inputs = {{"input", u8, shape, {harness::Recipe::Kind::UniformInt, 0, 255, 0x0275'0001}}};
        c.scalars = {{"amount", 24}};  // 1.5: noise input, so both saturation ends are reached
        c.outputs = {{"output", u8, shape, {}}};
        return c;
    });
    // Hard 0/255 edges every 4 pixels: both clamps of the output are hit at every edge.
    CaseSpec checker;
    checker.name = "checker";
    checker.inputs = {{"input", u8, {64, 48}, {harness::Recipe::Kind::Checkerboard, 0, 255, 0, 4}}};
    checker.scalars = {{"amount", 24}};
    checker.outputs = {{"output", u8, {64, 48}, {}}};
    spec.cases.push_back(checker);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_unsharp_mask_spec);
