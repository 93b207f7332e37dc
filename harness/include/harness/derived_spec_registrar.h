// What a generated <pipeline>.derived_spec.cpp needs to register its pipeline's spec source, and nothing
// more: one compile per pipeline of an outside project, so no standard or harness header (with spec.h and
// registry.h, each took 1.5-3.5 s at -O3; this, well under 0.1 s). metadata_spec.h turns the sources into
// specs.
#pragma once

namespace harness {

class DerivedSpecRegistrar {
public:
    DerivedSpecRegistrar(const char *pipeline, const char *json_text, const char *json_path,
                         const char *generator_sha256);
};

}  // namespace harness

#define HARNESS_REGISTER_DERIVED_SPEC(ident, pipeline, json_text, json_path, sha) \
    static const ::harness::DerivedSpecRegistrar harness_derived_spec_##ident(pipeline, json_text, json_path, sha)
