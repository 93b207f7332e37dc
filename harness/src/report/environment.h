// The environment a run happened in, for `aot-harness env` and every results file.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

// {"halide_version", "platform", "compiler", "os": {...}, "host_cpu": {"model", "cores", "features"},
//  "variants": {"<p>__<profile>": target string}, "opencl": probe_opencl(), "cuda": probe_cuda(),
//  "vulkan": probe_vulkan()}
nlohmann::json environment_info();

// The current UTC time in strftime `format`, e.g. "%Y-%m-%dT%H:%M:%S+00:00".
std::string utc_now(const char *format);

}  // namespace harness
