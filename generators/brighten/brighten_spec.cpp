// brighten: cases, inputs, tolerance and the plain C++ reference.
#include <algorithm>
#include <string>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &c, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int gain = static_cast<int>(c.scalars.at("gain"));
    const int offset = static_cast<int>(c.scalars.at("offset"));
    Array out(in.type, in.shape);
    const uint8_t *src = in.data<uint8_t>();
    uint8_t *dst = out.data<uint8_t>();
    for (size_t i = 0; i < in.elements(); i++) {
        const int scaled = (src[i] * gain + 8) / 16;  // non-negative, so / 16 == >> 4
        dst[i] = static_cast<uint8_t>(std::clamp(scaled + offset, 0, 255));
    }
    return {out};
}

CaseSpec make_case(int width, int height) {
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.name = std::to_string(width) + "x" + std::to_string(height);
    const std::vector<int> shape{width, height, 3};
    c.inputs = {{"input", u8, shape, {harness::Recipe::Kind::UniformInt, 0, 255, 0xB41'0001}}};
    // gain 1.25 and a positive offset: both saturation ends are reached.
    c.scalars = {{"gain", 20}, {"offset", 30}};
    c.outputs = {{"output", u8, shape, {}}};
    return c;
}

harness::PipelineSpec make_brighten_spec() {
    harness::PipelineSpec spec;
    spec.name = "brighten";
    spec.summary = "u8 gain (Q4) + offset with saturation, planar 3-channel image";
    // Integer arithmetic with no rounding freedom: every target must agree bit for bit.
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer-only arithmetic: any difference is a bug";
    harness::add_image_cases(spec, make_case);
    // A real colour photograph (golden/inputs/LICENSE.md).
    CaseSpec photo = make_case(451, 300);
    photo.name = "photo";
    photo.inputs[0].recipe.kind = harness::Recipe::Kind::Image;
    photo.inputs[0].recipe.file = "chelsea.png";
    photo.inputs[0].recipe.file_sha256 = "596aa1e7cb875eb79f437e310381d26b338a81c2da23439704a73c4651e8c4bb";
    spec.cases.push_back(photo);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_brighten_spec);
