// The OpenCL entry points Halide's runtime gets (its weak hook halide_opencl_get_symbol): the harness's one
// loader's (opencl_loader.h), with a few wrapped so that
//   - an active device personality (device_personality.h) answers the device and kernel queries
//     (work-group size and item sizes, local memory, extensions, the preferred work-group multiple, which
//     is the subgroup width) and refuses, as the device's driver would, a program that uses fp64 on a
//     device without it (clBuildProgram) and a launch whose work-group or local memory exceeds the
//     device's (clEnqueueNDRangeKernel), with a message naming the kernel, what it needs and the limit;
//   - launches are recorded with their shape and resources when kernel_log.h asks, and timed with
//     profiling events (the queue is made with CL_QUEUE_PROFILING_ENABLE) when it asks for times;
//   - with the kernel cache on (opencl_kernel_cache.h), an idle kernel is reused instead of made anew.
// With none of these, every wrapper only passes the call through.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/cl.h>

#include "devices/device_personality.h"
#include "devices/kernel_log.h"
#include "devices/opencl_interpose.h"
#include "devices/opencl_kernel_cache.h"
#include "devices/opencl_loader.h"

namespace harness {

// Named, not anonymous: unity builds compile several of the layer's files as one.
namespace cl_shim {

// The loader's functions: opencl_interpose.h.
struct ProgramState {
    std::string source;
    std::string refusal;  // the build log of a program the personality refused ("" = not refused)
};
struct KernelState {
    std::string name;
    std::map<cl_uint, size_t> local_args;  // __local pointer arguments: index -> bytes (clSetKernelArg, NULL value)
};

// Never destroyed: Halide's runtime releases its programs from a destructor at exit, through these wrappers.
std::mutex &state_mutex = *new std::mutex;
std::map<cl_program, ProgramState> &programs = *new std::map<cl_program, ProgramState>;
std::map<cl_kernel, KernelState> &kernels = *new std::map<cl_kernel, KernelState>;
// Profiling events not read yet, with their launch's index.
std::vector<std::pair<cl_event, size_t>> &pending = *new std::vector<std::pair<cl_event, size_t>>;

// The device a queue runs on.
cl_device_id queue_device(cl_command_queue q) {
    cl_device_id d = nullptr;
    if (real().queue_info) real().queue_info(q, CL_QUEUE_DEVICE, sizeof d, &d, nullptr);
    return d;
}

template<typename T>
int64_t kernel_query(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what) {
    T v{};
    if (!real().kernel_work_group_info ||
        real().kernel_work_group_info(k, d, what, sizeof v, &v, nullptr) != CL_SUCCESS)
        return -1;
    return static_cast<int64_t>(v);
}

// Reads the profiling events of every timed launch (waiting for them), then releases them.
void harvest_events() {
    std::vector<std::pair<cl_event, size_t>> mine;
    {
        std::lock_guard<std::mutex> lock(state_mutex);
        mine.swap(pending);
    }
    for (const auto &[ev, index] : mine) {
        cl_ulong start = 0, end = 0;
        if (real().wait_for_events(1, &ev) == CL_SUCCESS &&
            real().event_profiling_info(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS &&
            real().event_profiling_info(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS &&
            end >= start) {
            set_launch_time(index, static_cast<double>(end - start) / 1e6);
        }
        real().release_event(ev);
    }
}

// Whether launches need their kernel's name and __local arguments: a personality checks them, the log
// records them. Otherwise the kernel wrappers only pass calls through (no lock, no query per launch).
bool tracking() {
    return active_device_personality() || kernel_recording();
}

cl_int release_kernel_really(cl_kernel k) {
    cl_uint refs = 0;
    if (tracking() && real().kernel_info(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS &&
        refs <= 1) {
        std::lock_guard<std::mutex> lock(state_mutex);
        kernels.erase(k);
    }
    return real().release_kernel(k);
}

// ---- the wrappers ----

cl_command_queue CL_API_CALL create_queue(cl_context c, cl_device_id d, cl_command_queue_properties props,
                                          cl_int *err) {
    if (kernel_timing()) props |= CL_QUEUE_PROFILING_ENABLE;
    return real().create_queue(c, d, props, err);
}

cl_command_queue CL_API_CALL create_queue_with_properties(cl_context c, cl_device_id d, const QueueProperties *props,
                                                          cl_int *err) {
    if (!kernel_timing()) return real().create_queue_with_properties(c, d, props, err);
    std::vector<QueueProperties> list;
    bool found = false;
    for (size_t i = 0; props && props[i] != 0; i += 2) {
        list.push_back(props[i]);
        list.push_back(props[i] == CL_QUEUE_PROPERTIES ? (props[i + 1] | CL_QUEUE_PROFILING_ENABLE) : props[i + 1]);
        found |= props[i] == CL_QUEUE_PROPERTIES;
    }
    if (!found) list.insert(list.end(), {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE});
    list.push_back(0);
    return real().create_queue_with_properties(c, d, list.data(), err);
}

cl_program CL_API_CALL create_program(cl_context c, cl_uint count, const char **strings, const size_t *lengths,
                                      cl_int *err) {
    cl_program prog = real().create_program(c, count, strings, lengths, err);
    if (prog && active_device_personality()) {
        std::string src;
        for (cl_uint i = 0; i < count; i++)
            src += lengths && lengths[i] ? std::string(strings[i], lengths[i]) : std::string(strings[i]);
        std::lock_guard<std::mutex> lock(state_mutex);
        programs[prog].source = std::move(src);
    }
    return prog;
}

cl_int CL_API_CALL build_program(cl_program prog, cl_uint ndev, const cl_device_id *devs, const char *options,
                                 void(CL_CALLBACK *notify)(cl_program, void *), void *data) {
    const DevicePersonality *p = active_device_personality();
    if (p && !p->fp64) {
        std::unique_lock<std::mutex> lock(state_mutex);
        const auto it = programs.find(prog);
        const std::string users = it == programs.end() ? "" : kernels_using_double(it->second.source);
        if (!users.empty()) {
            const std::string msg = "kernel " + users + " uses fp64 (the double type), which " + p->label() +
                                    " does not support (no cl_khr_fp64): its driver fails clBuildProgram "
                                    "(CL_BUILD_PROGRAM_FAILURE)";
            it->second.refusal = "error: the double type without cl_khr_fp64 (kernel " + users + ")\n";
            lock.unlock();
            set_device_limit_violation(msg);
            return CL_BUILD_PROGRAM_FAILURE;
        }
    }
    return real().build_program(prog, ndev, devs, options, notify, data);
}

cl_int CL_API_CALL program_build_info(cl_program prog, cl_device_id d, cl_program_build_info what, size_t size,
                                      void *value, size_t *size_ret) {
    if (what == CL_PROGRAM_BUILD_LOG) {
        std::unique_lock<std::mutex> lock(state_mutex);
        const auto it = programs.find(prog);
        if (it != programs.end() && !it->second.refusal.empty()) {
            const std::string log = it->second.refusal;
            lock.unlock();
            return answer_info(log.c_str(), log.size() + 1, size, value, size_ret);
        }
    }
    return real().program_build_info(prog, d, what, size, value, size_ret);
}

cl_int CL_API_CALL release_program(cl_program prog) {
    for (cl_kernel k : kernel_cache_drop_program(prog))
        release_kernel_really(k);
    cl_uint refs = 0;
    if (tracking() &&
        real().program_info(prog, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS && refs <= 1) {
        std::lock_guard<std::mutex> lock(state_mutex);
        programs.erase(prog);
    }
    return real().release_program(prog);
}

cl_kernel CL_API_CALL create_kernel(cl_program prog, const char *name, cl_int *err) {
    const bool cache = opencl_kernel_cache_on();
    cl_kernel k = cache ? kernel_cache_take(prog, name) : nullptr;
    if (k) {
        if (err) *err = CL_SUCCESS;
    } else {
        k = real().create_kernel(prog, name, err);
        if (k && cache) kernel_cache_add(prog, name, k);
    }
    if (k && tracking()) {
        std::lock_guard<std::mutex> lock(state_mutex);
        auto &state = kernels[k];
        state.name = name ? name : "?";
        state.local_args.clear();
    }
    return k;
}

cl_int CL_API_CALL release_kernel(cl_kernel k) {
    if (kernel_cache_give_back(k)) return CL_SUCCESS;  // kept for the next launch of its program and name
    return release_kernel_really(k);
}

cl_int CL_API_CALL set_kernel_arg(cl_kernel k, cl_uint index, size_t size, const void *value) {
    const cl_int e = real().set_kernel_arg(k, index, size, value);
    if (e == CL_SUCCESS && tracking()) {
        std::lock_guard<std::mutex> lock(state_mutex);
        const auto it = kernels.find(k);
        if (it != kernels.end()) {
            if (!value && size > 0) {
                it->second.local_args[index] = size;
            } else {
                it->second.local_args.erase(index);
            }
        }
    }
    return e;
}

cl_int CL_API_CALL enqueue(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *offset, const size_t *global,
                           const size_t *local, cl_uint nwait, const cl_event *wait, cl_event *event) {
    const DevicePersonality *p = active_device_personality();
    const bool record = kernel_recording();
    if (!p && !record) return real().enqueue(q, k, dims, offset, global, local, nwait, wait, event);
    KernelLaunch l;
    l.runtime = "opencl";
    uint64_t dynamic_local = 0;
    {
        std::lock_guard<std::mutex> lock(state_mutex);
        const auto it = kernels.find(k);
        l.kernel = it == kernels.end() ? "?" : it->second.name;
        if (it != kernels.end()) {
            for (const auto &[i, bytes] : it->second.local_args)
                dynamic_local += bytes;
        }
    }
    for (cl_uint i = 0; i < dims && i < 3; i++) {
        l.global[i] = global ? global[i] : 1;
        l.local[i] = local ? local[i] : 1;
    }
    const cl_device_id dev = queue_device(q);
    // The kernel's whole local memory (static __local variables and __local arguments): the driver's
    // CL_KERNEL_LOCAL_MEM_SIZE, at least the __local arguments set on it.
    l.local_mem_bytes = std::max<int64_t>(kernel_query<cl_ulong>(k, dev, CL_KERNEL_LOCAL_MEM_SIZE),
                                          static_cast<int64_t>(dynamic_local));
    if (p && local) {
        const uint64_t items = l.local[0] * l.local[1] * l.local[2];
        const std::string shape = shape_text(l.local);
        std::string msg;
        cl_int refusal = CL_SUCCESS;
        for (int i = 0; i < 3 && msg.empty(); i++) {
            if (l.local[i] > p->cl_max_work_item_sizes[i]) {
                msg = "kernel '" + l.kernel + "' needs a " + shape + " work-group (" + std::to_string(l.local[i]) +
                      " work-items in dimension " + std::to_string(i) + "); " + p->label() + " allows at most " +
                      std::to_string(p->cl_max_work_item_sizes[i]) +
                      " (CL_DEVICE_MAX_WORK_ITEM_SIZES): its driver refuses the launch with CL_INVALID_WORK_ITEM_SIZE";
                refusal = CL_INVALID_WORK_ITEM_SIZE;
            }
        }
        if (msg.empty() && items > p->cl_max_work_group_size) {
            msg = "kernel '" + l.kernel + "' needs a " + shape + " work-group (" + std::to_string(items) +
                  " work-items); " + p->label() + " allows at most " + std::to_string(p->cl_max_work_group_size) +
                  " (CL_DEVICE_MAX_WORK_GROUP_SIZE): its driver refuses the launch with CL_INVALID_WORK_GROUP_SIZE";
            refusal = CL_INVALID_WORK_GROUP_SIZE;
        }
        if (msg.empty() && l.local_mem_bytes > static_cast<int64_t>(p->cl_local_mem_size)) {
            msg = "kernel '" + l.kernel + "' needs " + std::to_string(l.local_mem_bytes) + " bytes of local memory; " +
                  p->label() + " has " + std::to_string(p->cl_local_mem_size) +
                  " (CL_DEVICE_LOCAL_MEM_SIZE): its driver refuses the launch with CL_OUT_OF_RESOURCES";
            refusal = CL_OUT_OF_RESOURCES;
        }
        if (refusal != CL_SUCCESS) {
            set_device_limit_violation(msg);
            return refusal;
        }
    }
    if (!record) return real().enqueue(q, k, dims, offset, global, local, nwait, wait, event);
    l.private_mem_bytes = kernel_query<cl_ulong>(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE);
    l.kernel_max_work_group = kernel_query<size_t>(k, dev, CL_KERNEL_WORK_GROUP_SIZE);
    if (p && l.kernel_max_work_group > static_cast<int64_t>(p->cl_max_work_group_size))
        l.kernel_max_work_group = static_cast<int64_t>(p->cl_max_work_group_size);
    // Each argument is set again on every launch (Halide 21 makes a cl_kernel per launch), and an int argument of a
    // new kernel object costs NVIDIA's OpenCL about 0.2-0.27 us a launch (gpu-launch-probe): worth showing.
    cl_uint num_args = 0;
    if (real().kernel_info &&
        real().kernel_info(k, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, nullptr) == CL_SUCCESS)
        l.arguments = num_args;
    const size_t index = record_kernel_launch(l);
    if (!kernel_timing()) return real().enqueue(q, k, dims, offset, global, local, nwait, wait, event);
    cl_event mine = nullptr;
    const cl_int e = real().enqueue(q, k, dims, offset, global, local, nwait, wait, event ? event : &mine);
    if (e == CL_SUCCESS) {
        cl_event ev = event ? *event : mine;
        if (event) real().retain_event(ev);
        bool full = false;
        {
            std::lock_guard<std::mutex> lock(state_mutex);
            pending.emplace_back(ev, index);
            full = pending.size() >= 4096;
        }
        if (full) harvest_events();  // keeps the events alive at most a few thousand launches
    }
    return e;
}

struct Wrapper {
    const char *name;
    void *fn;
};

const Wrapper kWrappers[] = {
    {"clGetDeviceInfo", reinterpret_cast<void *>(&get_device_info)},
    {"clGetKernelWorkGroupInfo", reinterpret_cast<void *>(&kernel_work_group_info)},
    {"clCreateCommandQueue", reinterpret_cast<void *>(&create_queue)},
    {"clCreateCommandQueueWithProperties", reinterpret_cast<void *>(&create_queue_with_properties)},
    {"clCreateProgramWithSource", reinterpret_cast<void *>(&create_program)},
    {"clBuildProgram", reinterpret_cast<void *>(&build_program)},
    {"clGetProgramBuildInfo", reinterpret_cast<void *>(&program_build_info)},
    {"clReleaseProgram", reinterpret_cast<void *>(&release_program)},
    {"clCreateKernel", reinterpret_cast<void *>(&create_kernel)},
    {"clReleaseKernel", reinterpret_cast<void *>(&release_kernel)},
    {"clSetKernelArg", reinterpret_cast<void *>(&set_kernel_arg)},
    {"clEnqueueNDRangeKernel", reinterpret_cast<void *>(&enqueue)},
};

}  // namespace cl_shim

}  // namespace harness

// Halide's runtime looks every OpenCL function up through this weak hook (src/runtime/opencl.cpp). Its own
// only tries "libOpenCL.so"; the harness's one loader (opencl_loader.h) also tries "libOpenCL.so.1", which
// devices and plain installs ship. A wrapped function is handed out only when the loader has the real one.
extern "C" void *halide_opencl_get_symbol(void *, const char *name) {
    void *sym = harness::opencl_symbol(name);
    if (!sym) return nullptr;
    static std::once_flag once;
    std::call_once(once, [] { harness::add_kernel_time_harvester(harness::cl_shim::harvest_events); });
    for (const auto &w : harness::cl_shim::kWrappers) {
        if (std::strcmp(w.name, name) == 0) return w.fn;
    }
    return sym;
}
