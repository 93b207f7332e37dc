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
    if (v.link_error) return v.compile_error;
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
    std::string name = v.function_name;
    static const std::string twin = "__profiled";  // a profiled twin (AotHarnessFuncProfile.cmake)
    const bool is_twin = name.size() > twin.size() && name.compare(name.size() - twin.size(), twin.size(), twin) == 0;
    if (is_twin) name.resize(name.size() - twin.size());
    const size_t sep = name.rfind("__");
    if (sep != std::string::npos) {
        v.pipeline = name.substr(0, sep);
        v.profile = name.substr(sep + 2);  // an identifier until validate() maps it
    }
    auto err = build_errors_.find(v.function_name);
    if (err != build_errors_.end()) v.compile_error = err->second, v.link_error = true;
    (is_twin ? profiled_ : v.profile == "estimates" ? probes_ : variants_).push_back(v);
}

const Variant *Registry::profiled(const std::string &pipeline, const std::string &profile) const {
    for (const auto &v : profiled_) {
        if (v.pipeline == pipeline && v.profile == profile_ident(profile)) return &v;
    }
    return nullptr;
}

void Registry::add_build_error(const std::string &function_name, const std::string &message) {
    build_errors_[function_name] = message;
    for (auto *list : {&variants_, &probes_, &profiled_}) {
        for (auto &v : *list) {
            if (v.function_name == function_name) v.compile_error = message, v.link_error = true;
        }
    }
}

void Registry::add_spec(PipelineSpec spec) {
    const std::string name = spec.name;
    specs_[name] = std::move(spec);
}

const Variant *Registry::estimates_probe(const std::string &pipeline) const {
    for (const auto &v : probes_) {
        if (v.pipeline == pipeline) return &v;
    }
    return nullptr;
}

void Registry::validate() const {
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
        bool derived = false;
        for (const auto &src : derived_spec_sources())
            derived |= src.pipeline == v.pipeline;
        if (!specs_.count(v.pipeline) && !derived) {
            throw Error("compiled pipeline '" + v.pipeline + "' has no spec; add generators/" + v.pipeline + "/" +
                        v.pipeline + "_spec.cpp with HARNESS_REGISTER_SPEC");
        }
    }
    for (const auto &[name, spec] : specs_) {
        if (!spec.spec_source.empty()) continue;  // derived (checked when made)
        if (!find(name, "cpu")) {
            throw Error("pipeline '" + name + "' has a spec but no cpu variant; list it with harness_add_pipeline()");
        }
        if (spec.cases.empty() || !spec.reference) {
            throw Error("spec of pipeline '" + name + "' needs at least one case and a reference");
        }
    }
}

std::vector<std::string> Registry::pipelines() const {
    std::vector<std::string> names;
    for (const auto &[name, spec] : specs_)
        names.push_back(name);
    for (const auto &src : derived_spec_sources())
        names.push_back(src.pipeline);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

const PipelineSpec &Registry::spec(const std::string &pipeline) const {
    auto it = specs_.find(pipeline);
    if (it != specs_.end()) return it->second;
    for (const auto &src : derived_spec_sources()) {
        if (src.pipeline != pipeline) continue;
        DerivationInput in;
        in.cpu = find(pipeline, "cpu");
        in.probe = estimates_probe(pipeline);
        if (in.cpu && in.cpu->compile_error.empty()) in.variants.push_back(in.cpu);
        for (const auto &p : profiles_of(pipeline)) {
            const Variant *v = find(pipeline, p);
            if (v != in.cpu && v->compile_error.empty()) in.variants.push_back(v);
        }
        if (trial_ && in.cpu) {
            const Variant *cpu = in.cpu;
            in.trial = [this, cpu](const CaseSpec &c) { return trial_(*cpu, c); };
        }
        return specs_[pipeline] = derive_spec(src, in);
    }
    std::string known;
    for (const auto &n : pipelines())
        known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown pipeline '" + pipeline + "'; known pipelines: " + known);
}

std::string Registry::generator_sha256(const std::string &pipeline) const {
    if (!specs_.count(pipeline)) {
        for (const auto &src : derived_spec_sources()) {
            if (src.pipeline == pipeline) return src.generator_sha256;
        }
    }
    return spec(pipeline).generator_sha256;
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

// Called by the stubs harness_link_guard.sh links in place of a pipeline whose variants do not link.
extern "C" void harness_register_build_error(const char *function_name, const char *message) {
    harness::Registry::instance().add_build_error(function_name, message);
}
