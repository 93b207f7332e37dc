// Releasing the profile's GPU runtime before exit (device_release.h).
#include "devices/device_release.h"

#ifdef HARNESS_HAVE_OPENCL
#include "HalideRuntimeOpenCL.h"
#endif
#ifdef HARNESS_HAVE_CUDA
#include "HalideRuntimeCuda.h"
#endif
#ifdef HARNESS_HAVE_VULKAN
#include "HalideRuntimeVulkan.h"
#endif

#include "devices/runtime_hooks.h"

namespace harness {

const char kDeviceReleased[] = "released";
const char kDeviceReleaseSkipped[] = "skipped (--no-device-release)";

const halide_device_interface_t *device_interface_for(const std::string &runtime) {
#ifdef HARNESS_HAVE_OPENCL
    if (runtime == "opencl") return halide_opencl_device_interface();
#endif
#ifdef HARNESS_HAVE_CUDA
    if (runtime == "cuda") return halide_cuda_device_interface();
#endif
#ifdef HARNESS_HAVE_VULKAN
    if (runtime == "vulkan") return halide_vulkan_device_interface();
#endif
    (void)runtime;
    return nullptr;
}

std::string release_device_runtime(const std::string &runtime) {
    const halide_device_interface_t *iface = device_interface_for(runtime);
    if (!iface) return "";
    take_halide_error();                    // only this call's message
    halide_device_release(nullptr, iface);  // returns nothing: a failure shows as a Halide error
    const std::string error = take_halide_error();
    return error.empty() ? kDeviceReleased : "failed: halide_device_release: " + error;
}

}  // namespace harness
