// What CUDA this machine offers: the NVIDIA driver (libcuda.so.1), its version and devices. Probed once per
// process in a forked child (probe_in_child.h); no CUDA headers are needed.
#pragma once
#include <nlohmann/json.hpp>

namespace harness {

// {"driver": "libcuda.so.1" | null, "error": "...", "driver_version": 12080,
//  "devices": [{"name", "compute_capability", "global_mem_bytes"}]}
nlohmann::json probe_cuda();
// Starts that probe's child now (probe_cuda() then waits for it), so that the probes of the runtimes run
// at the same time.
void start_probe_cuda();

}  // namespace harness
