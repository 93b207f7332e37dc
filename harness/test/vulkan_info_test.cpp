// Unit tests of the Vulkan probe's decisions (devices/vulkan_probe.h): features, device choice, summary.
#include <cstdlib>

#include <gtest/gtest.h>

#include "devices/vulkan_probe.h"

namespace harness {
namespace {

nlohmann::json device(const std::string &name, const std::string &type, const std::string &api, bool f16) {
    return {{"name", name},
            {"type", type},
            {"api_version", api},
            {"driver_name", "drv"},
            {"driver_info", "info"},
            {"driver_version", "1.2.3"},
            {"features",
             {{"shaderInt8", true},
              {"shaderInt16", true},
              {"shaderFloat16", f16},
              {"storageBuffer8BitAccess", true},
              {"storageBuffer16BitAccess", true},
              {"shaderInt64", false},
              {"shaderFloat64", false}}}};
}

struct UnsetDeviceType {
    UnsetDeviceType() { unsetenv("HL_VK_DEVICE_TYPE"); }
    ~UnsetDeviceType() { unsetenv("HL_VK_DEVICE_TYPE"); }
};

TEST(VulkanInfo, TargetFeaturesMapToDeviceFeatures) {
    EXPECT_TRUE(vulkan_required_features("x86-64-linux-vulkan").empty());
    const auto need = vulkan_required_features("x86-64-linux-vulkan-vk_int8-vk_int16-vk_float16-vk_v13");
    const std::vector<std::string> want{"shaderInt8", "storageBuffer8BitAccess", "shaderInt16",
                                        "storageBuffer16BitAccess", "shaderFloat16"};
    EXPECT_EQ(need, want);
    EXPECT_EQ(vulkan_required_features("arm-64-android-vulkan-vk_int64-vk_float64"),
              (std::vector<std::string>{"shaderInt64", "shaderFloat64"}));
}

TEST(VulkanInfo, NoLoaderOrNoDeviceIsTheProbesError) {
    UnsetDeviceType guard;
    const nlohmann::json none{{"loader", nullptr}, {"error", "no Vulkan loader (libvulkan.so.1 not found)"}};
    EXPECT_EQ(vulkan_unavailable_reason(none), "no Vulkan loader (libvulkan.so.1 not found)");
}

TEST(VulkanInfo, PicksAGpuFirstThenTheFirstDeviceAndHonoursDeviceType) {
    UnsetDeviceType guard;
    nlohmann::json vk{
        {"devices", {device("llvmpipe", "cpu", "1.3.230", true), device("H100", "discrete-gpu", "1.3.277", true)}}};
    nlohmann::json sel;
    EXPECT_EQ(vulkan_unavailable_reason(vk, &sel), "");
    EXPECT_EQ(sel["device"], "H100");
    setenv("HL_VK_DEVICE_TYPE", "cpu", 1);
    EXPECT_EQ(vulkan_unavailable_reason(vk, &sel), "");
    EXPECT_EQ(sel["device"], "llvmpipe");
    setenv("HL_VK_DEVICE_TYPE", "virtual-gpu", 1);
    const std::string why = vulkan_unavailable_reason(vk, &sel);
    EXPECT_NE(why.find("no Vulkan device of type 'virtual-gpu'"), std::string::npos) << why;
    EXPECT_NE(why.find("llvmpipe (cpu)"), std::string::npos) << why;
    setenv("HL_VK_DEVICE_TYPE", "tpu", 1);
    EXPECT_NE(vulkan_unavailable_reason(vk, &sel).find("HL_VK_DEVICE_TYPE='tpu' names no device type"),
              std::string::npos);
    unsetenv("HL_VK_DEVICE_TYPE");
    nlohmann::json cpu_only{{"devices", {device("llvmpipe", "cpu", "1.3.230", true)}}};
    EXPECT_EQ(vulkan_unavailable_reason(cpu_only, &sel), "");
    EXPECT_EQ(sel["device"], "llvmpipe");
}

TEST(VulkanInfo, SelectedDeviceNamesItsDriverByVendorNameAndInfo) {
    nlohmann::json lvp = device("llvmpipe", "cpu", "1.3.230", true), nv = device("H100", "discrete-gpu", "1.4", true);
    lvp["vendor"] = "Mesa", lvp["driver_name"] = "llvmpipe", lvp["driver_info"] = "Mesa 25.0.7 (LLVM 15.0.6)";
    nv["vendor"] = "NVIDIA", nv["driver_name"] = "NVIDIA", nv["driver_info"] = "", nv["driver_version"] = "580.159.4.0";
    nlohmann::json sel;
    ASSERT_EQ(vulkan_unavailable_reason({{"devices", {lvp}}}, &sel), "");
    EXPECT_EQ(sel["identity"], "Vulkan Mesa llvmpipe, Mesa 25.0.7 (LLVM 15.0.6)");
    EXPECT_EQ(sel["vendor"], "Mesa");
    ASSERT_EQ(vulkan_unavailable_reason({{"devices", {nv}}}, &sel), "");
    EXPECT_EQ(sel["identity"], "Vulkan NVIDIA, driverVersion 580.159.4.0");
}

TEST(VulkanInfo, MissingFeatureOrVersionNamesThemAll) {
    UnsetDeviceType guard;
    nlohmann::json sel;
    ASSERT_EQ(vulkan_unavailable_reason({{"devices", {device("Mali-G52", "integrated-gpu", "1.1.0", false)}}}, &sel),
              "");
    const std::string target = "arm-64-android-vulkan-vk_int8-vk_int16-vk_float16-vk_v13";
    const std::string why = missing_vulkan_features_reason(target, sel);
    EXPECT_NE(why.find("Vulkan device 'Mali-G52' lacks shaderFloat16, Vulkan 1.3 (device reports 1.1.0)"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find(target), std::string::npos);
    ASSERT_EQ(vulkan_unavailable_reason({{"devices", {device("llvmpipe", "cpu", "1.3.230", true)}}}, &sel), "");
    EXPECT_EQ(missing_vulkan_features_reason(target, sel), "");
    EXPECT_NE(missing_vulkan_features_reason("x86-64-linux-vulkan-vk_int64", sel).find("lacks shaderInt64"),
              std::string::npos);
}

TEST(VulkanInfo, SummaryListsDeviceDriverAndFeatures) {
    nlohmann::json d = device("llvmpipe", "cpu", "1.3.230", true);
    d["vendor"] = "Mesa";
    d["memory_types"] = {{{"flags", "device-local host-visible host-coherent host-cached"}, {"heap", 0}}};
    const std::string s = vulkan_summary({{"instance_version", "1.3.239"}, {"devices", {d}}});
    EXPECT_NE(s.find("Vulkan device: llvmpipe [cpu], API 1.3.230, vendor Mesa, driver drv 1.2.3 (info)"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find("shaderFloat16"), std::string::npos);
    EXPECT_EQ(s.find("shaderInt64"), std::string::npos);
    EXPECT_NE(s.find("[device-local host-visible host-coherent host-cached]"), std::string::npos);
}

}  // namespace
}  // namespace harness
