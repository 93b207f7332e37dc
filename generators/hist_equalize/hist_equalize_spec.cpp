// hist_equalize: cases, inputs, tolerance and the plain C++ reference.
#include <cstdint>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const size_t n = in.elements();
    const uint8_t *src = in.data<uint8_t>();
    Array hist({halide_type_int, 32, 1}, {256});
    int32_t *h = hist.data<int32_t>();
    for (int i = 0; i < 256; i++)
        h[i] = 0;
    for (size_t k = 0; k < n; k++)
        h[src[k]]++;
    uint8_t lut[256];
    int64_t running = 0;
    const int64_t total = static_cast<int64_t>(n);
    for (int i = 0; i < 256; i++) {
        running += h[i];
        lut[i] = static_cast<uint8_t>((running * 255 + total / 2) / total);
    }
    Array out(in.type, in.shape);
    for (size_t k = 0; k < n; k++)
        out.data<uint8_t>()[k] = lut[src[k]];
    return {hist, out};
}

harness::PipelineSpec make_hist_equalize_spec() {
    harness::PipelineSpec spec;
    spec.name = "hist_equalize";
    spec.summary = "histogram (atomics on GPU) + cumulative LUT equalisation of a u8 image";
    // Counting and integer division: a lost or doubled atomic update changes a bin by >= 1.
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer counts and integer LUT: any difference is a lost or duplicated update";
    const halide_type_t u8{halide_type_uint, 8, 1}, i32{halide_type_int, 32, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        // A narrow range (40..199) leaves empty bins at both ends and concentrates contention.
        c.inputs = {{"input", u8, shape, {harness::Recipe::Kind::UniformInt, 40, 199, 0x4157'0001}}};
        c.outputs = {{"histogram", i32, {256}, {}}, {"output", u8, shape, {}}};
        return c;
    });
    // 4096^2 (16.8 Mpixels): past the 8.4 Mpixels where cdf * 255 overflowed i32 in the LUT (the
    // pipeline computes it in 64 bits now). Nightly: its golden is a sha256 in the manifest.
    CaseSpec huge = spec.make_case(4096, 4096);
    huge.name = "huge";
    huge.nightly = true;
    spec.cases.push_back(huge);
    // All-max: one bin holds every pixel, the LUT maps 255 to 255 and everything else to 0.
    CaseSpec all_max;
    all_max.name = "all_max";
    all_max.inputs = {{"input", u8, {64, 48}, {harness::Recipe::Kind::Constant, 255, 255, 0}}};
    all_max.outputs = {{"histogram", i32, {256}, {}}, {"output", u8, {64, 48}, {}}};
    spec.cases.push_back(all_max);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_hist_equalize_spec);
