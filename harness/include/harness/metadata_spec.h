// Specs made from a compiled generator's own metadata (halide_filter_metadata_t), as Halide's RunGen
// does, for pipelines added without a C++ spec: no spec at all, or a declarative JSON spec
// (json_spec.h) that states some of it. aot_harness_add_pipeline() registers one source per such
// pipeline; the registry turns it into a PipelineSpec the first time it is asked.
//
// Cases (unless the JSON spec lists its own): small, odd and estimate, proposed from the estimates of
// every dimension (metadata_cases.h) and settled by the bounds queries of every variant
// (shape_query.h): each input at the region the pipeline reads (any min), the generator's stated
// bounds and strides honoured, outputs as large as every schedule needs. Identical cases are kept
// once; a case that cannot be settled is dropped (the summary says why), and a pipeline without any
// gets one case "default" whose runs are ERROR with the reason. Scalars without an estimate, default
// or range are guessed; the first guesses whose small case gives a meaningful (not degenerate) cpu
// output are kept, and the cases' notes say so.
// No reference: the cpu variant's output is the golden (bless says so in the manifest).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "harness/derived_spec_registrar.h"
#include "harness/registry.h"
#include "harness/spec.h"

namespace harness {

struct DerivedSpecSource {
    std::string pipeline;
    std::string json_text;  // "" = no spec
    std::string json_path;  // for messages
    std::string generator_sha256;
};

// Every source registered by HARNESS_REGISTER_DERIVED_SPEC.
std::vector<DerivedSpecSource> &derived_spec_sources();

// What a derivation reads: the pipeline's variants, and a way to try a case on the cpu variant.
struct DerivationInput {
    const Variant *cpu = nullptr;           // nullptr: none was built
    const Variant *probe = nullptr;         // the estimates probe (<pipeline>__estimates), if built
    std::vector<const Variant *> variants;  // every variant that compiled, the cpu one first
    // Runs `c` on the cpu variant (in a child process) and returns "" for a meaningful output, else
    // why not (degenerate_outputs(), or the error); empty: no tries, the first guesses stay.
    std::function<std::string(const CaseSpec &c)> trial;
};

// The spec of `src`. Throws Error naming the JSON file, the key and the fix when a JSON spec is
// malformed or contradicts the generator; anything else becomes a case whose runs are ERROR.
PipelineSpec derive_spec(const DerivedSpecSource &src, const DerivationInput &in);

}  // namespace harness
