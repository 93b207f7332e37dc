// Per-device performance floors (benchmarks/thresholds.json), like a per-SKU golden time.
//
//   {"format": 1,
//    "devices": [{"name": "what this entry is for",
//                 "device": "<regex searched in the device name>",      (default: any)
//                 "driver": "<regex searched in the driver version>",   (default: any)
//                 "min_mpix_per_s": {"<regex matching a whole benchmark name>": <Mpix/s>, ...}}]}
//
// A benchmark's device is the host CPU model for CPU profiles and peers, and the OpenCL/CUDA
// device Halide picked for GPU profiles. Every floor of every entry whose device and driver match
// applies; the measured value is the median pixels_per_second over the run's repetitions.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace bench {

struct Measured {
    std::string device, driver;      // what the floors' patterns are matched against
    std::vector<double> mpix_per_s;  // one per repetition that ran
    std::string error;               // non-empty if the benchmark failed
};

struct FloorViolation {
    std::string benchmark, entry;
    double floor = 0, measured = 0;
    std::string error;  // the benchmark failed instead of being slow
};

// Checks `measured` (benchmark name -> results) against the floors in the file at `path`. Throws
// std::runtime_error naming the file and the problem for an unreadable file, bad JSON or a bad regex.
// `checked` receives how many (benchmark, floor) pairs applied.
std::vector<FloorViolation> check_thresholds(const std::string &path, const std::map<std::string, Measured> &measured,
                                             int *checked);

}  // namespace bench
