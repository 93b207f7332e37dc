// The target profiles (profile.h): parsing and validating the embedded generators/profiles.json.
#include "base/profile.h"

#include "base/error.h"
#include "base/json_reader.h"

// Generated at configure time from generators/profiles.json (see harness/CMakeLists.txt).
extern const char *const harness_embedded_profiles_json;
extern const char *const harness_embedded_platform;

namespace harness {

namespace {

std::string required_string(const nlohmann::ordered_json &entry, const std::string &name, const char *field) {
    if (!entry.contains(field) || !entry[field].is_string() || entry[field].get<std::string>().empty()) {
        throw Error("profiles.json: profile '" + name + "': missing or empty field '" + field + "'");
    }
    return entry[field].get<std::string>();
}

}  // namespace

std::vector<Profile> parse_profiles(const std::string &json_text, const std::string &platform) {
    // ordered: profiles keep the file's order
    const nlohmann::ordered_json doc = parse_ordered_json(json_text, "profiles.json", "fix generators/profiles.json");
    if (!doc.is_object() || !doc.contains("profiles") || !doc["profiles"].is_object()) {
        throw Error("profiles.json has no \"profiles\" object; fix generators/profiles.json");
    }
    std::vector<Profile> out;
    for (const auto &[name, e] : doc["profiles"].items()) {
        if (!e.is_object()) throw Error("profiles.json: profile '" + name + "' must be an object");
        Profile p;
        p.name = name;
        p.description = required_string(e, name, "description");
        p.schedule = required_string(e, name, "schedule");
        p.runtime = required_string(e, name, "runtime");
        if (p.runtime != "none" && p.runtime != "opencl" && p.runtime != "cuda" && p.runtime != "vulkan") {
            throw Error("profiles.json: profile '" + name + "': field 'runtime' is '" + p.runtime +
                        "'; use none, opencl, cuda or vulkan");
        }
        if (!e.contains("targets") || !e["targets"].is_object()) {
            throw Error("profiles.json: profile '" + name + "': missing field 'targets' (platform -> Halide target)");
        }
        p.targets = unordered(e["targets"]);
        if (e.contains("device")) {
            if (!e["device"].is_string() || e["device"].get<std::string>().empty() || p.runtime == "none" ||
                p.runtime == "cuda") {
                throw Error("profiles.json: profile '" + name +
                            "': field 'device' must name a device personality, on an opencl or vulkan profile");
            }
            p.device = e["device"].get<std::string>();
        }
        if (p.targets.contains(platform)) {
            if (!p.targets[platform].is_string()) {
                throw Error("profiles.json: profile '" + name + "': field 'targets." + platform + "' must be a string");
            }
            p.target = p.targets[platform].get<std::string>();
        }
        out.push_back(p);
    }
    return out;
}

const std::string &build_platform() {
    static const std::string platform = harness_embedded_platform;
    return platform;
}

const std::vector<Profile> &profiles() {
    static const std::vector<Profile> list = parse_profiles(harness_embedded_profiles_json, build_platform());
    return list;
}

const Profile &find_profile(const std::string &name) {
    std::string known;
    for (const auto &p : profiles()) {
        if (p.name == name) return p;
        known += (known.empty() ? "" : ", ") + p.name;
    }
    throw Error("unknown profile '" + name + "'; known profiles: " + known);
}

std::string profile_ident(const std::string &profile) {
    std::string s = profile;
    for (char &c : s) {
        if (c == '-') c = '_';
    }
    return s;
}

}  // namespace harness
