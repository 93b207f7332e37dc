// threshold's C++ spec: cases, the tolerance with its reason, and a plain C++ reference written
// independently of the Halide algorithm (bless checks the cpu result against it).
#include <string>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &c, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const double level = c.scalars.at("level");
    Array out(in.type, in.shape);
    for (size_t i = 0; i < in.elements(); i++)
        out.data<uint8_t>()[i] = in.data<uint8_t>()[i] > level ? 255 : 0;
    return {out};
}

CaseSpec make_case(int width, int height) {
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.inputs = {{"input", u8, {width, height}, {harness::Recipe::Kind::UniformInt, 0, 255, 7}}};
    c.scalars = {{"level", 100}};
    c.outputs = {{"output", u8, {width, height}, {}}};
    return c;
}

harness::PipelineSpec make_threshold_spec() {
    harness::PipelineSpec spec;
    spec.name = "threshold";
    spec.summary = "u8 binary threshold";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "a comparison and a select: any difference is a bug";
    harness::add_image_cases(spec, make_case);  // small 64x48, odd 257x131, large 1920x1080 (nightly)
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_threshold_spec);
