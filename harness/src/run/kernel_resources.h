// What each kernel of a GPU variant asks of the device, measured by running one case once in a forked child
// with the interposed runtimes recording every launch (devices/kernel_log.h): its work-group and grid, the
// local/shared memory it allocates, private memory or registers where the driver reports them. `describe
// --resources` prints it beside each device personality's limits (devices/device_personality.h).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "devices/device_personality.h"
#include "harness/registry.h"
#include "harness/spec.h"

namespace harness {

// {"kernels": [...summarize_kernel_launches...], "calls": 1} or {"error": why}. Runs `c` on `variant` once (after
// a warm-up call, so that compilation is not in it) in a forked child; `personality` (nullptr = none) is
// active there, as in a run --device child. The golden dir's inputs/ serve image inputs.
nlohmann::json measure_kernel_resources(const Variant &variant, const CaseSpec &c, const std::string &golden_dir,
                                        const DevicePersonality *personality = nullptr);

// Whether one kernel (an element of measure_kernel_resources' "kernels") fits a personality on `runtime`:
// "" if it does, else what exceeds (e.g. "work-group 1024 > 384").
std::string kernel_exceeds(const nlohmann::json &kernel, const DevicePersonality &p, const std::string &runtime);

}  // namespace harness
