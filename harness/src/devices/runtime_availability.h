// Whether a profile's GPU runtime can run here, from the probes (opencl_probe.h, cuda_probe.h,
// vulkan_probe.h): the OpenCL platform and device Halide's runtime will pick, and the OpenCL extensions
// a pipeline needs.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// Why a profile with this runtime ("none", "opencl", "cuda", "vulkan": vulkan_probe.h) cannot run here, given the
// probes and the HL_OCL_PLATFORM_NAME / HL_OCL_DEVICE_TYPE environment Halide's runtime will use; "" if it can. For
// OpenCL, `selected` receives the platform and device Halide would pick.
std::string runtime_unavailable_reason(const std::string &runtime, const nlohmann::json &opencl,
                                       const nlohmann::json &cuda, nlohmann::json *selected = nullptr);

// Why a device cannot run a pipeline that needs these OpenCL extensions: "" when `selected` (the
// device runtime_unavailable_reason() chose, with its "extensions" string) has them all, or when
// nothing is required; otherwise one line naming the device and every missing extension.
std::string missing_extensions_reason(const std::vector<std::string> &required, const nlohmann::json &selected);

}  // namespace harness
