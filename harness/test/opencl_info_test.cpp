// Unit tests of missing_extensions_reason (devices/runtime_availability.h).
#include "devices/runtime_availability.h"

#include <gtest/gtest.h>

namespace harness {
namespace {

TEST(MissingExtensions, NothingRequiredIsNeverMissing) {
    EXPECT_EQ(missing_extensions_reason({}, {{"device", "d"}, {"extensions", ""}}), "");
}

TEST(MissingExtensions, PresentExtensionsPass) {
    const nlohmann::json dev{{"device", "gpu0"}, {"extensions", "cl_khr_fp64 cl_khr_fp16  cl_khr_int64_base_atomics "}};
    EXPECT_EQ(missing_extensions_reason({"cl_khr_fp16", "cl_khr_fp64"}, dev), "");
}

TEST(MissingExtensions, NamesTheDeviceAndEveryMissingExtension) {
    const nlohmann::json dev{{"device", "pthread-cpu"}, {"extensions", "cl_khr_fp64 cl_khr_fp16_extra"}};
    const std::string why = missing_extensions_reason({"cl_khr_fp16", "cl_khr_fp64", "cl_khr_subgroups"}, dev);
    EXPECT_NE(why.find("'pthread-cpu' lacks cl_khr_fp16, cl_khr_subgroups"), std::string::npos) << why;
}

}  // namespace
}  // namespace harness
