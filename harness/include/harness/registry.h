// harness::Registry: the compiled variants (from Halide's REGISTRATION metadata, one per
// pipeline x profile, function name `<pipeline>__<profile ident>`) paired with their specs.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "HalideRuntime.h"
#include "harness/spec.h"

namespace harness {

struct Variant {
    std::string pipeline;
    std::string profile;
    std::string function_name;
    int (*argv_call)(void **) = nullptr;
    const halide_filter_metadata_t *metadata = nullptr;
    // Non-empty when the generator failed for this profile at build time (harness_run_generator.sh
    // registered a stub): the generator's message. Every run of such a variant is an ERROR.
    std::string compile_error;
};

// "" for a variant that compiled; otherwise one line for an ERROR record: "variant <function> failed
// to compile (the build kept a stub): <generator message, whitespace collapsed>".
std::string compile_error_message(const Variant &v);

class Registry {
public:
    static Registry &instance();

    // `compile_error`: see Variant::compile_error ("" for a variant that compiled).
    void add_variant(int (*argv_call)(void **), const halide_filter_metadata_t *metadata,
                     const std::string &compile_error = "");
    void add_spec(PipelineSpec spec);

    // Checks that every variant is named <pipeline>__<profile ident> with a known profile and has a
    // spec, and that every spec has a cpu variant, cases and a reference. Throws Error naming the
    // first problem.
    void validate() const;

    std::vector<std::string> pipelines() const;                   // sorted
    const PipelineSpec &spec(const std::string &pipeline) const;  // throws Error listing known ones
    // Profiles built for `pipeline`, in profiles.json order.
    std::vector<std::string> profiles_of(const std::string &pipeline) const;
    // The variant, or nullptr if this pipeline was not built for that profile.
    const Variant *find(const std::string &pipeline, const std::string &profile) const;

private:
    // Makes the specs of pipelines added without a C++ spec (metadata_spec.h), once, when the
    // registry is first asked for specs (every variant is registered by then).
    void resolve_derived_specs() const;

    std::vector<Variant> variants_;
    mutable std::map<std::string, PipelineSpec> specs_;
    mutable size_t derived_resolved_ = 0;
};

}  // namespace harness
