// What GPU runtimes this machine offers: OpenCL platforms/devices and the CUDA driver.
//
// Probes run once per process, in a forked child that reports over a pipe and leaves with _exit(), so a driver that
// crashes while loading or tearing down (seed 000) cannot take the harness with it.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// {"loader": "libOpenCL.so.1" | null, "error": "...", "platforms": [{"name", "vendor", "version",
//   "devices": [{"name", "vendor", "version", "driver_version", "opencl_c_version", "type",
//                "extensions", "compute_units", "global_mem_bytes", "local_mem_bytes",
//                "max_work_group_size"}]}]}
nlohmann::json probe_opencl();

// {"driver": "libcuda.so.1" | null, "error": "...", "driver_version": 12080,
//  "devices": [{"name", "compute_capability", "global_mem_bytes"}]}
nlohmann::json probe_cuda();

// Runs a probe in a forked child and returns the JSON it produced ({"error": ...} if the child died or
// printed garbage); what the other probes (vulkan_info.h) use too.
nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what);

// Why a profile with this runtime ("none", "opencl", "cuda", "vulkan": vulkan_info.h) cannot run here, given the probes
// and the HL_OCL_PLATFORM_NAME / HL_OCL_DEVICE_TYPE environment Halide's runtime will use; "" if it can. For OpenCL,
// `selected` receives the platform and device Halide would pick.
std::string runtime_unavailable_reason(const std::string &runtime, const nlohmann::json &opencl,
                                       const nlohmann::json &cuda, nlohmann::json *selected = nullptr);

// Why a device cannot run a pipeline that needs these OpenCL extensions: "" when `selected` (the
// device runtime_unavailable_reason() chose, with its "extensions" string) has them all, or when
// nothing is required; otherwise one line naming the device and every missing extension.
std::string missing_extensions_reason(const std::vector<std::string> &required, const nlohmann::json &selected);

}  // namespace harness
