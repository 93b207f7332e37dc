// gaussian5x5: cases, inputs, tolerance and the plain C++ reference (direct 5x5 sum in double).
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    static const double k[5] = {1, 4, 6, 4, 1};
    Array out(in.type, in.shape);
    const float *src = in.data<float>();
    float *dst = out.data<float>();
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            double sum = 0;
            for (int j = 0; j < 5; j++) {
                for (int i = 0; i < 5; i++) {
                    const int sx = std::clamp(x + i - 2, 0, w - 1), sy = std::clamp(y + j - 2, 0, h - 1);
                    sum += k[i] * k[j] * src[static_cast<size_t>(sy) * w + sx];
                }
            }
            dst[static_cast<size_t>(y) * w + x] = static_cast<float>(sum / 256.0);
        }
    }
    return {out};
}

harness::PipelineSpec make_gaussian5x5_spec() {
    harness::PipelineSpec spec;
    spec.name = "gaussian5x5";
    spec.summary = "separable 5x5 Gaussian blur, f32, clamped edges";
    // Ten f32 multiply-adds per output: devices may contract to FMA and the reference sums in double,
    // so results differ by a few ULPs. Values are in [0, 1): 1e-6 absolute plus 1e-5 relative is
    // ~10 ULPs at 1.0, far below any real bug (a missing tap is >= 1/256 of a value).
    spec.tolerance = harness::Tolerance::abs_rel(1e-6, 1e-5);
    spec.tolerance_reason = "f32 sums: FMA contraction and summation order differ by a few ULPs across devices";
    const halide_type_t f32{halide_type_float, 32, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        c.inputs = {{"input", f32, shape, {harness::Recipe::Kind::UniformFloat, 0, 1, 0x6A55'0005}}};
        c.outputs = {{"output", f32, shape, {}}};
        return c;
    });
    // A smooth ramp: the blur must reproduce it (up to the clamped borders).
    CaseSpec ramp;
    ramp.name = "gradient";
    ramp.inputs = {{"input", f32, {257, 131}, {harness::Recipe::Kind::Gradient, 0, 1, 0}}};
    ramp.outputs = {{"output", f32, {257, 131}, {}}};
    spec.cases.push_back(ramp);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_gaussian5x5_spec);
