// The Registry (registry.h): variants from Halide's registration calls, specs, their pairing and validation.
#include "harness/registry.h"

#include <algorithm>
#include <string>

#include "base/error.h"
#include "harness/metadata_spec.h"
#include "base/profile.h"

namespace harness {

std::string compile_error_message(const Variant &v) {
    if (v.compile_error.empty()) return "";
    std::string msg;
    bool space = false;
    for (const char ch : v.compile_error) {
        if (ch == '\n' || ch == '\r' || ch == '\t' || ch == ' ') {
            space = !msg.empty();
            continue;
        }
        if (space) msg += ' ';
        space = false;
        msg += ch;
    }
    return "variant " + v.function_name + " failed to compile (the build kept a stub): " + msg;
}

Registry &Registry::instance() {
    static Registry registry;
    return registry;
}

void Registry::add_variant(int (*argv_call)(void **), const halide_filter_metadata_t *metadata,
                           const std::string &compile_error) {
    Variant v;
    v.compile_error = compile_error;
    v.argv_call = argv_call;
    v.metadata = metadata;
    v.function_name = metadata->name;
    const size_t sep = v.function_name.rfind("__");
    if (sep != std::string::npos) {
        v.pipeline = v.function_name.substr(0, sep);
        v.profile = v.function_name.substr(sep + 2);  // an identifier until validate() maps it
    }
    variants_.push_back(v);
}

void Registry::add_spec(PipelineSpec spec) {
    const std::string name = spec.name;
    specs_[name] = std::move(spec);
}

void Registry::resolve_derived_specs() const {
    const auto &sources = derived_spec_sources();
    for (; derived_resolved_ < sources.size(); derived_resolved_++) {
        const DerivedSpecSource &src = sources[derived_resolved_];
        specs_[src.pipeline] = derive_spec(src, find(src.pipeline, "cpu"));
    }
}

void Registry::validate() const {
    resolve_derived_specs();
    for (const auto &v : variants_) {
        if (v.pipeline.empty()) {
            throw Error("compiled variant '" + v.function_name +
                        "' is not named <pipeline>__<profile>; build it with harness_add_pipeline()");
        }
        bool known_profile = false;
        for (const auto &p : profiles())
            known_profile |= profile_ident(p.name) == v.profile;
        if (!known_profile) {
            throw Error("compiled variant '" + v.function_name +
                        "' names no profile of profiles.json; rebuild the harness");
        }
        if (!specs_.count(v.pipeline)) {
            throw Error("compiled pipeline '" + v.pipeline + "' has no spec; add generators/" + v.pipeline + "/" +
                        v.pipeline + "_spec.cpp with HARNESS_REGISTER_SPEC");
        }
    }
    for (const auto &[name, spec] : specs_) {
        if (!find(name, "cpu")) {
            throw Error("pipeline '" + name + "' has a spec but no cpu variant; list it with harness_add_pipeline()");
        }
        if (spec.cases.empty() || (!spec.reference && spec.spec_source.empty())) {
            throw Error("spec of pipeline '" + name + "' needs at least one case and a reference");
        }
    }
}

std::vector<std::string> Registry::pipelines() const {
    resolve_derived_specs();
    std::vector<std::string> names;
    for (const auto &[name, spec] : specs_)
        names.push_back(name);
    return names;
}

const PipelineSpec &Registry::spec(const std::string &pipeline) const {
    resolve_derived_specs();
    auto it = specs_.find(pipeline);
    if (it != specs_.end()) return it->second;
    std::string known;
    for (const auto &n : pipelines())
        known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown pipeline '" + pipeline + "'; known pipelines: " + known);
}

std::vector<std::string> Registry::profiles_of(const std::string &pipeline) const {
    std::vector<std::string> out;
    for (const auto &p : profiles()) {
        if (find(pipeline, p.name)) out.push_back(p.name);
    }
    return out;
}

const Variant *Registry::find(const std::string &pipeline, const std::string &profile) const {
    const std::string ident = profile_ident(profile);
    for (const auto &v : variants_) {
        if (v.pipeline == pipeline && v.profile == ident) return &v;
    }
    return nullptr;
}

// Declared in spec.h (HARNESS_REGISTER_SPEC); defined here so that spec.cpp needs no registry.
SpecRegistrar::SpecRegistrar(PipelineSpec (*make)(), const char *generator_sha256) {
    PipelineSpec spec = make();
    spec.generator_sha256 = generator_sha256;
    Registry::instance().add_spec(std::move(spec));
}

}  // namespace harness

// Called by the static initialisers of Halide's generated *.registration.cpp files.
extern "C" void halide_register_argv_and_metadata(int (*filter_argv_call)(void **),
                                                  const struct halide_filter_metadata_t *filter_metadata,
                                                  const char *const *extra_key_value_pairs) {
    std::string compile_error;
    for (const char *const *kv = extra_key_value_pairs; kv && kv[0] && kv[1]; kv += 2) {
        if (std::string(kv[0]) == "harness_compile_error") compile_error = kv[1];
    }
    harness::Registry::instance().add_variant(filter_argv_call, filter_metadata, compile_error);
}
