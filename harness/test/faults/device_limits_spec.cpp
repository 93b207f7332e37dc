// Specs of the planted device-limit pipelines (device_limits_generator.cpp): u8 images, out(x, y) = the
// mean (rounded down) of in(x, y) and in(x + reach, y) clamped to the image.
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

harness::PipelineSpec limits_spec(const char *name, const char *summary, int reach) {
    harness::PipelineSpec spec;
    spec.name = name;
    spec.summary = summary;
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "the mean of two integers below 256 is exact in float";
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.name = "small";
    c.inputs = {{"input", u8, {96, 64}, {harness::Recipe::Kind::UniformInt, 0, 255, 17}}};
    c.outputs = {{"output", u8, {96, 64}, {}}};
    spec.cases = {c};
    spec.reference = [reach](const CaseSpec &, const std::vector<Array> &inputs) {
        const Array &in = inputs.at(0);
        Array out = in;
        const int w = 96, h = 64;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                const int a = in.bytes[y * w + x], b = in.bytes[y * w + std::min(x + reach, w - 1)];
                out.bytes[y * w + x] = static_cast<uint8_t>((a + b) / 2);
            }
        }
        return std::vector<Array>{out};
    };
    return spec;
}

harness::PipelineSpec make_fault_big_work_group() {
    return limits_spec("fault_big_work_group", "a 32x32 work-group (1024 work-items; Bifrost Malis allow 384)", 0);
}
harness::PipelineSpec make_fault_fp64() {
    return limits_spec("fault_fp64", "a kernel computing in double (no Mali has fp64)", 0);
}
harness::PipelineSpec make_fault_big_local_mem() {
    return limits_spec("fault_big_local_mem", "48 KiB of local memory per work-group (every Mali has 32 KiB)", 752);
}

}  // namespace

HARNESS_REGISTER_SPEC(make_fault_big_work_group);
HARNESS_REGISTER_SPEC(make_fault_big_local_mem);
HARNESS_REGISTER_SPEC(make_fault_fp64);
