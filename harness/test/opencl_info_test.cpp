// Unit tests of missing_extensions_reason (devices/runtime_availability.h).
#include "devices/runtime_availability.h"

#include <gtest/gtest.h>

#include <cstdlib>

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

TEST(OpenclSelection, SelectedDeviceNamesItsDriverByPlatformVendorAndVersions) {
    unsetenv("HL_OCL_PLATFORM_NAME");
    unsetenv("HL_OCL_DEVICE_TYPE");
    const nlohmann::json opencl{{"platforms",
                                 {{{"name", "Portable Computing Language"},
                                   {"vendor", "The pocl project"},
                                   {"version", "OpenCL 3.0 PoCL 3.1+debian"},
                                   {"devices",
                                    {{{"name", "cpu-skylake"},
                                      {"type", "cpu"},
                                      {"vendor", "GenuineIntel"},
                                      {"version", "OpenCL 3.0"},
                                      {"driver_version", "3.1+debian"},
                                      {"compute_units", 2},
                                      {"extensions", ""}}}}}}}};
    nlohmann::json sel;
    ASSERT_EQ(runtime_unavailable_reason("opencl", opencl, nlohmann::json::object(), &sel), "");
    EXPECT_EQ(sel["identity"],
              "OpenCL Portable Computing Language [GenuineIntel] driver 3.1+debian, OpenCL 3.0 PoCL 3.1+debian");
}

}  // namespace
}  // namespace harness
