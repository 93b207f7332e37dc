// Unit tests of the embedded target profiles (base/profile.h).
#include "base/profile.h"

#include <gtest/gtest.h>

#include "error_of.h"
#include "base/error.h"

namespace harness {
namespace {

std::string profile_error(const std::string &json) {
    return error_of([&] { parse_profiles(json, "x86-64-linux"); });
}

TEST(Profiles, EmbeddedProfilesAreValidAndOrdered) {
    const auto &list = profiles();
    ASSERT_GE(list.size(), 5u);
    EXPECT_EQ(list[0].name, "cpu");  // file order, not alphabetical
    for (const char *name : {"cpu", "host", "opencl-mali", "opencl", "cuda", "vulkan", "vulkan-mali"})
        EXPECT_EQ(find_profile(name).name, name);
    EXPECT_EQ(find_profile("opencl-mali").runtime, "opencl");
    EXPECT_EQ(find_profile("cuda").runtime, "cuda");
    EXPECT_EQ(find_profile("vulkan").runtime, "vulkan");
    EXPECT_EQ(find_profile("vulkan-mali").schedule, "mali");
}

TEST(Profiles, VulkanTargetsNameTheFeaturesThePipelinesNeed) {
    // 8- and 16-bit storage buffers (u8/u16 images) and a Vulkan version, on every platform.
    for (const char *name : {"vulkan", "vulkan-mali"}) {
        const Profile &p = find_profile(name);
        for (const char *platform : {"x86-64-linux", "arm-64-linux", "arm-64-android"}) {
            const std::string t = p.targets.value(platform, "");
            EXPECT_EQ(t.rfind(std::string(platform) + "-vulkan", 0), 0u) << name << " " << platform << ": " << t;
            for (const char *f : {"-vk_int8", "-vk_int16", "-vk_v13"})
                EXPECT_NE(t.find(f), std::string::npos) << t;
        }
    }
}

TEST(Profiles, UnknownProfileListsKnownOnes) {
    try {
        find_profile("metal");
        FAIL() << "no error";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("opencl-mali"), std::string::npos);
    }
}

TEST(Profiles, BadEntriesNameTheEntryAndField) {
    EXPECT_NE(profile_error("{not json").find("not valid JSON"), std::string::npos);
    EXPECT_NE(profile_error("{}").find("\"profiles\""), std::string::npos);
    const std::string no_schedule = R"({"profiles": {"fast": {"description": "d", "runtime": "none", "targets": {}}}})";
    EXPECT_NE(profile_error(no_schedule).find("profile 'fast': missing or empty field 'schedule'"), std::string::npos);
    const std::string bad_runtime =
        R"({"profiles": {"x": {"description": "d", "schedule": "s", "runtime": "metal", "targets": {}}}})";
    EXPECT_NE(profile_error(bad_runtime).find("field 'runtime' is 'metal'"), std::string::npos);
    const std::string bad_targets =
        R"({"profiles": {"x": {"description": "d", "schedule": "s", "runtime": "none", "targets": 3}}})";
    EXPECT_NE(profile_error(bad_targets).find("'targets'"), std::string::npos);
    // deep nesting is refused before parsing (copying it overflowed the stack)
    const std::string deep =
        "{\"profiles\": {\"x\": {\"targets\": {\"y\": " + std::string(200000, '[') + std::string(200000, ']') + "}}}}";
    EXPECT_NE(profile_error(deep).find("profiles.json: line 1, column 98: arrays and objects nested deeper than 64"),
              std::string::npos)
        << profile_error(deep);
}

TEST(Profiles, IdentReplacesDashes) {
    EXPECT_EQ(profile_ident("opencl-mali"), "opencl_mali");
}

}  // namespace
}  // namespace harness
