// gpu-launch-probe: what one kernel launch + synchronisation costs with no work, on the OpenCL ICD's
// first GPU (else first device) and through the CUDA driver API, the way Halide 21's runtimes issue them and the
// cheapest way each API allows, and with as many arguments as real kernels pass (an int argument costs on
// NVIDIA's OpenCL when the kernel object is new): the floor under a small GPU pipeline call. A diagnostic run on the
// device, not a test. Per line: what was timed, then the median, 10th and 90th percentile in microseconds over `reps`
// repetitions (after a warm-up), wall clock on the host.
//
// OpenCL (src/runtime/opencl.cpp of Halide v21.0.0, halide_opencl_run): every launch is clCreateKernel,
// clSetKernelArg per argument plus one for the shared-memory size, clEnqueueNDRangeKernel and
// clReleaseKernel; halide_opencl_device_sync is clFinish; an intermediate device buffer is
// clCreateBuffer + clReleaseMemObject in every call (the OpenCL runtime has no allocation cache).
// CUDA (cuda.cpp): cuLaunchKernel on the cached CUfunction; halide_cuda_device_sync is cuCtxSynchronize.
//   gpu-launch-probe [reps]   (default 2000)
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "devices/opencl_loader.h"
#include "probe_report.h"

namespace {

using bench::report;

#define CL_FN(name) const auto name = harness::opencl_function<decltype(&::name)>(#name)

void probe_opencl(int reps) {
    CL_FN(clGetPlatformIDs);
    CL_FN(clGetDeviceIDs);
    CL_FN(clGetDeviceInfo);
    CL_FN(clCreateContext);
    CL_FN(clCreateCommandQueue);
    CL_FN(clCreateProgramWithSource);
    CL_FN(clBuildProgram);
    CL_FN(clCreateKernel);
    CL_FN(clSetKernelArg);
    CL_FN(clEnqueueNDRangeKernel);
    CL_FN(clReleaseKernel);
    CL_FN(clFinish);
    CL_FN(clCreateBuffer);
    CL_FN(clReleaseMemObject);
    CL_FN(clReleaseProgram);
    if (!clGetPlatformIDs || !clCreateKernel || !clFinish) {
        std::printf("opencl: no ICD loader (%s)\n", harness::opencl_loader_name() ? "symbols missing" : "not found");
        return;
    }
    cl_platform_id platforms[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, platforms, &np);
    cl_device_id dev = nullptr;
    for (const cl_device_type type :
         {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}}) {  // a GPU, else any (PoCL here)
        for (cl_uint i = 0; i < np && !dev; i++) {
            cl_uint nd = 0;
            if (clGetDeviceIDs(platforms[i], type, 1, &dev, &nd) != CL_SUCCESS || nd == 0) dev = nullptr;
        }
    }
    if (!dev) {
        std::printf("opencl: no device\n");
        return;
    }
    char name[256] = {0}, version[256] = {0};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof version - 1, version, nullptr);
    std::printf("opencl device: %s, driver %s\n", name, version);
    cl_int err = 0;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);  // in order, as Halide's
    const char *src =
        "__kernel void empty(__global uchar *p, const int n, __local uchar *s) { if (n < 0) p[0] = s[0]; }\n";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    if (err != CL_SUCCESS || clBuildProgram(prog, 1, &dev, nullptr, nullptr, nullptr) != CL_SUCCESS) {
        std::printf("opencl: build failed\n");
        return;
    }
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, nullptr, &err);
    const int n = 1;
    const size_t global[3] = {256, 1, 1}, local[3] = {256, 1, 1};
    cl_kernel cached = clCreateKernel(prog, "empty", &err);
    clSetKernelArg(cached, 0, sizeof buf, &buf);
    clSetKernelArg(cached, 1, sizeof n, &n);
    clSetKernelArg(cached, 2, 1, nullptr);
    const auto enqueue_cached = [&] {
        clEnqueueNDRangeKernel(q, cached, 3, nullptr, global, local, 0, nullptr, nullptr);
    };
    const auto enqueue_halide = [&](cl_mem m) {  // halide_opencl_run's calls
        cl_kernel k = clCreateKernel(prog, "empty", &err);
        clSetKernelArg(k, 0, sizeof m, &m);
        clSetKernelArg(k, 1, sizeof n, &n);
        clSetKernelArg(k, 2, 1, nullptr);
        clEnqueueNDRangeKernel(q, k, 3, nullptr, global, local, 0, nullptr, nullptr);
        clReleaseKernel(k);
    };
    report("opencl clFinish, idle queue", reps, [&] { clFinish(q); });
    report("opencl clCreateKernel + clReleaseKernel (no launch)", reps, [&] {
        cl_kernel k = clCreateKernel(prog, "empty", &err);
        clReleaseKernel(k);
    });
    report("opencl 1 launch, kernel object reused + clFinish", reps, [&] {
        enqueue_cached();
        clFinish(q);
    });
    report("opencl 1 launch as Halide 21 (create/set/enqueue/release) + clFinish", reps, [&] {
        enqueue_halide(buf);
        clFinish(q);
    });
    report("opencl 3 launches, kernel object reused + clFinish", reps, [&] {
        for (int i = 0; i < 3; i++)
            enqueue_cached();
        clFinish(q);
    });
    report("opencl 3 launches as Halide 21 + clFinish", reps, [&] {
        for (int i = 0; i < 3; i++)
            enqueue_halide(buf);
        clFinish(q);
    });
    report("opencl 1 launch as Halide 21 + clFinish twice", reps, [&] {
        enqueue_halide(buf);
        clFinish(q);
        clFinish(q);
    });
    // Kernels with B buffer and I int arguments (Halide 21's 1920x1080 stencil kernels pass 2-4 buffers and
    // 17-26 ints, plus the shared-memory size), every argument set with clSetKernelArg on every launch: what an
    // argument costs on a kernel object made for the launch (Halide 21) and on a reused one.
    for (const auto &[nb, ni] : {std::pair{1, 2}, std::pair{1, 30}, std::pair{4, 2}, std::pair{4, 26}}) {
        std::string wide_src = "__kernel void wide(";
        for (int a = 0; a < nb; a++)
            wide_src += "__global uchar *b" + std::to_string(a) + ", ";
        for (int a = 0; a < ni; a++)
            wide_src += "int i" + std::to_string(a) + ", ";
        wide_src += "__local uchar *s) { if (i" + std::to_string(ni - 1) + " < 0) b0[0] = s[0]; }\n";
        const char *wide_text = wide_src.c_str();
        cl_program wide_prog = clCreateProgramWithSource(ctx, 1, &wide_text, nullptr, &err);
        if (err != CL_SUCCESS || clBuildProgram(wide_prog, 1, &dev, nullptr, nullptr, nullptr) != CL_SUCCESS) continue;
        const auto set_wide = [&](cl_kernel k) {
            for (int a = 0; a < nb; a++)
                clSetKernelArg(k, a, sizeof buf, &buf);
            for (int a = nb; a < nb + ni; a++)
                clSetKernelArg(k, a, sizeof n, &n);
            clSetKernelArg(k, nb + ni, 1, nullptr);
        };
        const std::string what = std::to_string(nb) + " buffer(s) + " + std::to_string(ni) + " ints";
        cl_kernel wide = clCreateKernel(wide_prog, "wide", &err);
        report("opencl 1 launch, " + what + ", reused kernel object + clFinish", reps, [&] {
            set_wide(wide);
            clEnqueueNDRangeKernel(q, wide, 3, nullptr, global, local, 0, nullptr, nullptr);
            clFinish(q);
        });
        report("opencl 1 launch, " + what + ", as Halide 21 + clFinish", reps, [&] {
            cl_kernel k = clCreateKernel(wide_prog, "wide", &err);
            set_wide(k);
            clEnqueueNDRangeKernel(q, k, 3, nullptr, global, local, 0, nullptr, nullptr);
            clReleaseKernel(k);
            clFinish(q);
        });
        clReleaseKernel(wide);
        clReleaseProgram(wide_prog);
    }
    report("opencl clCreateBuffer(1 KiB) + launch on it + release + clFinish", reps, [&] {
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, nullptr, &err);
        enqueue_halide(m);
        clReleaseMemObject(m);
        clFinish(q);
    });
    clReleaseKernel(cached);
    clReleaseMemObject(buf);
}

// The CUDA driver API, declared here (no cuda.h needed to build).
using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUdeviceptr = unsigned long long;

void probe_cuda(int reps) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::printf("cuda: no driver (libcuda.so.1)\n");
        return;
    }
#define CU_FN(name, ...) const auto name = reinterpret_cast<CUresult (*)(__VA_ARGS__)>(dlsym(lib, #name))
    CU_FN(cuInit, unsigned);
    CU_FN(cuDeviceGet, CUdevice *, int);
    CU_FN(cuCtxCreate_v2, CUcontext *, unsigned, CUdevice);
    CU_FN(cuModuleLoadData, CUmodule *, const void *);
    CU_FN(cuModuleGetFunction, CUfunction *, CUmodule, const char *);
    CU_FN(cuLaunchKernel, CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
          void **, void **);
    CU_FN(cuCtxSynchronize, void);
    CU_FN(cuMemAlloc_v2, CUdeviceptr *, size_t);
    CU_FN(cuMemFree_v2, CUdeviceptr);
#undef CU_FN
    CUdevice dev = 0;
    CUcontext ctx = nullptr;
    CUmodule mod = nullptr;
    CUfunction fn = nullptr;
    const char *ptx = ".version 7.0\n.target sm_50\n.address_size 64\n"
                      ".visible .entry empty(.param .u64 p, .param .u32 n) { ret; }\n";
    if (!cuInit || cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate_v2(&ctx, 0, dev) || cuModuleLoadData(&mod, ptx) ||
        cuModuleGetFunction(&fn, mod, "empty")) {
        std::printf("cuda: set-up failed\n");
        return;
    }
    CUdeviceptr p = 0;
    cuMemAlloc_v2(&p, 1024);
    int n = 1;
    void *args[] = {&p, &n};
    const auto launch = [&] { cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr); };
    report("cuda cuCtxSynchronize, idle", reps, [&] { cuCtxSynchronize(); });
    report("cuda 1 launch + cuCtxSynchronize", reps, [&] {
        launch();
        cuCtxSynchronize();
    });
    report("cuda 3 launches + cuCtxSynchronize", reps, [&] {
        for (int i = 0; i < 3; i++)
            launch();
        cuCtxSynchronize();
    });
    // 30 arguments (4 pointers, 26 ints), as the OpenCL kernel above: cuLaunchKernel takes them in one call.
    CUfunction wide = nullptr;
    const char *wide_ptx = ".version 7.0\n.target sm_50\n.address_size 64\n"
                           ".visible .entry wide(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 d,"
                           " .param .u32 i0, .param .u32 i1, .param .u32 i2, .param .u32 i3, .param .u32 i4,"
                           " .param .u32 i5, .param .u32 i6, .param .u32 i7, .param .u32 i8, .param .u32 i9,"
                           " .param .u32 i10, .param .u32 i11, .param .u32 i12, .param .u32 i13, .param .u32 i14,"
                           " .param .u32 i15, .param .u32 i16, .param .u32 i17, .param .u32 i18, .param .u32 i19,"
                           " .param .u32 i20, .param .u32 i21, .param .u32 i22, .param .u32 i23, .param .u32 i24,"
                           " .param .u32 i25) { ret; }\n";
    CUmodule wide_mod = nullptr;
    if (!cuModuleLoadData(&wide_mod, wide_ptx) && !cuModuleGetFunction(&wide, wide_mod, "wide")) {
        std::vector<void *> wide_args;
        for (int a = 0; a < 4; a++)
            wide_args.push_back(&p);
        for (int a = 4; a < 30; a++)
            wide_args.push_back(&n);
        report("cuda 1 launch, 30 arguments + cuCtxSynchronize", reps, [&] {
            cuLaunchKernel(wide, 1, 1, 1, 256, 1, 1, 0, nullptr, wide_args.data(), nullptr);
            cuCtxSynchronize();
        });
    }
    report("cuda cuMemAlloc(1 KiB) + launch + cuMemFree + cuCtxSynchronize", reps, [&] {
        CUdeviceptr m = 0;
        cuMemAlloc_v2(&m, 1024);
        launch();
        cuMemFree_v2(m);
        cuCtxSynchronize();
    });
    cuMemFree_v2(p);
}

}  // namespace

int main(int argc, char **argv) {
    const int reps = argc > 1 ? std::max(10, std::atoi(argv[1])) : 2000;
    probe_opencl(reps);
    probe_cuda(reps);
    return 0;
}
