// The parts of the OpenCL interposer (opencl_interpose.cpp: programs, kernels, launches; opencl_queries.cpp: the
// device and kernel queries a personality answers, and what a program's source asks for), private to devices/.
#pragma once
#include <string>

#include <CL/cl.h>

namespace harness {

namespace cl_shim {

using QueueProperties = cl_bitfield;  // cl_queue_properties (OpenCL 2.0), declared here for a 1.2 header

struct Real {
    decltype(&clGetDeviceInfo) get_device_info = nullptr;
    decltype(&clGetKernelWorkGroupInfo) kernel_work_group_info = nullptr;
    decltype(&clCreateCommandQueue) create_queue = nullptr;
    cl_command_queue(CL_API_CALL *create_queue_with_properties)(cl_context, cl_device_id, const QueueProperties *,
                                                                cl_int *) = nullptr;
    decltype(&clCreateProgramWithSource) create_program = nullptr;
    decltype(&clBuildProgram) build_program = nullptr;
    decltype(&clGetProgramBuildInfo) program_build_info = nullptr;
    decltype(&clReleaseProgram) release_program = nullptr;
    decltype(&clGetProgramInfo) program_info = nullptr;
    decltype(&clCreateKernel) create_kernel = nullptr;
    decltype(&clReleaseKernel) release_kernel = nullptr;
    decltype(&clGetKernelInfo) kernel_info = nullptr;
    decltype(&clSetKernelArg) set_kernel_arg = nullptr;
    decltype(&clEnqueueNDRangeKernel) enqueue = nullptr;
    decltype(&clGetCommandQueueInfo) queue_info = nullptr;
    decltype(&clWaitForEvents) wait_for_events = nullptr;
    decltype(&clGetEventProfilingInfo) event_profiling_info = nullptr;
    decltype(&clReleaseEvent) release_event = nullptr;
    decltype(&clRetainEvent) retain_event = nullptr;
};
// The loader's functions (opencl_loader.h), looked up once.
const Real &real();

// A query's answer as OpenCL gives one: `n` bytes of `data` into `value` (CL_INVALID_VALUE if `size` is smaller),
// the size into `size_ret`.
cl_int answer_info(const void *data, size_t n, size_t size, void *value, size_t *size_ret);
// clGetDeviceInfo / clGetKernelWorkGroupInfo as the active personality answers them (the driver's otherwise).
cl_int CL_API_CALL get_device_info(cl_device_id d, cl_device_info what, size_t size, void *value, size_t *size_ret);
cl_int CL_API_CALL kernel_work_group_info(cl_kernel k, cl_device_id d, cl_kernel_work_group_info what, size_t size,
                                          void *value, size_t *size_ret);
// The kernels of an OpenCL C program that use the double type ("" if none do, "(outside any kernel)" when only
// helper code does).
std::string kernels_using_double(const std::string &src);

}  // namespace cl_shim

}  // namespace harness
