// Fake variants for the derivation tests (metadata_derivation_test.cpp, derivation_constraints_test.cpp):
// an input and an output buffer whose "pipeline" is a C function that answers bounds queries the way a
// class of real generators does.
#pragma once
#include <algorithm>
#include <vector>

#include "halide_types.h"
#include "harness/metadata_spec.h"

namespace harness::test_fakes {

inline halide_buffer_t *buf(void **args, int i) {
    return static_cast<halide_buffer_t *>(args[i]);
}
inline bool querying(void **args, int i) {
    return buf(args, i)->host == nullptr;
}

// Two arguments, input 0 and output 1, both 2-D or 3-D; no estimates unless given.
struct Fake {
    std::vector<halide_filter_argument_t> args;
    halide_filter_metadata_t md{};
    Variant v;
    Fake(const char *fn, int (*call)(void **), int dims, const int64_t *const *in_est = nullptr,
         const int64_t *const *out_est = nullptr, halide_type_t t = kU8) {
        args.push_back({"in", halide_argument_kind_input_buffer, dims, t, nullptr, nullptr, nullptr, nullptr, in_est});
        args.push_back(
            {"out", halide_argument_kind_output_buffer, dims, t, nullptr, nullptr, nullptr, nullptr, out_est});
        md = {halide_filter_metadata_t::VERSION, static_cast<int32_t>(args.size()), args.data(), "x86-64-linux", fn};
        v.function_name = fn;
        v.pipeline = "fake";
        v.profile = "cpu";
        v.argv_call = call;
        v.metadata = &md;
    }
};

inline DerivationInput input_of(const std::vector<const Variant *> &vs) {
    DerivationInput in;
    in.cpu = vs.at(0);
    in.variants = vs;
    return in;
}

inline PipelineSpec derive(const std::vector<const Variant *> &vs) {
    return derive_spec({"fake", "", "", ""}, input_of(vs));
}

// repeat_edge(in): reads only within the input's own bounds, whatever they are.
inline int self_bounded(void **a) {
    if (querying(a, 0)) {
        // The query leaves a region the clamp keeps inside the given bounds: its own.
        for (int d = 0; d < buf(a, 0)->dimensions; d++)
            buf(a, 0)->dim[d].extent = std::max(1, buf(a, 0)->dim[d].extent);
    }
    return 0;
}

}  // namespace harness::test_fakes
