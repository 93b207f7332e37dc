// NVIDIA GPUs' clocks, temperatures and throttle reasons through NVML (libnvidia-ml.so.1, dlopen()ed once per
// process and kept: nvmlInit costs up to seconds without persistence mode). Part of machine_state.h.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace harness {

// {"source": "NVML, driver 570.86", "gpus": [{"index", "name", "sm_mhz", "mem_mhz", "max_sm_mhz", "temp_c",
//  "power_w", "pstate", "throttle": [names], "throttle_bits"}]}, or {"source": "not exposed (why)", "gpus": []}.
// `library`: the file dlopen() gets (a test passes a fake one).
nlohmann::json read_nvml(const std::string &library);

// The throttle reasons that slow a busy GPU (power and thermal caps, hardware slowdown), of a reading's names.
bool nvml_reason_slows(const std::string &name);

}  // namespace harness
