// What Vulkan this machine offers: the loader, every physical device (driver name and version, API
// version, the shader and storage features Halide's Vulkan target features need, memory types and heaps),
// and which device Halide's runtime will pick.
//
// The probe runs once per process in a forked child (like the OpenCL and CUDA probes), with its output
// sent to /dev/null so that a validation layer named in VK_INSTANCE_LAYERS cannot print into `env --json`.
// No Vulkan headers are needed: the few structures used are declared in vulkan_abi.h and vulkan_probe.cpp.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// {"loader": "libvulkan.so.1" | null, "error": "...", "instance_version": "1.3.239",
//  "devices": [{"name", "type", "vendor_id", "device_id", "api_version", "driver_version",
//               "driver_name", "driver_info", "features": {"shaderInt8": true, ...},
//               "memory_types": [{"flags": "device-local host-visible ...", "heap": 0}],
//               "memory_heaps": [{"bytes", "device_local"}]}]}
nlohmann::json probe_vulkan();
// Starts that probe's child now (probe_vulkan() then waits for it), so that the probes of the runtimes run
// at the same time.
void start_probe_vulkan();

// Why a Vulkan profile cannot run here, given probe_vulkan()'s result and HL_VK_DEVICE_TYPE: no loader, no
// device, no device of the requested type; "" if it can, and then `selected` receives the device
// Halide's runtime will use ({"device", "driver_name", "driver_info", "driver_version", "api_version",
// "features"}).
std::string vulkan_unavailable_reason(const nlohmann::json &vulkan, nlohmann::json *selected = nullptr);

// The device features a Halide target string asks for: vk_int8 -> shaderInt8 + storageBuffer8BitAccess,
// vk_int16 -> shaderInt16 + storageBuffer16BitAccess, vk_float16 -> shaderFloat16 +
// storageBuffer16BitAccess, vk_int64 -> shaderInt64, vk_float64 -> shaderFloat64.
std::vector<std::string> vulkan_required_features(const std::string &target);

// "" when the selected device (vulkan_unavailable_reason's `selected`) has every feature and the API
// version the target needs; otherwise one line naming the device and everything missing.
std::string missing_vulkan_features_reason(const std::string &target, const nlohmann::json &selected);

// The lines `aot-harness env` prints for the probe.
std::string vulkan_summary(const nlohmann::json &vulkan);

}  // namespace harness
