// Which device a run is meant for: the device personality a profile's runs emulate (`run --device`, a profile's
// `device` field; devices/device_personality.h), what such a run's record says it emulates, and the start-up check
// of --expect-device / --expect-driver against the devices the probes found.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix/run_matrix.h"

namespace harness {

// The device personality a profile's runs emulate: `device` (run --device) for an OpenCL or Vulkan profile,
// else the profile's own `device` field; "" for none (CPU and CUDA profiles never have one, `device` "none" turns a
// profile's off).
std::string personality_of(const std::string &device, const std::string &profile);
// What a personality run emulates and what it cannot on this driver, for the record (metrics.device_personality).
nlohmann::json personality_record(const std::string &personality, const std::string &runtime,
                                  const nlohmann::json &selected);

// --expect-device / --expect-driver: throws Error naming what a GPU profile of `tasks` would use when its
// device name or driver (version or full identity) does not match the glob. Empty globs check nothing.
void check_expected_devices(const Availability &a, const std::vector<RunTask> &tasks, const std::string &device_glob,
                            const std::string &driver_glob);

}  // namespace harness
