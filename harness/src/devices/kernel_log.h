// What the interposed runtimes saw of each kernel: its resources (work-group size, local/shared memory,
// private memory or registers where the driver reports them) and, when timing is on, every launch's
// device time (OpenCL profiling events, CUDA events, Vulkan timestamp queries). `describe --resources`
// and `bench --kernels` read it in a child; the interposers (opencl_interpose.cpp, cuda_interpose.cpp,
// vulkan_interpose.cpp) write it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// One kernel launch as the driver was asked for it.
struct KernelLaunch {
    std::string runtime;                 // opencl, cuda, vulkan
    std::string kernel;                  // the entry point's name
    uint64_t global[3] = {1, 1, 1};      // work-items (threads) in each dimension
    uint64_t local[3] = {1, 1, 1};       // the work-group (block) shape
    int64_t local_mem_bytes = -1;        // local/shared memory the launch allocates (-1 = unknown)
    int64_t private_mem_bytes = -1;      // per work-item private memory (OpenCL CL_KERNEL_PRIVATE_MEM_SIZE, CUDA local)
    int64_t registers = -1;              // registers per thread (CUDA), -1 where the driver does not say
    int64_t kernel_max_work_group = -1;  // the driver's per-kernel limit (CL_KERNEL_WORK_GROUP_SIZE, CUDA max threads)
    int64_t arguments = -1;  // the kernel's arguments (CL_KERNEL_NUM_ARGS, cuFuncGetParamInfo; -1 = unknown)
    double device_ms = -1;   // device time (-1 = not measured)
};

// Switches (process-wide): record launches at all; time them (the interposers then create queues with
// profiling, events or timestamp queries). Timing must be on before the runtime makes its queue.
void set_kernel_recording(bool record);
bool kernel_recording();
void set_kernel_timing(bool time);
bool kernel_timing();

// Adds a launch (the interposers call it). Returns its index, for set_launch_time.
size_t record_kernel_launch(const KernelLaunch &launch);
// The device time of launch `index` once it is known.
void set_launch_time(size_t index, double device_ms);

// Every runtime's pending timings, made known (the interposers register their harvesters: waiting on
// outstanding events), then the launches since the last call, and clears them.
std::vector<KernelLaunch> take_kernel_launches();
// A harvester: called by take_kernel_launches before it reads.
void add_kernel_time_harvester(const std::function<void()> &harvest);

// Why a runtime's launches carry no device time, if it says so (e.g. Vulkan without timestamp support).
void set_kernel_timing_note(const std::string &runtime, const std::string &note);
std::string kernel_timing_note(const std::string &runtime);

// Launches grouped per kernel name in first-seen order: launches, device time total (ms, -1 if any launch
// was not timed), the first launch's shape and resources. `calls`: pipeline calls the launches came from.
nlohmann::json summarize_kernel_launches(const std::vector<KernelLaunch> &launches, double calls);

// "32x32" / "256" / "8x4x2": a shape without trailing 1s.
std::string shape_text(const uint64_t s[3]);

}  // namespace harness
