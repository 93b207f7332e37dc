// What OpenCL this machine offers: the ICD loader (opencl_loader.h), its platforms and their devices.
// Probed once per process in a forked child (probe_in_child.h).
#pragma once
#include <nlohmann/json.hpp>

namespace harness {

// {"loader": "libOpenCL.so.1" | null, "error": "...", "platforms": [{"name", "vendor", "version",
//   "devices": [{"name", "vendor", "version", "driver_version", "opencl_c_version", "type",
//                "extensions", "compute_units", "global_mem_bytes", "local_mem_bytes",
//                "max_work_group_size"}]}]}
nlohmann::json probe_opencl();
// Starts that probe's child now (probe_opencl() then waits for it), so that the probes of the runtimes run
// at the same time.
void start_probe_opencl();

}  // namespace harness
