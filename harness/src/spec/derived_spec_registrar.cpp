// The registrations of the generated <pipeline>.derived_spec.cpp sources (derived_spec_registrar.h), kept
// until the registry derives their specs (metadata_spec.h).
#include "harness/derived_spec_registrar.h"

#include "harness/metadata_spec.h"

namespace harness {

std::vector<DerivedSpecSource> &derived_spec_sources() {
    static std::vector<DerivedSpecSource> sources;
    return sources;
}

DerivedSpecRegistrar::DerivedSpecRegistrar(const char *pipeline, const char *json_text, const char *json_path,
                                           const char *generator_sha256) {
    derived_spec_sources().push_back({pipeline, json_text, json_path, generator_sha256});
}

}  // namespace harness
