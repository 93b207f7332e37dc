// conv3x3_f16: cases, inputs, tolerance and the plain C++ reference, which emulates IEEE half
// rounding (round to nearest even, subnormals) after every product and every sum.
#include <algorithm>
#include <cmath>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

// Rounds a finite value of magnitude < 65504 to the nearest IEEE binary16 value (ties to even).
double to_half(double v) {
    if (v == 0) return v;
    int e = 0;
    std::frexp(v, &e);                          // v = m * 2^e, 0.5 <= |m| < 1
    const int quantum = std::max(e - 11, -24);  // 11 significant bits; subnormals below 2^-14
    const double q = std::ldexp(1.0, quantum);
    return std::nearbyint(v / q) * q;  // the default rounding mode: to nearest, ties to even
}

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int w = in.shape.at(0), h = in.shape.at(1);
    static const double k[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
    Array out(in.type, in.shape);
    const float *src = in.data<float>();
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            double sum = 0;
            bool first = true;
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    const int sx = std::clamp(x + c - 1, 0, w - 1), sy = std::clamp(y + r - 1, 0, h - 1);
                    const double term = to_half(to_half(k[r][c] / 16) * to_half(src[static_cast<size_t>(sy) * w + sx]));
                    sum = first ? term : to_half(sum + term);
                    first = false;
                }
            }
            out.data<float>()[static_cast<size_t>(y) * w + x] = static_cast<float>(sum);
        }
    }
    return {out};
}

harness::PipelineSpec make_conv3x3_f16_spec() {
    harness::PipelineSpec spec;
    spec.name = "conv3x3_f16";
    spec.summary = "3x3 binomial convolution in f16 arithmetic (cl_half on OpenCL), f32 in and out";
    // GPUs with native half may fuse a product into the next sum (FMA) and round once instead of
    // twice, and the host (f16c) variant was measured 4 f16 ULPs from the cpu golden at one pixel of
    // the 1920x1080 case (0.78125 vs 0.7792969). An f16 ULP just below 1.0 is 2^-11:
    // 2e-3 + 2e-3 x |value| admits about four of them, while a wrong tap moves a value by >= 1/16.
    spec.tolerance = harness::Tolerance::abs_rel(2e-3, 2e-3);
    spec.tolerance_reason = "f16 arithmetic: FMA contraction and f16c rounding differ by up to 4 f16 ULPs";
    spec.required_extensions = {"cl_khr_fp16"};
    const halide_type_t f32{halide_type_float, 32, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        c.inputs = {{"input", f32, shape, {harness::Recipe::Kind::UniformFloat, 0, 1, 0xF16'0001}}};
        c.outputs = {{"output", f32, shape, {}}};
        return c;
    });
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_conv3x3_f16_spec);
