// int_edges: cases, inputs, tolerance and the plain C++ reference (explicit saturation, explicit
// modulo-2^16 wrap and floor shifts: no reliance on implementation-defined conversions).
#include <algorithm>
#include <cstdint>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;
using harness::floor_shift;

int16_t wrap16(int v) {
    const int u = ((v % 65536) + 65536) % 65536;
    return static_cast<int16_t>(u < 32768 ? u : u - 65536);
}

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &a = inputs.at(0), &b = inputs.at(1), &s = inputs.at(2);
    const int w = a.shape.at(0), h = a.shape.at(1);
    Array add(a.type, a.shape), sub(a.type, a.shape), sh(s.type, s.shape);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const size_t i = static_cast<size_t>(y) * w + x;
            const int av = a.data<uint16_t>()[i], bv = b.data<uint16_t>()[i], sv = s.data<int16_t>()[i];
            add.data<uint16_t>()[i] = static_cast<uint16_t>(std::min(av + bv, 65535));
            sub.data<uint16_t>()[i] = static_cast<uint16_t>(std::max(av - bv, 0));
            const int right = floor_shift(sv, x % 16);  // always fits i16
            const int left = wrap16(sv * 8);            // s << 3, wrapped
            sh.data<int16_t>()[i] = wrap16(right + left);
        }
    }
    return {add, sub, sh};
}

harness::PipelineSpec make_int_edges_spec() {
    harness::PipelineSpec spec;
    spec.name = "int_edges";
    spec.summary = "u16 saturating add/sub, i16 arithmetic shifts by per-lane amounts with wrap-around";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer overflow semantics are defined exactly: any difference is a backend bug";
    const halide_type_t u16{halide_type_uint, 16, 1}, i16{halide_type_int, 16, 1};
    harness::add_image_cases(spec, [=](int width, int height) {
        CaseSpec c;
        const std::vector<int> shape{width, height};
        // Full ranges: about half of the sums and differences saturate; shifts see both signs.
        c.inputs = {{"a", u16, shape, {harness::Recipe::Kind::UniformInt, 0, 65535, 0x1E0'0001}},
                    {"b", u16, shape, {harness::Recipe::Kind::UniformInt, 0, 65535, 0x1E0'0002}},
                    {"s", i16, shape, {harness::Recipe::Kind::UniformInt, -32768, 32767, 0x1E0'0003}}};
        c.outputs = {{"add_sat", u16, shape, {}}, {"sub_sat", u16, shape, {}}, {"shifted", i16, shape, {}}};
        return c;
    });
    // Extremes only: 0 / 65535 and -32768 / 32767 in checkerboards of different cell sizes, so
    // every combination of limits meets (max + max, 0 - max, shifts of the most negative value).
    CaseSpec ext;
    ext.name = "extremes";
    const std::vector<int> shape{64, 48};
    using K = harness::Recipe::Kind;
    ext.inputs = {{"a", u16, shape, {K::Checkerboard, 0, 65535, 0, 1}},
                  {"b", u16, shape, {K::Checkerboard, 65535, 0, 0, 2}},
                  {"s", i16, shape, {K::Checkerboard, -32768, 32767, 0, 3}}};
    ext.outputs = {{"add_sat", u16, shape, {}}, {"sub_sat", u16, shape, {}}, {"shifted", i16, shape, {}}};
    spec.cases.push_back(ext);
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_int_edges_spec);
