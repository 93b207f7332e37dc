// reduce_stats: cases, inputs, tolerance and the plain C++ reference (sum in double).
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const float *p = in.data<float>();
    double sum = 0;
    float lo = p[0], hi = p[0];
    for (size_t i = 0; i < in.elements(); i++) {
        sum += p[i];
        lo = std::min(lo, p[i]);
        hi = std::max(hi, p[i]);
    }
    Array out({halide_type_float, 32, 1}, {3});
    out.data<float>()[0] = static_cast<float>(sum);
    out.data<float>()[1] = lo;
    out.data<float>()[2] = hi;
    return {out};
}

harness::PipelineSpec make_reduce_stats_spec() {
    harness::PipelineSpec spec;
    spec.name = "reduce_stats";
    spec.summary = "sum / min / max of an f32 image as one tuple reduction (rfactor on parallel targets)";
    // The sum of up to 2M values in [0, 1) is ~1e6 in f32: a serial sum (the golden) and a
    // tree/rfactor sum (host, GPUs) each carry a rounding error of a few 1e-5 relative. min and
    // max are exact under this tolerance too (they are values of the input).
    spec.tolerance = harness::Tolerance::abs_rel(1e-4, 1e-4);
    spec.tolerance_reason = "f32 summation order differs between serial and rfactor schedules";
    const halide_type_t f32{halide_type_float, 32, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        c.inputs = {{"input", f32, {width, height}, {harness::Recipe::Kind::UniformFloat, 0, 1, 0x5E0'0001}}};
        c.outputs = {{"stats", f32, {3}, {}}};
        return c;
    });
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_reduce_stats_spec);
