// The Vulkan probe (vulkan_probe.h): the loader and devices through a few Vulkan 1.x entry points, the device
// Halide will pick, the features a target needs, and the `env` summary.
#include "devices/vulkan_probe.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>
#include <vector>

#include "devices/probe_in_child.h"
#include "devices/vulkan_abi.h"

namespace harness {

namespace {

// The handful of Vulkan 1.x declarations the probe needs besides vulkan_abi.h's (ABI-stable; no vulkan-headers
// package needed).
using VkInstance = struct VkInstance_T *;
using VkPhysicalDevice = struct VkPhysicalDevice_T *;
using VkResult = int32_t;
using VkBool32 = uint32_t;
using vk_shim::ApplicationInfo, vk_shim::InstanceCreateInfo, vk_shim::MemoryProperties, vk_shim::PropertiesPrefix;
constexpr int32_t kStructFeatures2 = 1000059000, kStructProperties2 = 1000059001, kStructVulkan11Features = 49,
                  kStructVulkan12Features = 51, kStructDriverProperties = 1000196000;

struct Properties2 {
    int32_t sType = kStructProperties2;
    void *pNext = nullptr;
    alignas(8) unsigned char properties[2048];  // VkPhysicalDeviceProperties is 824 bytes
};
struct DriverProperties {
    int32_t sType = kStructDriverProperties;
    void *pNext = nullptr;
    uint32_t driverID = 0;
    char driverName[256] = {0};
    char driverInfo[256] = {0};
    uint8_t conformanceVersion[4] = {0};
};
struct Vulkan11Features {
    int32_t sType = kStructVulkan11Features;
    void *pNext = nullptr;
    VkBool32 storageBuffer16BitAccess, uniformAndStorageBuffer16BitAccess, storagePushConstant16, storageInputOutput16,
        rest[8];
};
struct Vulkan12Features {
    int32_t sType = kStructVulkan12Features;
    void *pNext = nullptr;
    VkBool32 samplerMirrorClampToEdge, drawIndirectCount, storageBuffer8BitAccess, uniformAndStorageBuffer8BitAccess,
        storagePushConstant8, shaderBufferInt64Atomics, shaderSharedInt64Atomics, shaderFloat16, shaderInt8, rest[40];
};
struct Features2 {
    int32_t sType = kStructFeatures2;
    void *pNext = nullptr;
    VkBool32 features[55];  // VkPhysicalDeviceFeatures: shaderFloat64 [39], shaderInt64 [40], shaderInt16 [41]
};

std::string version_string(uint32_t v) {
    return std::to_string(v >> 22 & 0x7F) + "." + std::to_string(v >> 12 & 0x3FF) + "." + std::to_string(v & 0xFFF);
}

// driverVersion is vendor-encoded: NVIDIA packs 10.8.8.6 bits; others mostly use VK_MAKE_VERSION.
std::string driver_version_string(uint32_t vendor, uint32_t v) {
    if (vendor == 0x10DE) {
        return std::to_string(v >> 22) + "." + std::to_string(v >> 14 & 0xFF) + "." + std::to_string(v >> 6 & 0xFF) +
               "." + std::to_string(v & 0x3F);
    }
    return version_string(v);
}

// PCI vendor IDs, and Khronos' VkVendorId values for vendors without one (Mesa: 0x10005).
std::string vendor_name(uint32_t id) {
    static const std::pair<uint32_t, const char *> vendors[] = {
        {0x1002, "AMD"},      {0x1010, "Imagination"},  {0x10DE, "NVIDIA"},    {0x13B5, "ARM"},
        {0x5143, "Qualcomm"}, {0x8086, "Intel"},        {0x106B, "Apple"},     {0x144D, "Samsung"},
        {0x10001, "Vivante"}, {0x10002, "VeriSilicon"}, {0x10003, "Kazan"},    {0x10004, "Codeplay"},
        {0x10005, "Mesa"},    {0x10006, "PoCL"},        {0x10007, "MobileEye"}};
    for (const auto &[vid, name] : vendors)
        if (vid == id) return name;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%X", id);
    return hex;
}

const char *device_type_name(uint32_t t) {
    switch (t) {
    case 1:
        return "integrated-gpu";
    case 2:
        return "discrete-gpu";
    case 3:
        return "virtual-gpu";
    case 4:
        return "cpu";
    default:
        return "other";
    }
}

std::string memory_flags(uint32_t f) {
    std::string s;
    if (f & 0x1) s += "device-local ";
    if (f & 0x2) s += "host-visible ";
    if (f & 0x4) s += "host-coherent ";
    if (f & 0x8) s += "host-cached ";
    if (f & 0x10) s += "lazily-allocated ";
    if (!s.empty()) s.pop_back();
    return s;
}

nlohmann::json probe_vulkan_here() {
    // A validation layer (VK_INSTANCE_LAYERS) prints to stdout; keep it out of the probe's caller's output.
    if (int null_fd = open("/dev/null", O_WRONLY); null_fd >= 0) {
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
        close(null_fd);
    }
    nlohmann::json out{{"loader", nullptr}, {"devices", nlohmann::json::array()}};
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);  // the name Halide's runtime loads
    if (!lib) {
        out["error"] =
            "no Vulkan loader (libvulkan.so.1 not found); install libvulkan1 and a driver such as mesa-vulkan-drivers";
        return out;
    }
    out["loader"] = "libvulkan.so.1";
    using EnumVersion = VkResult (*)(uint32_t *);
    using CreateInstance = VkResult (*)(const InstanceCreateInfo *, const void *, VkInstance *);
    using DestroyInstance = void (*)(VkInstance, const void *);
    using EnumDevices = VkResult (*)(VkInstance, uint32_t *, VkPhysicalDevice *);
    using GetProps2 = void (*)(VkPhysicalDevice, Properties2 *);
    using GetFeatures2 = void (*)(VkPhysicalDevice, Features2 *);
    using GetMemory = void (*)(VkPhysicalDevice, MemoryProperties *);
    auto enum_version = probe_symbol<EnumVersion>(lib, "vkEnumerateInstanceVersion");
    auto create = probe_symbol<CreateInstance>(lib, "vkCreateInstance");
    auto destroy = probe_symbol<DestroyInstance>(lib, "vkDestroyInstance");
    auto enum_devices = probe_symbol<EnumDevices>(lib, "vkEnumeratePhysicalDevices");
    auto props2 = probe_symbol<GetProps2>(lib, "vkGetPhysicalDeviceProperties2");
    auto features2 = probe_symbol<GetFeatures2>(lib, "vkGetPhysicalDeviceFeatures2");
    auto memory = probe_symbol<GetMemory>(lib, "vkGetPhysicalDeviceMemoryProperties");
    if (!enum_version || !create || !destroy || !enum_devices || !props2 || !features2 || !memory) {
        out["error"] =
            "libvulkan.so.1 is older than Vulkan 1.1 (no vkGetPhysicalDeviceFeatures2); install a newer libvulkan1";
        return out;
    }
    uint32_t instance_version = 0;
    enum_version(&instance_version);
    out["instance_version"] = version_string(instance_version);
    ApplicationInfo app;
    InstanceCreateInfo info;
    info.pApplicationInfo = &app;
    VkInstance instance = nullptr;
    if (VkResult err = create(&info, nullptr, &instance); err != 0) {
        out["error"] =
            "vkCreateInstance failed with VkResult " + std::to_string(err) +
            (err == -9 ?
                 " (VK_ERROR_INCOMPATIBLE_DRIVER: no Vulkan driver; install mesa-vulkan-drivers or a GPU driver)" :
                 "");
        return out;
    }
    uint32_t count = 0;
    enum_devices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    if (count) enum_devices(instance, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
        DriverProperties driver;
        Properties2 p2;
        p2.pNext = &driver;
        props2(d, &p2);
        PropertiesPrefix p;
        std::memcpy(&p, p2.properties, sizeof p);
        Vulkan12Features f12{};
        f12.sType = kStructVulkan12Features;
        Vulkan11Features f11{};
        f11.sType = kStructVulkan11Features;
        f11.pNext = &f12;
        Features2 f{};
        f.sType = kStructFeatures2;
        // The 1.1/1.2 feature structures are valid only on devices reporting 1.2 or newer.
        const bool v12 = (p.apiVersion >> 12 & 0x3FF) >= 2 || (p.apiVersion >> 22 & 0x7F) > 1;
        f.pNext = v12 ? &f11 : nullptr;
        features2(d, &f);
        MemoryProperties mem{};
        memory(d, &mem);
        nlohmann::json dj{{"name", p.deviceName},
                          {"type", device_type_name(p.deviceType)},
                          {"vendor_id", p.vendorID},
                          {"vendor", vendor_name(p.vendorID)},
                          {"device_id", p.deviceID},
                          {"api_version", version_string(p.apiVersion)},
                          {"driver_version", driver_version_string(p.vendorID, p.driverVersion)},
                          {"driver_name", driver.driverName},
                          {"driver_info", driver.driverInfo}};
        dj["features"] = {{"shaderInt8", f12.shaderInt8 != 0},
                          {"shaderInt16", f.features[41] != 0},
                          {"shaderInt64", f.features[40] != 0},
                          {"shaderFloat16", f12.shaderFloat16 != 0},
                          {"shaderFloat64", f.features[39] != 0},
                          {"storageBuffer8BitAccess", f12.storageBuffer8BitAccess != 0},
                          {"storageBuffer16BitAccess", f11.storageBuffer16BitAccess != 0}};
        for (uint32_t i = 0; i < mem.memoryTypeCount && i < 32; i++) {
            dj["memory_types"].push_back(
                {{"flags", memory_flags(mem.memoryTypes[i].propertyFlags)}, {"heap", mem.memoryTypes[i].heapIndex}});
        }
        for (uint32_t i = 0; i < mem.memoryHeapCount && i < 16; i++) {
            dj["memory_heaps"].push_back(
                {{"bytes", mem.memoryHeaps[i].size}, {"device_local", (mem.memoryHeaps[i].flags & 1) != 0}});
        }
        out["devices"].push_back(dj);
    }
    destroy(instance, nullptr);
    if (count == 0)
        out["error"] =
            "the Vulkan loader found no physical device (no ICD: install mesa-vulkan-drivers or a GPU driver)";
    return out;
}

bool type_matches(const std::string &want, const std::string &type) {
    if (want == "gpu") return type.find("gpu") != std::string::npos;
    return want == type;
}

ProbeOnce &vulkan_probe_once() {
    static ProbeOnce probe(probe_vulkan_here, "Vulkan");  // once per process
    return probe;
}

}  // namespace

void start_probe_vulkan() {
    vulkan_probe_once().start();
}

nlohmann::json probe_vulkan() {
    return vulkan_probe_once().get();
}

std::string vulkan_unavailable_reason(const nlohmann::json &vulkan, nlohmann::json *selected) {
    if (vulkan.contains("error")) return vulkan["error"].get<std::string>();
    // Halide's runtime picks the first device of the type in HL_VK_DEVICE_TYPE (cpu, gpu, integrated-gpu,
    // discrete-gpu, virtual-gpu), else the first GPU, else the first device.
    const char *want_env = std::getenv("HL_VK_DEVICE_TYPE");
    const std::string want = want_env ? want_env : "";
    static const char *const known[] = {"cpu", "gpu", "integrated-gpu", "discrete-gpu", "virtual-gpu"};
    if (!want.empty() && std::find(std::begin(known), std::end(known), want) == std::end(known)) {
        return "HL_VK_DEVICE_TYPE='" + want +
               "' names no device type; use cpu, gpu, integrated-gpu, discrete-gpu or virtual-gpu (or unset it)";
    }
    const nlohmann::json *device = nullptr;
    std::string types;
    for (const auto &d : vulkan["devices"]) {
        const std::string t = d.value("type", "");
        types += (types.empty() ? "" : ", ") + d.value("name", std::string("?")) + " (" + t + ")";
        if (device) continue;
        if (want.empty() ? t.find("gpu") != std::string::npos : type_matches(want, t)) device = &d;
    }
    if (!device && want.empty() && !vulkan["devices"].empty()) device = &vulkan["devices"][0];
    if (!device) {
        return "no Vulkan device of type '" + want + "' (HL_VK_DEVICE_TYPE; devices here: " + types +
               "); unset it or name one of those types";
    }
    if (selected) {
        *selected = {{"platform", "Vulkan " + device->value("driver_name", std::string())},
                     {"vendor", device->value("vendor", "")},
                     {"device", device->value("name", "")},
                     {"driver_name", device->value("driver_name", "")},
                     {"driver_info", device->value("driver_info", "")},
                     {"driver_version", device->value("driver_version", "")},
                     {"api_version", device->value("api_version", "")},
                     {"features", device->value("features", nlohmann::json::object())}};
        // The driver as it names itself (VkPhysicalDeviceDriverProperties), for reports and driver-diff.
        const std::string vendor = device->value("vendor", ""), name = device->value("driver_name", "");
        const std::string info = device->value("driver_info", "");
        (*selected)["identity"] = "Vulkan " + vendor + (name == vendor || name.empty() ? "" : " " + name) + ", " +
                                  (info.empty() ? "driverVersion " + device->value("driver_version", "") : info);
    }
    return "";
}

std::vector<std::string> vulkan_required_features(const std::string &target) {
    std::vector<std::string> need;
    auto add = [&](const char *f) {
        if (std::find(need.begin(), need.end(), f) == need.end()) need.push_back(f);
    };
    std::istringstream parts(target);
    for (std::string f; std::getline(parts, f, '-');) {
        if (f == "vk_int8") add("shaderInt8"), add("storageBuffer8BitAccess");
        if (f == "vk_int16") add("shaderInt16"), add("storageBuffer16BitAccess");
        if (f == "vk_float16") add("shaderFloat16"), add("storageBuffer16BitAccess");
        if (f == "vk_int64") add("shaderInt64");
        if (f == "vk_float64") add("shaderFloat64");
    }
    return need;
}

std::string missing_vulkan_features_reason(const std::string &target, const nlohmann::json &selected) {
    if (!selected.is_object()) return "";
    std::string missing;
    const nlohmann::json features = selected.value("features", nlohmann::json::object());
    for (const auto &f : vulkan_required_features(target)) {
        if (!features.value(f, false)) missing += (missing.empty() ? "" : ", ") + f;
    }
    // vk_v10/vk_v12/vk_v13: the SPIR-V and API version the kernels were built for.
    int want_minor = -1;
    for (const char *v : {"vk_v10", "vk_v12", "vk_v13"}) {
        const std::string t = "-" + target + "-";
        if (t.find(std::string("-") + v + "-") != std::string::npos) want_minor = v[5] - '0';
    }
    const std::string api = selected.value("api_version", std::string("0.0.0"));
    const int major = std::atoi(api.c_str());
    const size_t dot = api.find('.');
    const int minor = dot == std::string::npos ? 0 : std::atoi(api.c_str() + dot + 1);
    if (want_minor >= 0 && (major < 1 || (major == 1 && minor < want_minor))) {
        missing += (missing.empty() ? "" : ", ") + std::string("Vulkan 1.") + std::to_string(want_minor) +
                   " (device reports " + api + ")";
    }
    if (missing.empty()) return "";
    return "Vulkan device '" + selected.value("device", std::string("?")) + "' lacks " + missing +
           ", which this pipeline's target (" + target + ") needs; run it on a device that has them";
}

std::string vulkan_summary(const nlohmann::json &vk) {
    std::string s;
    if (vk.contains("error")) s += "Vulkan: " + vk["error"].get<std::string>() + "\n";
    if (vk.contains("instance_version")) s += "Vulkan loader " + vk["instance_version"].get<std::string>() + "\n";
    for (const auto &d : vk.value("devices", nlohmann::json::array())) {
        s += "Vulkan device: " + d.value("name", std::string("?")) + " [" + d.value("type", std::string()) + "], API " +
             d.value("api_version", std::string()) + ", vendor " + d.value("vendor", std::string("?")) + ", driver " +
             d.value("driver_name", std::string()) + " " + d.value("driver_version", std::string()) + " (" +
             d.value("driver_info", std::string()) + ")\n    features:";
        const nlohmann::json features = d.value("features", nlohmann::json::object());  // items() must not outlive it
        for (const auto &[name, on] : features.items()) {
            if (on.get<bool>()) s += " " + name;
        }
        s += "\n    memory types:";
        for (const auto &m : d.value("memory_types", nlohmann::json::array())) {
            s += " [" + m.value("flags", std::string()) + "]";
        }
        s += "\n";
    }
    return s;
}

}  // namespace harness
