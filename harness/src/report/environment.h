// The environment a run happened in, for `aot-harness env` and every results file.
#pragma once
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

// {"halide_version", "platform", "compiler", "os": {...}, "host_cpu": {"model", "cores", "features"} (under
//  user-mode emulation the emulated CPU's, with "emulated": true and the machine's under "emulated_on"),
//  "variants": {"<p>__<profile>": target string}, "opencl": probe_opencl(), "cuda": probe_cuda(),
//  "vulkan": probe_vulkan()}; a runtime not in `runtimes` is not probed: {"not_probed": "<why>"} (a
//  run's results probe only the runtimes its profiles use).
nlohmann::json environment_info(const std::set<std::string> &runtimes = {"opencl", "cuda", "vulkan"});

// The current UTC time in strftime `format`, e.g. "%Y-%m-%dT%H:%M:%S+00:00".
std::string utc_now(const char *format);

}  // namespace harness
