// bitonic_sort: cases (rows of up to 256), inputs, tolerance and the plain C++ reference (std::sort).
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    Array out = inputs.at(0);
    const int w = out.shape.at(0), h = out.shape.at(1);
    for (int y = 0; y < h; y++) {
        int32_t *row = out.data<int32_t>() + static_cast<size_t>(y) * w;
        std::sort(row, row + w);
    }
    return {out};
}

harness::PipelineSpec make_bitonic_sort_spec() {
    harness::PipelineSpec spec;
    spec.name = "bitonic_sort";
    spec.summary = "per-row ascending bitonic sort of i32 rows (up to 256), workgroup memory on gpu";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "a sort is a permutation: any difference is a bug (lost barrier, wrong partner)";
    const halide_type_t i32{halide_type_int, 32, 1};
    struct Size {
        const char *name;
        int w, h;
        bool nightly;
    };
    // Values in [-1000, 1000]: duplicates in every row, negative and positive.
    for (const Size &z : {Size{"small", 64, 48, false}, Size{"odd", 201, 131, false}, Size{"large", 256, 4096, true}}) {
        CaseSpec c;
        c.name = z.name;
        c.nightly = z.nightly;
        c.inputs = {{"input", i32, {z.w, z.h}, {harness::Recipe::Kind::UniformInt, -1000, 1000, 0x5027'0001}}};
        c.outputs = {{"output", i32, {z.w, z.h}, {}}};
        spec.cases.push_back(c);
    }
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_bitonic_sort_spec);
