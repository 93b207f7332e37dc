// Reuse of the cl_kernel objects Halide's OpenCL runtime makes for every launch. Halide 21's
// halide_opencl_run calls clCreateKernel before and clReleaseKernel after each launch; on a driver where
// that costs microseconds (NVIDIA's OpenCL) it is a large share of a 1080p kernel's call. With the cache on,
// the interposer (opencl_interpose.cpp) hands back an idle kernel of the same program and name instead of
// creating one, and keeps it instead of releasing it; a kernel in use by another launch is never shared
// (Halide sets every argument of a kernel before each launch, so an idle one carries nothing over). Off by
// default: the benchmark binary's --harness_opencl_kernel_cache measures what the cache would save, and the
// numbers of a run say whether it was on.
#pragma once
#include <vector>

#include <CL/cl.h>

namespace harness {

// Turns the cache on or off for this process (before its first OpenCL launch).
void set_opencl_kernel_cache(bool on);
bool opencl_kernel_cache_on();

namespace cl_shim {

// An idle cached kernel of `prog` named `name`, now in use; nullptr when there is none.
cl_kernel kernel_cache_take(cl_program prog, const char *name);
// A kernel just created for `prog`/`name` joins the cache, in use.
void kernel_cache_add(cl_program prog, const char *name, cl_kernel k);
// A launch is done with `k`: true when the cache keeps it (the caller must not release it).
bool kernel_cache_give_back(cl_kernel k);
// The cached kernels of `prog`, removed from the cache, for the caller to release with the program.
std::vector<cl_kernel> kernel_cache_drop_program(cl_program prog);

}  // namespace cl_shim

}  // namespace harness
