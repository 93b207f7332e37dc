// The calibration of a benchmark block: a fixed CPU workload, the host copy and the device copy of the
// profile's runtime (the rooflines' copies, copy.h), measured at the block's start and end. A later
// comparison of runs sets a change of the benchmarks beside the change of these: a machine that got busier,
// slower or throttled moves them too, while a slower build does not (scripts/harnesslib/runs/machine.py).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "bench/copy.h"

namespace harness::perf {

// {"threads", "cpu_work_ms" (the workload split over `threads` threads of `parallel_for`, default Halide's
//  pool), "cpu_work_1t_ms" (the same work on one thread), "host_copy_GBps", "device_copy_GBps": {runtime: GB/s}
//  (per runtime of `gpu_runtimes`; "device_copy_error.<runtime>" where the copy cannot run), "seconds": what
//  the calibration took}. The best of a few repetitions each: the speed of the machine (its clocks, a thermal
//  or power cap), little moved by a neighbour's load, which the benchmark threads' wait for a CPU measures
//  instead (machine_state.h). About 0.2 s on an idle machine.
nlohmann::json calibrate(int threads, const std::vector<std::string> &gpu_runtimes,
                         const ParallelFor &parallel_for = {});

}  // namespace harness::perf
