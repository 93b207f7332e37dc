// sobel: cases, inputs, tolerance and the plain C++ reference (gradients as ints, math in double).
#include <algorithm>
#include <cmath>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    const uint8_t *src = in.data<uint8_t>();
    auto at = [&](int x, int y) {
        return static_cast<int>(src[static_cast<size_t>(std::clamp(y, 0, h - 1)) * w + std::clamp(x, 0, w - 1)]);
    };
    static const int kx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};  // [row][col]
    const halide_type_t f32{halide_type_float, 32, 1};
    Array mag(f32, in.shape), ang(f32, in.shape);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int gx = 0, gy = 0;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    gx += kx[r][c] * at(x + c - 1, y + r - 1);
                    gy += kx[c][r] * at(x + c - 1, y + r - 1);  // the transposed kernel
                }
            }
            const size_t i = static_cast<size_t>(y) * w + x;
            mag.data<float>()[i] = static_cast<float>(std::sqrt(double(gx) * gx + double(gy) * gy));
            ang.data<float>()[i] = static_cast<float>(std::atan2(double(gy), double(gx)));
        }
    }
    return {mag, ang};
}

harness::PipelineSpec make_sobel_spec() {
    harness::PipelineSpec spec;
    spec.name = "sobel";
    spec.summary = "Sobel gradient magnitude (sqrt) and direction (atan2), u8 in, two f32 outputs";
    // OpenCL's full-profile sqrt may be off by 3 ULP and atan2 by 6 ULP; magnitudes reach 1442, so
    // 1e-5 relative (~80 ULP) plus 1e-5 absolute (angles near 0) admits that and nothing bigger
    // than a rounding: a wrong tap changes the magnitude by >= 1.
    spec.tolerance = harness::Tolerance::abs_rel(1e-5, 1e-5);
    spec.tolerance_reason = "sqrt/atan2 are not correctly rounded on GPUs (OpenCL allows 3 and 6 ULP)";
    const halide_type_t u8{halide_type_uint, 8, 1}, f32{halide_type_float, 32, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        c.inputs = {{"input", u8, shape, {harness::Recipe::Kind::UniformInt, 0, 255, 0x50BE'0001}}};
        c.outputs = {{"magnitude", f32, shape, {}}, {"angle", f32, shape, {}}};
        return c;
    });
    spec.reference = reference;
    return spec;
}

// The same pipeline built with the strict_float target feature on every profile (no fast-math
// reassociation or contraction): the difference between the two shows what fast math costs in
// precision on each device.
harness::PipelineSpec make_sobel_strict_spec() {
    harness::PipelineSpec spec = make_sobel_spec();
    spec.name = "sobel_strict";
    spec.summary = "sobel built with strict_float on every profile";
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_sobel_spec);
HARNESS_REGISTER_SPEC(make_sobel_strict_spec);
