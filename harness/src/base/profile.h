// Target profiles: generators/profiles.json, embedded at build time and validated at start-up.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

struct Profile {
    std::string name;
    std::string description;
    std::string schedule;
    std::string runtime;     // none | opencl | cuda | vulkan
    std::string target;      // Halide target for the platform this harness was built for ("" = not built)
    nlohmann::json targets;  // every platform's target
    std::string device;      // a device personality its runs emulate by default ("" = none; run --device overrides)
    bool is_gpu() const { return runtime != "none"; }
};

// Parses and validates a profiles.json text. Throws Error naming the entry and the field.
std::vector<Profile> parse_profiles(const std::string &json_text, const std::string &platform);

// The profiles of the embedded profiles.json for the build platform (validated once).
const std::vector<Profile> &profiles();
// The profile called `name`; throws Error listing the known profiles.
const Profile &find_profile(const std::string &name);
// The platform key this harness was built for, e.g. "x86-64-linux".
const std::string &build_platform();

// C identifier of a profile name (opencl-mali -> opencl_mali).
std::string profile_ident(const std::string &profile);

}  // namespace harness
