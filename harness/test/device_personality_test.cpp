// Device personalities (devices/device_personality.h), the SPIR-V reader of the Vulkan interposer
// (devices/spirv_reflect.h) and the kernel log's summary (devices/kernel_log.h).
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "devices/device_personality.h"
#include "devices/kernel_log.h"
#include "devices/probe_in_child.h"
#include "devices/spirv_reflect.h"
#include "devices/vulkan_abi.h"
#include "run/kernel_resources.h"

namespace harness {
namespace {

TEST(DevicePersonality, EmbeddedFileHasTheMalisWithEverySource) {
    const auto &all = device_personalities();
    for (const char *key : {"mali-g52", "mali-g76", "mali-g610", "mali-g710"})
        EXPECT_NO_THROW(find_device_personality(key)) << key;
    const DevicePersonality &g52 = find_device_personality("mali-g52");
    EXPECT_EQ(g52.cl_max_work_group_size, 384u);
    EXPECT_EQ(g52.cl_max_work_item_sizes[0], 384u);
    EXPECT_EQ(g52.cl_local_mem_size, 32768u);
    EXPECT_FALSE(g52.fp64);
    EXPECT_TRUE(g52.fp16);
    EXPECT_EQ(g52.subgroup_size, 8u);
    EXPECT_EQ(g52.vk_max_shared_memory, 32768u);
    EXPECT_EQ(find_device_personality("mali-g710").subgroup_size, 16u);
    for (const auto &p : all) {  // every value names where it comes from
        for (const char *side : {"opencl", "vulkan"}) {
            for (const auto &[field, v] : p.sources.at(side).items())
                EXPECT_FALSE(v.at("source").get<std::string>().empty()) << p.key << "." << side << "." << field;
        }
    }
}

TEST(DevicePersonality, UnknownNameListsTheKnownOnes) {
    try {
        find_device_personality("mali-g99");
        FAIL() << "no error";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("known devices: mali-g52"), std::string::npos) << e.what();
    }
}

const char *const kOne = R"({"devices": {"x": {"name": "X", "architecture": {"value": "a", "source": "s"},
  "opencl": {"max_work_group_size": {"value": 256, "source": "s"}, "max_work_item_sizes": {"value": [256, 256, 256], "source": "s"},
             "local_mem_size": {"value": 16384, "source": "s"}, "fp64": {"value": false, "source": "s"},
             "fp16": {"value": true, "source": "s"}, "subgroup_size": {"value": 4, "source": "s"}},
  "vulkan": {"max_compute_work_group_invocations": {"value": 256, "source": "s"},
             "max_compute_work_group_size": {"value": [256, 256, 64], "source": "s"},
             "max_compute_shared_memory_size": {"value": 16384, "source": "s"}, "subgroup_size": {"value": 4, "source": "s"},
             "shader_float64": {"value": false, "source": "s"}, "shader_float16": {"value": true, "source": "s"}}}}})";

std::string parse_error(const std::string &text) {
    try {
        parse_device_personalities(text);
    } catch (const std::runtime_error &e) {
        return e.what();
    }
    return "";
}

TEST(DevicePersonality, ValueWithoutSourceOrBadValueIsAnError) {
    EXPECT_EQ(parse_error(kOne), "");
    std::string no_source = kOne;
    no_source.replace(no_source.find(R"("value": 16384, "source": "s")"), 29, R"("value": 16384)");
    EXPECT_NE(parse_error(no_source).find("x.opencl.local_mem_size: must be {\"value\""), std::string::npos)
        << parse_error(no_source);
    std::string too_big = kOne;
    too_big.replace(too_big.find("[256, 256, 256]"), 15, "[512, 256, 256]");
    EXPECT_NE(parse_error(too_big).find("an item size exceeds max_work_group_size"), std::string::npos);
    EXPECT_NE(parse_error("{}").find("no \"devices\" object"), std::string::npos);
    EXPECT_NE(parse_error("{").find("not valid JSON"), std::string::npos);
}

TEST(DevicePersonality, FitsAgainstLimits) {
    const DevicePersonality &g52 = find_device_personality("mali-g52");
    nlohmann::json k{{"work_group", "32x32"}, {"work_group_items", 1024}, {"local_mem_bytes", 49152}};
    EXPECT_EQ(kernel_exceeds(k, g52, "opencl"), "work-group 1024 > 384, local memory 49152 B > 32768 B");
    EXPECT_EQ(kernel_exceeds(k, find_device_personality("mali-g710"), "opencl"), "local memory 49152 B > 32768 B");
    k = {{"work_group", "8x4"}, {"work_group_items", 32}, {"local_mem_bytes", 0}};
    EXPECT_EQ(kernel_exceeds(k, g52, "vulkan"), "");
    k = {{"work_group", "512"}, {"work_group_items", 512}};
    EXPECT_EQ(kernel_exceeds(k, g52, "opencl"), "work-group 512 > 384, dimension 0 512 > 384");
}

// A hand-assembled compute module as Halide 21 writes one: the work-group size from spec constants 2, 3, 4
// (LocalSizeId), a workgroup array of i32 whose length is spec constant 1, used by the entry point's function.
std::vector<uint32_t> halide_like_module() {
    std::vector<uint32_t> w = {0x07230203, 0x00010200, 0, 40, 0};
    const auto op = [&](uint32_t opcode, std::vector<uint32_t> operands) {
        w.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | opcode);
        w.insert(w.end(), operands.begin(), operands.end());
    };
    op(17, {1});                    // OpCapability Shader
    op(15, {5, 30, 'k', 0});        // OpEntryPoint GLCompute %30 "k"
    op(331, {30, 38, 10, 11, 12});  // OpExecutionModeId %30 LocalSizeId %10 %11 %12
    op(71, {13, 1, 1});             // OpDecorate %13 SpecId 1
    op(71, {10, 1, 2});             // OpDecorate %10 SpecId 2
    op(71, {11, 1, 3});
    op(71, {12, 1, 4});
    op(21, {2, 32, 0});  // %2 = OpTypeInt 32 0
    op(21, {3, 32, 1});  // %3 = OpTypeInt 32 1
    op(50, {2, 13, 1});  // %13 = OpSpecConstant %2 1 (array length)
    op(50, {2, 10, 1});  // %10..%12 = OpSpecConstant %2 1
    op(50, {2, 11, 1});
    op(50, {2, 12, 1});
    op(28, {4, 3, 13});       // %4 = OpTypeArray %3 %13
    op(32, {5, 4, 4});        // %5 = OpTypePointer Workgroup %4
    op(32, {6, 4, 3});        // %6 = OpTypePointer Workgroup %3
    op(59, {5, 20, 4});       // %20 = OpVariable %5 Workgroup
    op(54, {7, 30, 0, 8});    // %30 = OpFunction %7 None %8
    op(65, {6, 21, 20, 14});  // %21 = OpAccessChain %6 %20 %14
    op(56, {});               // OpFunctionEnd
    return w;
}

TEST(SpirvReflect, LocalSizeAndSharedMemoryFromSpecConstants) {
    const std::vector<uint32_t> w = halide_like_module();
    const SpirvModule m = reflect_spirv(w.data(), w.size());
    ASSERT_TRUE(m.valid);
    EXPECT_FALSE(m.float64);
    const SpirvEntryPoint *e = m.entry("k");
    ASSERT_NE(e, nullptr);
    const SpirvDispatchShape s = resolve_entry(*e, {{1, 12288}, {2, 32}, {3, 32}, {4, 1}});
    EXPECT_EQ(s.local[0], 32u);
    EXPECT_EQ(s.local[1], 32u);
    EXPECT_EQ(s.local[2], 1u);
    EXPECT_EQ(s.shared_bytes, 12288u * 4);
    const SpirvDispatchShape d = resolve_entry(*e, {});  // the defaults
    EXPECT_EQ(d.local[0], 1u);
    EXPECT_EQ(d.shared_bytes, 4u);
}

TEST(SpirvReflect, GarbageIsNotAModule) {
    const uint32_t junk[] = {1, 2, 3, 4, 5, 6};
    EXPECT_FALSE(reflect_spirv(junk, 6).valid);
    std::vector<uint32_t> w = halide_like_module();
    w.resize(w.size() - 3);  // an instruction cut short
    w.push_back(0x00FF0041);
    EXPECT_FALSE(reflect_spirv(w.data(), w.size()).valid);
}

TEST(KernelLog, SummaryPerKernelInFirstSeenOrder) {
    KernelLaunch a;
    a.runtime = "opencl";
    a.kernel = "b_kernel";
    a.global[0] = 640, a.global[1] = 480, a.local[0] = 32, a.local[1] = 8;
    a.local_mem_bytes = 1;
    a.arguments = 11;
    a.device_ms = 1.5;
    KernelLaunch b = a;
    b.kernel = "a_kernel";
    b.arguments = -1;  // the driver did not say
    b.device_ms = -1;  // not timed
    const nlohmann::json s = summarize_kernel_launches({a, b, a}, 2);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0]["kernel"], "b_kernel");
    EXPECT_EQ(s[0]["launches"], 2);
    EXPECT_DOUBLE_EQ(s[0]["device_ms_per_call"].get<double>(), 1.5);
    EXPECT_EQ(s[0]["work_group"], "32x8");
    EXPECT_EQ(s[0]["groups"], "20x60");
    EXPECT_EQ(s[0]["work_group_items"], 256);
    EXPECT_EQ(s[0]["arguments"], 11);
    EXPECT_FALSE(s[1]["timed"].get<bool>());
    EXPECT_FALSE(s[1].contains("device_ms_per_call"));
    EXPECT_FALSE(s[1].contains("arguments"));
}

}  // namespace
}  // namespace harness

// Halide's hook as the harness defines it (devices/vulkan_runtime_shim.cpp).
extern "C" void *halide_vulkan_get_symbol(void *, const char *name);

namespace harness {
namespace {

// The limits the Vulkan interposer reads and writes, at its offsets in VkPhysicalDeviceProperties, from the first
// device of this machine's Vulkan driver: plausible without a personality (the specification's minimums), and the
// personality's values with one. A wrong offset lands on a neighbouring field (maxComputeWorkGroupCount, 65535 and
// up; subPixelPrecisionBits, 4 or 8), which the minimums and maximums below tell apart.
TEST(VulkanInterpose, PhysicalDeviceLimitsAtTheirOffsets) {
    const nlohmann::json r = probe_in_child(
        []() -> nlohmann::json {
            using Fn = void (*)();
            using Gipa = Fn (*)(void *, const char *);
            const auto gipa = reinterpret_cast<Gipa>(halide_vulkan_get_symbol(nullptr, "vkGetInstanceProcAddr"));
            if (!gipa) return {{"skip", "no Vulkan loader"}};
            vk_shim::ApplicationInfo app;
            app.apiVersion = (1u << 22) | (1u << 12);
            vk_shim::InstanceCreateInfo info;
            info.pApplicationInfo = &app;
            void *instance = nullptr;
            const auto create =
                reinterpret_cast<int32_t (*)(const vk_shim::InstanceCreateInfo *, const void *, void **)>(
                    gipa(nullptr, "vkCreateInstance"));
            if (!create || create(&info, nullptr, &instance) != 0) return {{"skip", "vkCreateInstance failed"}};
            const auto enumerate = reinterpret_cast<int32_t (*)(void *, uint32_t *, void **)>(
                gipa(instance, "vkEnumeratePhysicalDevices"));
            uint32_t n = 1;
            void *pd = nullptr;
            if (!enumerate || enumerate(instance, &n, &pd) < 0 || n == 0) return {{"skip", "no Vulkan device"}};
            const auto props =
                reinterpret_cast<void (*)(void *, void *)>(gipa(instance, "vkGetPhysicalDeviceProperties"));
            alignas(8) unsigned char p[1024] = {0};
            const auto u32 = [&](size_t at) {
                uint32_t v;
                std::memcpy(&v, p + at, 4);
                return v;
            };
            props(pd, p);
            float period;
            std::memcpy(&period, p + 296 + 424, 4);
            nlohmann::json out{{"shared", u32(296 + 216)},
                               {"invocations", u32(296 + 232)},
                               {"size", {u32(296 + 236), u32(296 + 240), u32(296 + 244)}},
                               {"period", period}};
            activate_device_personality(&find_device_personality("mali-g52"));
            props(pd, p);
            out["g52"] = {u32(296 + 216), u32(296 + 232), u32(296 + 236)};
            return out;
        },
        "a Vulkan properties test");
    if (r.contains("skip") || r.contains("error")) GTEST_SKIP() << r.dump();
    const uint32_t shared = r["shared"], invocations = r["invocations"];
    EXPECT_GE(shared, 16384u);
    EXPECT_LE(shared, 1u << 20);
    EXPECT_GE(invocations, 128u);
    EXPECT_LE(invocations, 4096u);
    EXPECT_GE(r["size"][0].get<uint32_t>(), 128u);
    EXPECT_LE(r["size"][0].get<uint32_t>(), 4096u);
    EXPECT_GE(r["size"][2].get<uint32_t>(), 64u);
    EXPECT_GT(r["period"].get<double>(), 0.0);
    EXPECT_LT(r["period"].get<double>(), 1000.0);
    EXPECT_EQ(r["g52"], nlohmann::json({32768, 384, 384}));
}

}  // namespace
}  // namespace harness
