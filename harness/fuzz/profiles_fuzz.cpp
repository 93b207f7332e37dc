// Fuzz target: parse_profiles (harness/src/base/profile.cpp), the generators/profiles.json reader.
// Expected rejections: harness::Error. Invariants of accepted profiles: unique names, non-empty
// description and schedule, a known runtime, and `target` = targets[platform] (or "" without one).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "base/error.h"
#include "base/profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    for (const char *platform : {"x86-64-linux", "arm-64-android"}) {
        std::vector<harness::Profile> profiles;
        try {
            profiles = harness::parse_profiles(text, platform);
        } catch (const harness::Error &) {
            continue;  // e.g. a target that is not a string, for this platform only
        }
        std::set<std::string> names;
        for (const auto &p : profiles) {
            FUZZ_CHECK(names.insert(p.name).second, "profile listed twice: " + p.name);
            FUZZ_CHECK(!p.description.empty() && !p.schedule.empty(), p.name);
            FUZZ_CHECK(p.runtime == "none" || p.runtime == "opencl" || p.runtime == "cuda" || p.runtime == "vulkan",
                       p.runtime);
            FUZZ_CHECK(p.is_gpu() == (p.runtime != "none"), p.name);
            FUZZ_CHECK(p.targets.is_object(), p.name);
            const std::string expected = p.targets.contains(platform) ? p.targets[platform].get<std::string>() : "";
            FUZZ_CHECK(p.target == expected, p.name);
            FUZZ_CHECK(harness::profile_ident(p.name).find('-') == std::string::npos, p.name);
        }
    }
    return 0;
}
