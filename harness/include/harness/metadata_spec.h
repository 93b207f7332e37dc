// Specs made from a compiled generator's own metadata (halide_filter_metadata_t), as Halide's RunGen
// does, for pipelines added without a C++ spec: no spec at all, or a declarative JSON spec
// (json_spec.h) that states some of it. aot_harness_add_pipeline() registers one source per such
// pipeline; the registry turns it into a PipelineSpec the first time it is asked.
//
// Cases (unless the JSON spec lists its own): per output, dims 0 and 1 at most 64 x 48 ("small") and
// at most 67 x 37 ("odd"), further dims at their estimate (else 3 for dim 2 and 2 beyond), plus
// "estimate" (every output at its estimates, nightly above 2^21 elements) when the outputs have
// estimates for every dimension. Identical cases are kept once. Each input's shape is what a bounds
// query of the cpu variant asks for (an input behind a boundary condition on its own bounds, which
// fits any size: the first output's extent, else its estimate); a case whose bounds query fails, or
// that would need an input from below 0, is dropped (the spec's summary says why).
// Scalars: the estimate, else the default, else the middle of min..max, else 0.
// Input fills (seeded splitmix64, seed 1 + the input's position): floats uniform [0, 1), 8-bit
// integers their whole range, 16-bit [0, 4095], wider [0, 1000], bool [0, 1].
// No reference: the cpu variant's output is the golden (bless says so in the manifest).
#pragma once
#include <string>
#include <vector>

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

class DerivedSpecRegistrar {
public:
    DerivedSpecRegistrar(const char *pipeline, const char *json_text, const char *json_path,
                         const char *generator_sha256);
};

// The spec of `src`, from the cpu variant's metadata (nullptr: none was built). Throws Error naming
// the JSON file, the key and the fix when the spec is malformed or contradicts the generator.
PipelineSpec derive_spec(const DerivedSpecSource &src, const Variant *cpu);

// The default recipe of an input of type `t` (see above).
Recipe default_recipe(halide_type_t t, uint64_t seed);

}  // namespace harness

#define HARNESS_REGISTER_DERIVED_SPEC(ident, pipeline, json_text, json_path, sha) \
    static const ::harness::DerivedSpecRegistrar harness_derived_spec_##ident(pipeline, json_text, json_path, sha)
