#include "harness/opencl_info.h"

#include <dlfcn.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>

#include "harness/vulkan_info.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "harness/opencl_loader.h"

namespace harness {

namespace {

// Runs `fn` in a forked child and returns the JSON it produced; a child that dies or prints
// garbage becomes {"error": ...}. Only async-signal-safe work happens in the parent.
nlohmann::json in_child(const std::function<nlohmann::json()> &fn, const char *what) {
    int fds[2];
    if (pipe(fds) != 0) return {{"error", std::string("pipe failed: ") + std::strerror(errno)}};
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return {{"error", std::string("fork failed: ") + std::strerror(errno)}};
    }
    if (pid == 0) {
        close(fds[0]);
        std::string out;
        try {
            out = fn().dump();
        } catch (const std::exception &e) {
            out = nlohmann::json{{"error", e.what()}}.dump();
        }
        const char *p = out.data();
        size_t left = out.size();
        while (left > 0) {
            const ssize_t n = write(fds[1], p, left);
            if (n <= 0) break;
            p += n;
            left -= static_cast<size_t>(n);
        }
        _exit(0);  // no atexit handlers, no driver teardown
    }
    close(fds[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        text.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        return {{"error", std::string(what) + " probe died with signal " + strsignal(WTERMSIG(status))}};
    }
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &) {
        return {{"error", std::string(what) + " probe produced no result"}};
    }
}

// A CUDA driver symbol as a function pointer.
template<typename F>
F sym(void *lib, const char *name) {
    return reinterpret_cast<F>(dlsym(lib, name));
}

struct Cl {
    decltype(&clGetPlatformIDs) get_platform_ids;
    decltype(&clGetPlatformInfo) get_platform_info;
    decltype(&clGetDeviceIDs) get_device_ids;
    decltype(&clGetDeviceInfo) get_device_info;
};

std::string platform_string(const Cl &cl, cl_platform_id p, cl_platform_info what) {
    char buf[1024] = {0};
    if (cl.get_platform_info(p, what, sizeof buf - 1, buf, nullptr) != CL_SUCCESS) return "";
    return buf;
}

std::string device_string(const Cl &cl, cl_device_id d, cl_device_info what) {
    size_t size = 0;
    if (cl.get_device_info(d, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string s(size, '\0');
    if (cl.get_device_info(d, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
    s.resize(std::strlen(s.c_str()));
    return s;
}

template<typename T>
T device_value(const Cl &cl, cl_device_id d, cl_device_info what) {
    T v{};
    cl.get_device_info(d, what, sizeof v, &v, nullptr);
    return v;
}

std::string device_type_name(cl_device_type t) {
    std::string s;
    if (t & CL_DEVICE_TYPE_CPU) s += "cpu ";
    if (t & CL_DEVICE_TYPE_GPU) s += "gpu ";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) s += "accelerator ";
    if (s.empty()) return "other";
    s.pop_back();
    return s;
}

nlohmann::json probe_opencl_here() {
    nlohmann::json out{{"loader", nullptr}, {"platforms", nlohmann::json::array()}};
    if (!opencl_loader_name()) {
        out["error"] = "no OpenCL ICD loader (libOpenCL.so.1) found; install ocl-icd-libopencl1 and a driver";
        return out;
    }
    out["loader"] = opencl_loader_name();
    Cl cl{opencl_function<decltype(cl.get_platform_ids)>("clGetPlatformIDs"),
          opencl_function<decltype(cl.get_platform_info)>("clGetPlatformInfo"),
          opencl_function<decltype(cl.get_device_ids)>("clGetDeviceIDs"),
          opencl_function<decltype(cl.get_device_info)>("clGetDeviceInfo")};
    if (!cl.get_platform_ids || !cl.get_platform_info || !cl.get_device_ids || !cl.get_device_info) {
        out["error"] = "the OpenCL loader lacks clGetPlatformIDs/clGetDeviceInfo; reinstall ocl-icd-libopencl1";
        return out;
    }
    cl_uint count = 0;
    cl_int err = cl.get_platform_ids(0, nullptr, &count);
    if (err != CL_SUCCESS || count == 0) {
        out["error"] = "no OpenCL platform found (clGetPlatformIDs returned " + std::to_string(err) +
                       "); install a driver such as pocl-opencl-icd or check OCL_ICD_VENDORS";
        return out;
    }
    std::vector<cl_platform_id> platforms(count);
    cl.get_platform_ids(count, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
        nlohmann::json pj{{"name", platform_string(cl, p, CL_PLATFORM_NAME)},
                          {"vendor", platform_string(cl, p, CL_PLATFORM_VENDOR)},
                          {"version", platform_string(cl, p, CL_PLATFORM_VERSION)},
                          {"devices", nlohmann::json::array()}};
        cl_uint ndev = 0;
        if (cl.get_device_ids(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev) == CL_SUCCESS && ndev > 0) {
            std::vector<cl_device_id> devs(ndev);
            cl.get_device_ids(p, CL_DEVICE_TYPE_ALL, ndev, devs.data(), nullptr);
            for (cl_device_id d : devs) {
                pj["devices"].push_back({
                    {"name", device_string(cl, d, CL_DEVICE_NAME)},
                    {"vendor", device_string(cl, d, CL_DEVICE_VENDOR)},
                    {"version", device_string(cl, d, CL_DEVICE_VERSION)},
                    {"driver_version", device_string(cl, d, CL_DRIVER_VERSION)},
                    {"opencl_c_version", device_string(cl, d, CL_DEVICE_OPENCL_C_VERSION)},
                    {"type", device_type_name(device_value<cl_device_type>(cl, d, CL_DEVICE_TYPE))},
                    {"extensions", device_string(cl, d, CL_DEVICE_EXTENSIONS)},
                    {"compute_units", device_value<cl_uint>(cl, d, CL_DEVICE_MAX_COMPUTE_UNITS)},
                    {"global_mem_bytes", device_value<cl_ulong>(cl, d, CL_DEVICE_GLOBAL_MEM_SIZE)},
                    {"local_mem_bytes", device_value<cl_ulong>(cl, d, CL_DEVICE_LOCAL_MEM_SIZE)},
                    {"max_work_group_size", device_value<size_t>(cl, d, CL_DEVICE_MAX_WORK_GROUP_SIZE)},
                });
            }
        }
        out["platforms"].push_back(pj);
    }
    return out;
}

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
    auto init = sym<InitFn>(lib, "cuInit");
    auto count_fn = sym<CountFn>(lib, "cuDeviceGetCount");
    auto version_fn = sym<VersionFn>(lib, "cuDriverGetVersion");
    auto get = sym<GetFn>(lib, "cuDeviceGet");
    auto name_fn = sym<NameFn>(lib, "cuDeviceGetName");
    auto attr = sym<AttrFn>(lib, "cuDeviceGetAttribute");
    auto mem = sym<MemFn>(lib, "cuDeviceTotalMem_v2");
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

}  // namespace

nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what) {
    return in_child(fn, what);
}

nlohmann::json probe_opencl() {
    static const nlohmann::json result = in_child(probe_opencl_here, "OpenCL");  // once per process
    return result;
}

nlohmann::json probe_cuda() {
    static const nlohmann::json result = in_child(probe_cuda_here, "CUDA");
    return result;
}

std::string runtime_unavailable_reason(const std::string &runtime, const nlohmann::json &opencl,
                                       const nlohmann::json &cuda, nlohmann::json *selected) {
    if (runtime == "none") return "";
    if (runtime == "cuda") {
        if (cuda.contains("error")) return cuda["error"].get<std::string>();
        return "";
    }
    if (runtime == "vulkan") return vulkan_unavailable_reason(probe_vulkan(), selected);
    if (runtime != "opencl") return "unknown runtime '" + runtime + "'";
    if (opencl.contains("error")) return opencl["error"].get<std::string>();
    // Mirror Halide's runtime: platform = first whose name contains HL_OCL_PLATFORM_NAME (or the
    // first), devices of the types in HL_OCL_DEVICE_TYPE (cpu/gpu/acc; default all).
    const char *want_platform = std::getenv("HL_OCL_PLATFORM_NAME");
    const nlohmann::json *platform = nullptr;
    std::string names;
    for (const auto &p : opencl["platforms"]) {
        const std::string name = p.value("name", "");
        names += (names.empty() ? "'" : ", '") + name + "'";
        if (!platform && (!want_platform || name.find(want_platform) != std::string::npos)) platform = &p;
    }
    if (!platform) {
        return std::string("no OpenCL platform matches HL_OCL_PLATFORM_NAME='") + want_platform +
               "' (platforms here: " + names + "); unset it or name one of those";
    }
    const char *want_type = std::getenv("HL_OCL_DEVICE_TYPE");
    std::string type_filter = want_type ? want_type : "";
    const bool any_type = type_filter.find("cpu") == std::string::npos &&
                          type_filter.find("gpu") == std::string::npos && type_filter.find("acc") == std::string::npos;
    if (!type_filter.empty() && any_type) {
        return "HL_OCL_DEVICE_TYPE='" + type_filter + "' names no device type; use cpu, gpu or acc (or unset it)";
    }
    const nlohmann::json *device = nullptr;
    for (const auto &d : (*platform)["devices"]) {
        const std::string t = d.value("type", "");
        const bool match = any_type ||
                           (type_filter.find("cpu") != std::string::npos && t.find("cpu") != std::string::npos) ||
                           (type_filter.find("gpu") != std::string::npos && t.find("gpu") != std::string::npos) ||
                           (type_filter.find("acc") != std::string::npos && t.find("accelerator") != std::string::npos);
        if (match && (!device || d.value("compute_units", 0) >= device->value("compute_units", 0))) device = &d;
    }
    if (!device) {
        return "OpenCL platform '" + (*platform).value("name", "") + "' has no device" +
               (type_filter.empty() ? std::string() : " of type '" + type_filter + "'") +
               "; set HL_OCL_DEVICE_TYPE or HL_OCL_PLATFORM_NAME to another one";
    }
    if (selected) {
        *selected = {{"platform", (*platform).value("name", "")},
                     {"platform_version", (*platform).value("version", "")},
                     {"device", device->value("name", "")},
                     {"device_version", device->value("version", "")},
                     {"driver_version", device->value("driver_version", "")},
                     {"extensions", device->value("extensions", "")}};
    }
    return "";
}

std::string missing_extensions_reason(const std::vector<std::string> &required, const nlohmann::json &selected) {
    if (required.empty() || !selected.is_object()) return "";
    const std::string have = " " + selected.value("extensions", std::string()) + " ";
    std::string missing;
    for (const auto &ext : required) {
        if (have.find(" " + ext + " ") == std::string::npos) missing += (missing.empty() ? "" : ", ") + ext;
    }
    if (missing.empty()) return "";
    return "OpenCL device '" + selected.value("device", std::string("?")) + "' lacks " + missing +
           ", which this pipeline needs; run it on a device that reports it";
}

}  // namespace harness
