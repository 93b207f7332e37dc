// The OpenCL probe: every platform and device the ICD loader reports, with what the harness needs to pick
// the device Halide will use (runtime_availability.h) and to check a pipeline's required extensions.
#include "devices/opencl_probe.h"

#include <cstring>
#include <string>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "devices/opencl_loader.h"
#include "devices/probe_in_child.h"

namespace harness {

namespace {

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

ProbeOnce &opencl_probe_once() {
    static ProbeOnce probe(probe_opencl_here, "OpenCL");  // once per process
    return probe;
}

}  // namespace

void start_probe_opencl() {
    opencl_probe_once().start();
}

nlohmann::json probe_opencl() {
    return opencl_probe_once().get();
}

}  // namespace harness
