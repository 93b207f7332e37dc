// harness::Registry: the compiled variants (from Halide's REGISTRATION metadata, one per
// pipeline x profile, function name `<pipeline>__<profile ident>`) paired with their specs.
#pragma once
#include <functional>
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
    // The variant's library did not link and was replaced by a stub (compile_error says why).
    bool link_error = false;
};

// "" for a variant that compiled; otherwise one line for an ERROR record: "variant <function> failed
// to compile (the build kept a stub): <generator message, whitespace collapsed>".
std::string compile_error_message(const Variant &v);

// A case tried on the cpu variant while a spec is derived (metadata_spec.h): "" for a meaningful
// output, else why not. Set by the layer that can run pipelines (set_case_trial).
using CaseTrial = std::function<std::string(const Variant &cpu, const CaseSpec &c)>;

class Registry {
public:
    static Registry &instance();

    // How derived specs try guessed scalars (none: they keep their first guesses).
    void set_case_trial(CaseTrial trial) { trial_ = std::move(trial); }

    // `compile_error`: see Variant::compile_error ("" for a variant that compiled).
    void add_variant(int (*argv_call)(void **), const halide_filter_metadata_t *metadata,
                     const std::string &compile_error = "");
    void add_spec(PipelineSpec spec);

    // Checks that every variant is named <pipeline>__<profile ident> with a known profile and has a
    // spec, and that every spec has a cpu variant, cases and a reference. Throws Error naming the
    // first problem.
    void validate() const;

    std::vector<std::string> pipelines() const;  // sorted
    // Throws Error listing known ones. A pipeline without a C++ spec gets its spec derived from its
    // variants' metadata the first time it is asked for (metadata_spec.h).
    const PipelineSpec &spec(const std::string &pipeline) const;
    // The sha256 of the generator the pipeline was built from, without deriving a spec (a derivation
    // runs every variant's bounds query). Throws as spec() does for an unknown pipeline.
    std::string generator_sha256(const std::string &pipeline) const;
    // Profiles built for `pipeline`, in profiles.json order.
    std::vector<std::string> profiles_of(const std::string &pipeline) const;
    // The variant, or nullptr if this pipeline was not built for that profile.
    const Variant *find(const std::string &pipeline, const std::string &profile) const;
    // The estimates probe of a derived pipeline (aot_harness_add_pipeline), or nullptr.
    const Variant *estimates_probe(const std::string &pipeline) const;
    // The profiled twin of a CPU variant (<pipeline>__<profile ident>__profiled: the same generator with Halide's
    // `profile` feature, built only with AOT_HARNESS_FUNC_PROFILE), or nullptr. Not a variant of the matrix.
    const Variant *profiled(const std::string &pipeline, const std::string &profile) const;

    // A variant whose library was replaced by a stub at link time (harness_link_guard.sh): its runs
    // report `message`. Called from the stub's static initialiser, before or after add_variant.
    void add_build_error(const std::string &function_name, const std::string &message);

private:
    std::vector<Variant> variants_, probes_, profiled_;
    std::map<std::string, std::string> build_errors_;  // function name -> message
    mutable std::map<std::string, PipelineSpec> specs_;
    CaseTrial trial_;
};

}  // namespace harness
