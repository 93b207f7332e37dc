// Which benchmarks pipeline-benchmarks registers, and in which order (Google Benchmark runs them in
// registration order; pipelines_benchmark.cpp's opening comment lists them): the profiles that run here
// and their devices, the cases at every benchmark size, what is skipped and why (in the JSON context),
// the OpenCV and NPP peers of each pipeline, and the context a reader needs (versions, devices, mode).
#pragma once
#include <string>
#include <vector>

namespace bench {

// The profiles that run here, and their GPU runtimes: what the machine record's calibration covers.
struct Registered {
    std::vector<std::string> profiles, gpu_runtimes;
};

// Registers every benchmark for this machine and the options (g_opt). Throws on a registry that
// does not validate.
Registered register_all();

}  // namespace bench
