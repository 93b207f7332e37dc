// The environment a run happened in, for `aot-harness env` and every results file.
#pragma once
#include <nlohmann/json.hpp>

namespace harness {

// {"halide_version", "platform", "compiler", "os": {...}, "host_cpu": {"model", "cores", "features"},
//  "variants": {"<p>__<profile>": target string}, "opencl": probe_opencl(), "cuda": probe_cuda(),
//  "vulkan": probe_vulkan()}
nlohmann::json environment_info();

}  // namespace harness
