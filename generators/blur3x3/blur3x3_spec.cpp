// blur3x3: cases, inputs, tolerance and the plain C++ reference (direct 3x3 mean, clamped edges).
#include <algorithm>
#include <string>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    Array out(in.type, in.shape);
    const uint8_t *src = in.data<uint8_t>();
    uint8_t *dst = out.data<uint8_t>();
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int sum = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    const int sx = std::clamp(x + dx, 0, w - 1);
                    const int sy = std::clamp(y + dy, 0, h - 1);
                    sum += src[static_cast<size_t>(sy) * w + sx];
                }
            }
            dst[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>((sum + 4) / 9);
        }
    }
    return {out};
}

CaseSpec make_case(int width, int height) {
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.name = std::to_string(width) + "x" + std::to_string(height);
    const std::vector<int> shape{width, height};
    c.inputs = {{"input", u8, shape, {harness::Recipe::Kind::UniformInt, 0, 255, 0xB1'0003}}};
    c.outputs = {{"output", u8, shape, {}}};
    return c;
}

harness::PipelineSpec make_blur3x3_spec() {
    harness::PipelineSpec spec;
    spec.name = "blur3x3";
    spec.summary = "separable 3x3 box blur, u8, clamped edges, rounded mean";
    // Sums fit u16 exactly and the division is exact integer arithmetic: no rounding freedom.
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer sums and a rounded integer division: bit-exact on every target";
    harness::add_image_cases(spec, make_case);
    // A real photograph: edges and flat areas that random pixels do not have (golden/inputs/LICENSE.md).
    CaseSpec photo = make_case(512, 512);
    photo.name = "photo";
    photo.inputs[0].recipe.kind = harness::Recipe::Kind::Image;
    photo.inputs[0].recipe.file = "camera.png";
    photo.inputs[0].recipe.file_sha256 = "b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a";
    spec.cases.push_back(photo);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_blur3x3_spec);
