// BM_memcpy: the copy rooflines, measured once at start-up (JSON context copy_bw_GBps.*) and
// registered as benchmarks of their own.
//   BM_memcpy/host/threads:<n>/<MiB>             host memcpy, 1 and all threads: the CPU roofline
//   BM_memcpy/host-store-loop/threads:<n>/<MiB>  the same copy with ordinary stores (what a Halide
//                                                pipeline emits), to show what the roofline costs them
//   BM_memcpy/<runtime>/device/<MiB>             device-to-device copy of each GPU runtime that runs here
// BM_memcpy's pct_of_copy_bw compares with the start-up measurement: how steady the machine was.
#pragma once
#include <map>
#include <string>

namespace bench {

struct DeviceName {
    std::string device, driver;
};

// Measures the rooflines now and registers the BM_memcpy benchmarks: host ones on `cpu_model`, one
// device copy per entry of `gpu_runtimes` (runtime -> the device it runs on).
void register_memcpy_benchmarks(const std::string &cpu_model, const std::map<std::string, DeviceName> &gpu_runtimes);

}  // namespace bench
