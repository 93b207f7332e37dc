// Releasing a GPU runtime before the process exits, as a careful application does: a driver whose
// own exit handlers run before Halide's runtime destructor can crash at exit while a context is
// live (NVIDIA 580's Vulkan driver does; halide/Halide#8497). The harness's children release their
// profile's runtime after writing their record; `run --no-device-release` keeps the old behaviour
// (exit with the context live) to catch programs that do not release (run/teardown_triage.h).
#pragma once
#include <string>

#include "HalideRuntime.h"

namespace harness {

// Halide's device interface of a runtime ("opencl", "cuda", "vulkan") when this build's Halide
// runtime has it; nullptr for "none" or a runtime this build was made without.
const halide_device_interface_t *device_interface_for(const std::string &runtime);

// halide_device_release(nullptr, <the runtime's interface>): frees the runtime's cached kernels and
// destroys the context and device it created. Returns what happened, for the record's
// metrics.device_release: "released", "failed: halide_device_release: <Halide's error message>",
// or "" when the runtime has no device (cpu profiles) or this build lacks it.
std::string release_device_runtime(const std::string &runtime);

// The values of metrics.device_release a child records (golden/xfail.json's "device_release" key
// matches them): the runtime was released before exit, or the child was told not to release it.
extern const char kDeviceReleased[];
extern const char kDeviceReleaseSkipped[];

}  // namespace harness
