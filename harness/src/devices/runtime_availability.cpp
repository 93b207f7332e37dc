// runtime_unavailable_reason(): the runtime dispatcher (none, OpenCL, CUDA, Vulkan) and the OpenCL device
// selection mirrored from Halide's runtime; missing_extensions_reason() for a pipeline's OpenCL extensions.
#include "devices/runtime_availability.h"

#include <cstdlib>

#include "devices/vulkan_probe.h"

namespace harness {

std::string runtime_unavailable_reason(const std::string &runtime, const nlohmann::json &opencl,
                                       const nlohmann::json &cuda, nlohmann::json *selected) {
    if (runtime == "none") return "";
    if (runtime == "cuda") {
        if (cuda.contains("error")) return cuda["error"].get<std::string>();
        return "";
    }
    if (runtime == "vulkan") return vulkan_unavailable_reason(probe_vulkan(), selected);
    if (runtime != "opencl") return "unknown runtime '" + runtime + "'";
    if (opencl.contains("error")) return opencl["error"].get<std::string>();
    // Mirror Halide's runtime: platform = first whose name contains HL_OCL_PLATFORM_NAME (or the
    // first), devices of the types in HL_OCL_DEVICE_TYPE (cpu/gpu/acc; default all).
    const char *want_platform = std::getenv("HL_OCL_PLATFORM_NAME");
    const nlohmann::json *platform = nullptr;
    std::string names;
    for (const auto &p : opencl["platforms"]) {
        const std::string name = p.value("name", "");
        names += (names.empty() ? "'" : ", '") + name + "'";
        if (!platform && (!want_platform || name.find(want_platform) != std::string::npos)) platform = &p;
    }
    if (!platform) {
        return std::string("no OpenCL platform matches HL_OCL_PLATFORM_NAME='") + want_platform +
               "' (platforms here: " + names + "); unset it or name one of those";
    }
    const char *want_type = std::getenv("HL_OCL_DEVICE_TYPE");
    std::string type_filter = want_type ? want_type : "";
    const bool any_type = type_filter.find("cpu") == std::string::npos &&
                          type_filter.find("gpu") == std::string::npos && type_filter.find("acc") == std::string::npos;
    if (!type_filter.empty() && any_type) {
        return "HL_OCL_DEVICE_TYPE='" + type_filter + "' names no device type; use cpu, gpu or acc (or unset it)";
    }
    const nlohmann::json *device = nullptr;
    for (const auto &d : (*platform)["devices"]) {
        const std::string t = d.value("type", "");
        const bool match = any_type ||
                           (type_filter.find("cpu") != std::string::npos && t.find("cpu") != std::string::npos) ||
                           (type_filter.find("gpu") != std::string::npos && t.find("gpu") != std::string::npos) ||
                           (type_filter.find("acc") != std::string::npos && t.find("accelerator") != std::string::npos);
        if (match && (!device || d.value("compute_units", 0) >= device->value("compute_units", 0))) device = &d;
    }
    if (!device) {
        return "OpenCL platform '" + (*platform).value("name", "") + "' has no device" +
               (type_filter.empty() ? std::string() : " of type '" + type_filter + "'") +
               "; set HL_OCL_DEVICE_TYPE or HL_OCL_PLATFORM_NAME to another one";
    }
    if (selected) {
        *selected = {
            {"platform", (*platform).value("name", "")},      {"platform_version", (*platform).value("version", "")},
            {"vendor", device->value("vendor", "")},          {"device", device->value("name", "")},
            {"device_version", device->value("version", "")}, {"driver_version", device->value("driver_version", "")},
            {"extensions", device->value("extensions", "")}};
        // The driver as it names itself (platform, vendor, CL_DRIVER_VERSION, CL_PLATFORM_VERSION).
        (*selected)["identity"] = "OpenCL " + (*platform).value("name", "") + " [" + device->value("vendor", "") +
                                  "] driver " + device->value("driver_version", "") + ", " +
                                  (*platform).value("version", "");
    }
    return "";
}

std::string missing_extensions_reason(const std::vector<std::string> &required, const nlohmann::json &selected) {
    if (required.empty() || !selected.is_object()) return "";
    const std::string have = " " + selected.value("extensions", std::string()) + " ";
    std::string missing;
    for (const auto &ext : required) {
        if (have.find(" " + ext + " ") == std::string::npos) missing += (missing.empty() ? "" : ", ") + ext;
    }
    if (missing.empty()) return "";
    return "OpenCL device '" + selected.value("device", std::string("?")) + "' lacks " + missing +
           ", which this pipeline needs; run it on a device that reports it";
}

}  // namespace harness
