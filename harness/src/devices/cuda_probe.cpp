// The CUDA probe: dlopen()s the driver and asks it for its version and devices through a few driver API
// entry points (declared here as plain function types).
#include "devices/cuda_probe.h"

#include <dlfcn.h>

#include <string>

#include "devices/probe_in_child.h"

namespace harness {

namespace {

nlohmann::json probe_cuda_here() {
    nlohmann::json out{{"driver", nullptr}, {"devices", nlohmann::json::array()}};
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        out["error"] = "no NVIDIA driver (libcuda.so.1 not found)";
        return out;
    }
    out["driver"] = "libcuda.so.1";
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int *);
    using VersionFn = int (*)(int *);
    using GetFn = int (*)(int *, int);
    using NameFn = int (*)(char *, int, int);
    using AttrFn = int (*)(int *, int, int);
    using MemFn = int (*)(size_t *, int);
    auto init = probe_symbol<InitFn>(lib, "cuInit");
    auto count_fn = probe_symbol<CountFn>(lib, "cuDeviceGetCount");
    auto version_fn = probe_symbol<VersionFn>(lib, "cuDriverGetVersion");
    auto get = probe_symbol<GetFn>(lib, "cuDeviceGet");
    auto name_fn = probe_symbol<NameFn>(lib, "cuDeviceGetName");
    auto attr = probe_symbol<AttrFn>(lib, "cuDeviceGetAttribute");
    auto mem = probe_symbol<MemFn>(lib, "cuDeviceTotalMem_v2");
    if (!init || !count_fn || !get || !name_fn) {
        out["error"] = "libcuda.so.1 lacks cuInit/cuDeviceGetCount; reinstall the NVIDIA driver";
        return out;
    }
    const int err = init(0);
    if (err != 0) {
        out["error"] = "cuInit failed with CUresult " + std::to_string(err) + " (no usable NVIDIA GPU)";
        return out;
    }
    int version = 0;
    if (version_fn) version_fn(&version);
    out["driver_version"] = version;
    int n = 0;
    count_fn(&n);
    for (int i = 0; i < n; i++) {
        int dev = 0;
        get(&dev, i);
        char name[256] = {0};
        name_fn(name, sizeof name - 1, dev);
        int major = 0, minor = 0;
        if (attr) {
            attr(&major, 75, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
            attr(&minor, 76, dev);  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
        }
        size_t bytes = 0;
        if (mem) mem(&bytes, dev);
        out["devices"].push_back({{"name", name},
                                  {"compute_capability", std::to_string(major) + "." + std::to_string(minor)},
                                  {"global_mem_bytes", bytes}});
    }
    if (n == 0) out["error"] = "the NVIDIA driver reports no CUDA device";
    return out;
}

ProbeOnce &cuda_probe_once() {
    static ProbeOnce probe(probe_cuda_here, "CUDA");  // once per process
    return probe;
}

}  // namespace

void start_probe_cuda() {
    cuda_probe_once().start();
}

nlohmann::json probe_cuda() {
    return cuda_probe_once().get();
}

}  // namespace harness
