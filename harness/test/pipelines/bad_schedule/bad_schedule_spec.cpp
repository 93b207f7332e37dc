// bad_schedule: spec of the test-only pipeline (see bad_schedule_generator.cpp). Its goldens are
// never committed: the unit tests bless into a temporary directory.
#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    return {inputs.at(0)};  // (2 * v) / 2 == v for every u8 v
}

harness::PipelineSpec make_bad_schedule_spec() {
    harness::PipelineSpec spec;
    spec.name = "bad_schedule";
    spec.summary = "test-only: identity through u16 whose gpu schedule cannot compile";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer identity";
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.name = "small";
    c.inputs = {{"input", u8, {64, 48}, {harness::Recipe::Kind::UniformInt, 0, 255, 0xBAD}}};
    c.outputs = {{"output", u8, {64, 48}, {}}};
    spec.cases.push_back(c);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_bad_schedule_spec);
