// The CUDA driver API entry points Halide's runtime gets (its weak hook halide_cuda_get_symbol): libcuda's own, with
// cuModuleGetFunction and cuLaunchKernel wrapped so that, when the kernel log asks (kernel_log.h), every launch is
// recorded with its kernel name, grid, block, dynamic + static shared memory, registers and local (spill) memory per
// thread (cuFuncGetAttribute), and, when it asks for times, timed with a pair of CUDA events recorded on the launch's
// stream around it (read back when the log is taken). Otherwise the wrappers only pass the call through.
// The driver library is the one Halide's runtime would open ("libcuda.so", then "libcuda.so.1", which driver-only
// installs ship); no CUDA header is needed.
#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/kernel_log.h"

namespace harness {

namespace cu_shim {

using CUresult = int;
using CUfunction = void *;
using CUmodule = void *;
using CUstream = void *;
using CUevent = void *;
using CUcontext = void *;

struct Api {
    CUresult (*module_get_function)(CUfunction *, CUmodule, const char *) = nullptr;
    CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                       void **, void **) = nullptr;
    CUresult (*func_attribute)(int *, int, CUfunction) = nullptr;
    CUresult (*event_create)(CUevent *, unsigned) = nullptr;
    CUresult (*event_record)(CUevent, CUstream) = nullptr;
    CUresult (*event_synchronize)(CUevent) = nullptr;
    CUresult (*event_elapsed)(float *, CUevent, CUevent) = nullptr;
    CUresult (*event_destroy)(CUevent) = nullptr;
    CUresult (*ctx_get_current)(CUcontext *) = nullptr;
    CUresult (*ctx_push)(CUcontext) = nullptr;
    CUresult (*ctx_pop)(CUcontext *) = nullptr;
    CUresult (*func_param_info)(CUfunction, size_t, size_t *, size_t *) = nullptr;  // CUDA 12.4 and later
};

void *library() {
    static void *lib = [] {
        void *h = dlopen("libcuda.so", RTLD_LAZY | RTLD_LOCAL);
        return h ? h : dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    }();
    return lib;
}

const Api &api() {
    static const Api a = [] {
        Api x;
        const auto get = [](auto &fn, const char *name) {
            fn = library() ? reinterpret_cast<std::decay_t<decltype(fn)>>(dlsym(library(), name)) : nullptr;
        };
        get(x.module_get_function, "cuModuleGetFunction");
        get(x.launch, "cuLaunchKernel");
        get(x.func_attribute, "cuFuncGetAttribute");
        get(x.func_param_info, "cuFuncGetParamInfo");
        get(x.event_create, "cuEventCreate");
        get(x.event_record, "cuEventRecord");
        get(x.event_synchronize, "cuEventSynchronize");
        get(x.event_elapsed, "cuEventElapsedTime");
        get(x.event_destroy, "cuEventDestroy_v2");
        get(x.ctx_get_current, "cuCtxGetCurrent");
        get(x.ctx_push, "cuCtxPushCurrent_v2");
        get(x.ctx_pop, "cuCtxPopCurrent_v2");
        return x;
    }();
    return a;
}

struct Pending {
    CUcontext ctx;
    CUevent start, end;
    size_t index;
};

// Never destroyed: Halide's runtime may still call through the wrappers while the process exits.
std::mutex &mutex = *new std::mutex;
std::unordered_map<CUfunction, std::string> &names = *new std::unordered_map<CUfunction, std::string>;
std::vector<Pending> &pending = *new std::vector<Pending>;

int64_t attribute(CUfunction f, int which) {
    int v = 0;
    if (!api().func_attribute || api().func_attribute(&v, which, f) != 0) return -1;
    return v;
}

// The kernel's parameter count (cuFuncGetParamInfo answers for indices below it), -1 where the driver is older;
// asked once per function.
std::unordered_map<CUfunction, int64_t> &param_counts = *new std::unordered_map<CUfunction, int64_t>;
int64_t parameters(CUfunction f) {
    if (!api().func_param_info) return -1;
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = param_counts.find(f);
        if (it != param_counts.end()) return it->second;
    }
    size_t offset = 0, size = 0;
    int64_t n = 0;
    while (n < 4096 && api().func_param_info(f, static_cast<size_t>(n), &offset, &size) == 0)
        n++;
    std::lock_guard<std::mutex> lock(mutex);
    param_counts[f] = n;
    return n;
}

void harvest_events() {
    std::vector<Pending> mine;
    {
        std::lock_guard<std::mutex> lock(mutex);
        mine.swap(pending);
    }
    const Api &a = api();
    for (const Pending &p : mine) {
        if (!a.ctx_push || a.ctx_push(p.ctx) != 0) continue;  // the events belong to that context
        float ms = 0;
        if (a.event_synchronize(p.end) == 0 && a.event_elapsed(&ms, p.start, p.end) == 0) set_launch_time(p.index, ms);
        a.event_destroy(p.start);
        a.event_destroy(p.end);
        CUcontext popped = nullptr;
        a.ctx_pop(&popped);
    }
}

CUresult module_get_function(CUfunction *f, CUmodule m, const char *name) {
    const CUresult r = api().module_get_function(f, m, name);
    if (r == 0 && f && name) {
        std::lock_guard<std::mutex> lock(mutex);
        names[*f] = name;
    }
    return r;
}

CUresult launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                unsigned shared, CUstream stream, void **params, void **extra) {
    const Api &a = api();
    if (!kernel_recording()) return a.launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
    KernelLaunch l;
    l.runtime = "cuda";
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto it = names.find(f);
        l.kernel = it == names.end() ? "?" : it->second;
    }
    const uint64_t grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    for (int d = 0; d < 3; d++) {
        l.local[d] = block[d];
        l.global[d] = grid[d] * block[d];
    }
    const int64_t static_shared = attribute(f, 1);  // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
    l.local_mem_bytes = static_cast<int64_t>(shared) + (static_shared > 0 ? static_shared : 0);
    l.private_mem_bytes = attribute(f, 3);      // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: spills, per thread
    l.registers = attribute(f, 4);              // CU_FUNC_ATTRIBUTE_NUM_REGS
    l.kernel_max_work_group = attribute(f, 0);  // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    l.arguments = parameters(f);
    const size_t index = record_kernel_launch(l);
    Pending p{nullptr, nullptr, nullptr, index};
    const bool timed = kernel_timing() && a.event_create && a.event_record && a.ctx_get_current &&
                       a.ctx_get_current(&p.ctx) == 0 && a.event_create(&p.start, 0) == 0 &&
                       a.event_create(&p.end, 0) == 0 && a.event_record(p.start, stream) == 0;
    const CUresult r = a.launch(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
    if (timed && r == 0 && a.event_record(p.end, stream) == 0) {
        std::lock_guard<std::mutex> lock(mutex);
        pending.push_back(p);
    } else if (timed) {
        a.event_destroy(p.start);
        a.event_destroy(p.end);
    }
    return r;
}

}  // namespace cu_shim

}  // namespace harness

// Halide's CUDA runtime looks every driver function up through this weak hook (src/runtime/cuda.cpp).
extern "C" void *halide_cuda_get_symbol(void *, const char *name) {
    void *lib = harness::cu_shim::library();
    if (!lib) return nullptr;
    void *sym = dlsym(lib, name);
    if (!sym) return nullptr;
    static std::once_flag once;
    std::call_once(once, [] { harness::add_kernel_time_harvester(harness::cu_shim::harvest_events); });
    if (std::strcmp(name, "cuModuleGetFunction") == 0 && harness::cu_shim::api().module_get_function) {
        return reinterpret_cast<void *>(&harness::cu_shim::module_get_function);
    }
    if (std::strcmp(name, "cuLaunchKernel") == 0 && harness::cu_shim::api().launch) {
        return reinterpret_cast<void *>(&harness::cu_shim::launch);
    }
    return sym;
}
