// Buffers for one run in the four buffer modes (docs/ARCHITECTURE.md, "one call"); the guarded output
// storage itself is guarded_array.h.
//
//   host                  Halide copies inputs to the device and the harness copies outputs back.
//   device                inputs pre-copied with copy_to_device, outputs device_malloc'd; the harness
//                         reads outputs back itself.
//   wrapped-host-visible  cl_mem made by the harness with CL_MEM_ALLOC_HOST_PTR, wrapped into Halide
//                         buffers (halide_opencl_wrap_cl_mem); read back with clEnqueueReadBuffer.
//   wrapped-device-only   cl_mem made with CL_MEM_HOST_NO_ACCESS; filled and read through a staging
//                         buffer with clEnqueueCopyBuffer.
// CUDA and Vulkan profiles run host and device; the wrapped modes SKIP (Halide 21's Vulkan runtime has
// no way to wrap an application's VkBuffer).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "harness/array.h"
#include "variant/guarded_array.h"

namespace harness {

enum class BufferMode { Host, Device, WrappedHostVisible, WrappedDeviceOnly };

const char *buffer_mode_name(BufferMode m);
// Throws Error listing the modes for an unknown name.
BufferMode buffer_mode_from_name(const std::string &name);
const std::vector<BufferMode> &all_buffer_modes();
// Why `mode` cannot run with a profile of this runtime (none/opencl/cuda/vulkan); "" if it can.
std::string buffer_mode_unavailable_reason(BufferMode mode, const std::string &runtime);

// Sets up and tears down device memory for one buffer mode around calls of a pipeline.
class ModeBinding {
public:
    // `runtime` is the profile's runtime (opencl or cuda); not used in Host mode.
    ModeBinding(BufferMode mode, const std::string &runtime);
    ~ModeBinding();
    ModeBinding(const ModeBinding &) = delete;
    ModeBinding &operator=(const ModeBinding &) = delete;

    // Before a call: puts inputs (host bytes) and outputs (host bytes, canary-filled) on the device
    // as the mode requires. Returns 0 or an error code; `error` receives a message naming the call.
    int prepare(std::vector<Halide::Runtime::Buffer<void> *> &inputs,
                std::vector<Halide::Runtime::Buffer<void> *> &outputs, std::string *error);
    // After a successful call: brings outputs back to the host as the mode requires (unless
    // `skip_copy_back`, a test-only fault) and releases every device allocation.
    int finish(std::vector<Halide::Runtime::Buffer<void> *> &inputs,
               std::vector<Halide::Runtime::Buffer<void> *> &outputs, bool skip_copy_back, std::string *error);

private:
    struct Wrapped;
    int release(std::vector<Halide::Runtime::Buffer<void> *> &buffers, std::string *error);
    BufferMode mode_;
    std::string runtime_;
    std::vector<Wrapped *> wrapped_;
};

// Name of an OpenCL error code ("CL_INVALID_VALUE"), or "CL error <n>".
std::string cl_error_name(int err);

}  // namespace harness
