// The OpenCL kernel cache (devices/opencl_kernel_cache.h): its bookkeeping on its own, and, where an OpenCL
// driver is installed (PoCL in CI), launches through the interposer's hooks that reuse one kernel object and
// still compute what each launch's own arguments say.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "devices/opencl_kernel_cache.h"
#include "devices/opencl_loader.h"
#include "devices/probe_in_child.h"

extern "C" void *halide_opencl_get_symbol(void *, const char *name);

namespace harness {
namespace {

cl_kernel fake_kernel(uintptr_t n) {
    return reinterpret_cast<cl_kernel>(n);
}
cl_program fake_program(uintptr_t n) {
    return reinterpret_cast<cl_program>(n);
}

TEST(OpenclKernelCache, SharesOnlyIdleKernelsOfTheSameProgramAndName) {
    const cl_program p = fake_program(0x1000), q = fake_program(0x2000);
    const cl_kernel k1 = fake_kernel(0x10), k2 = fake_kernel(0x20);
    EXPECT_EQ(cl_shim::kernel_cache_take(p, "f"), nullptr);
    cl_shim::kernel_cache_add(p, "f", k1);
    EXPECT_EQ(cl_shim::kernel_cache_take(p, "f"), nullptr) << "a kernel in use is never handed out twice";
    cl_shim::kernel_cache_add(p, "f", k2);  // a second launch at the same time made its own
    EXPECT_TRUE(cl_shim::kernel_cache_give_back(k1));
    EXPECT_EQ(cl_shim::kernel_cache_take(p, "g"), nullptr) << "another name";
    EXPECT_EQ(cl_shim::kernel_cache_take(q, "f"), nullptr) << "another program";
    EXPECT_EQ(cl_shim::kernel_cache_take(p, "f"), k1);
    EXPECT_TRUE(cl_shim::kernel_cache_give_back(k2));
    EXPECT_EQ(cl_shim::kernel_cache_take(p, "f"), k2) << "the second one, kept under its program and name";
    EXPECT_FALSE(cl_shim::kernel_cache_give_back(fake_kernel(0x30))) << "not cached: the caller releases it";
    const std::vector<cl_kernel> dropped = cl_shim::kernel_cache_drop_program(p);
    EXPECT_EQ(dropped.size(), 2u);
    EXPECT_FALSE(cl_shim::kernel_cache_give_back(k1)) << "dropped with its program";
    EXPECT_TRUE(cl_shim::kernel_cache_drop_program(p).empty());
}

template<typename F>
F hook(const char *name) {
    return reinterpret_cast<F>(halide_opencl_get_symbol(nullptr, name));
}

// Two launches of one kernel name with different arguments, through the hooks Halide's runtime uses, with
// the cache on: the second gets the first's kernel object back and writes its own value.
nlohmann::json two_launches() {
    set_opencl_kernel_cache(true);
    auto get_platforms = opencl_function<decltype(&clGetPlatformIDs)>("clGetPlatformIDs");
    auto get_devices = opencl_function<decltype(&clGetDeviceIDs)>("clGetDeviceIDs");
    auto create_context = opencl_function<decltype(&clCreateContext)>("clCreateContext");
    auto create_queue = hook<decltype(&clCreateCommandQueue)>("clCreateCommandQueue");
    auto create_buffer = opencl_function<decltype(&clCreateBuffer)>("clCreateBuffer");
    auto read_buffer = opencl_function<decltype(&clEnqueueReadBuffer)>("clEnqueueReadBuffer");
    auto create_program = hook<decltype(&clCreateProgramWithSource)>("clCreateProgramWithSource");
    auto build = hook<decltype(&clBuildProgram)>("clBuildProgram");
    auto create_kernel = hook<decltype(&clCreateKernel)>("clCreateKernel");
    auto set_arg = hook<decltype(&clSetKernelArg)>("clSetKernelArg");
    auto enqueue = hook<decltype(&clEnqueueNDRangeKernel)>("clEnqueueNDRangeKernel");
    auto release_kernel = hook<decltype(&clReleaseKernel)>("clReleaseKernel");
    auto release_program = hook<decltype(&clReleaseProgram)>("clReleaseProgram");
    if (!get_platforms || !create_kernel) return {{"skip", "no OpenCL loader"}};
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (get_platforms(1, &platform, &n) != CL_SUCCESS || n == 0) return {{"skip", "no OpenCL platform"}};
    cl_device_id dev = nullptr;
    if (get_devices(platform, CL_DEVICE_TYPE_ALL, 1, &dev, &n) != CL_SUCCESS || n == 0)
        return {{"skip", "no OpenCL device"}};
    cl_int err = CL_SUCCESS;
    cl_context ctx = create_context(nullptr, 1, &dev, nullptr, nullptr, &err);
    cl_command_queue queue = create_queue(ctx, dev, 0, &err);
    const char *src = "__kernel void fill(__global int *o, int v) { o[get_global_id(0)] = v + (int)get_global_id(0); }";
    cl_program prog = create_program(ctx, 1, &src, nullptr, &err);
    if (build(prog, 1, &dev, "", nullptr, nullptr) != CL_SUCCESS) return {{"error", "clBuildProgram failed"}};
    cl_mem out = create_buffer(ctx, CL_MEM_READ_WRITE, 4 * sizeof(int), nullptr, &err);
    nlohmann::json result = {{"kernels", nlohmann::json::array()}, {"values", nlohmann::json::array()}};
    for (int v : {7, 100}) {
        cl_kernel k = create_kernel(prog, "fill", &err);
        const size_t global = 4;
        set_arg(k, 0, sizeof out, &out);
        set_arg(k, 1, sizeof v, &v);
        enqueue(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
        int host[4] = {0, 0, 0, 0};
        read_buffer(queue, out, CL_TRUE, 0, sizeof host, host, 0, nullptr, nullptr);
        release_kernel(k);
        result["kernels"].push_back(reinterpret_cast<uintptr_t>(k));
        result["values"].push_back(std::vector<int>(host, host + 4));
    }
    result["release_program"] = release_program(prog);
    return result;
}

TEST(OpenclKernelCache, ReusedKernelComputesEachLaunchsArguments) {
    const nlohmann::json r = probe_in_child(two_launches, "OpenCL kernel cache");
    if (r.contains("skip")) GTEST_SKIP() << r["skip"].get<std::string>();
    ASSERT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["kernels"][0], r["kernels"][1]) << "the second launch reuses the first's kernel object";
    EXPECT_EQ(r["values"][0], nlohmann::json({7, 8, 9, 10}));
    EXPECT_EQ(r["values"][1], nlohmann::json({100, 101, 102, 103}));
    EXPECT_EQ(r["release_program"], CL_SUCCESS);
}

}  // namespace
}  // namespace harness
