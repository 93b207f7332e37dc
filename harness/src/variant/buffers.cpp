// Buffers for one call (buffers.h): the buffer modes (host, device, wrapped cl_mem) around a call.
#include "variant/buffers.h"

#include <algorithm>
#include <cstring>

#include "devices/device_release.h"
#include "base/error.h"

#ifdef HARNESS_HAVE_OPENCL
#include <CL/cl.h>

#include "HalideRuntimeOpenCL.h"
extern "C" int halide_acquire_cl_context(void *user_context, cl_context *ctx, cl_command_queue *q, bool create);
extern "C" int halide_release_cl_context(void *user_context);
#include "devices/opencl_loader.h"
#endif
#ifdef HARNESS_HAVE_CUDA
#include "HalideRuntimeCuda.h"
#endif
#ifdef HARNESS_HAVE_VULKAN
#include "HalideRuntimeVulkan.h"
#endif

namespace harness {

using HBuffer = Halide::Runtime::Buffer<void>;

std::string buffer_mode_unavailable_reason(BufferMode mode, const std::string &runtime) {
    if (mode == BufferMode::Host) return "";
    if (runtime == "none")
        return std::string("mode ") + buffer_mode_name(mode) + " needs a GPU profile (this one runs on the CPU)";
    if (mode == BufferMode::Device) return "";
    if (runtime == "vulkan") {
        // Halide 21's HalideRuntimeVulkan.h has no counterpart of halide_opencl_wrap_cl_mem or
        // halide_cuda_wrap_device_ptr: a buffer's device field is the runtime's own allocation record.
        return std::string("mode ") + buffer_mode_name(mode) +
               " wraps memory the harness allocates; Halide 21's Vulkan runtime cannot wrap an application's "
               "VkBuffer (no halide_vulkan_wrap_vk_buffer in HalideRuntimeVulkan.h)";
    }
    if (runtime != "opencl")
        return std::string("mode ") + buffer_mode_name(mode) + " wraps cl_mem: OpenCL profiles only";
#ifndef HARNESS_HAVE_OPENCL
    return "this harness was built without the OpenCL runtime";
#else
    return "";
#endif
}

// ---- ModeBinding ----

struct ModeBinding::Wrapped {
#ifdef HARNESS_HAVE_OPENCL
    cl_mem mem = nullptr;
    HBuffer *buffer = nullptr;
#endif
};

#ifdef HARNESS_HAVE_OPENCL
namespace {

struct ClApi {
    decltype(&clCreateBuffer) create_buffer;
    decltype(&clReleaseMemObject) release;
    decltype(&clEnqueueWriteBuffer) write;
    decltype(&clEnqueueReadBuffer) read;
    decltype(&clEnqueueCopyBuffer) copy;
    decltype(&clFinish) finish;
    bool ok() const { return create_buffer && release && write && read && copy && finish; }
};

const ClApi &cl_api() {
    static const ClApi api{opencl_function<decltype(&clCreateBuffer)>("clCreateBuffer"),
                           opencl_function<decltype(&clReleaseMemObject)>("clReleaseMemObject"),
                           opencl_function<decltype(&clEnqueueWriteBuffer)>("clEnqueueWriteBuffer"),
                           opencl_function<decltype(&clEnqueueReadBuffer)>("clEnqueueReadBuffer"),
                           opencl_function<decltype(&clEnqueueCopyBuffer)>("clEnqueueCopyBuffer"),
                           opencl_function<decltype(&clFinish)>("clFinish")};
    return api;
}

// The byte span of a (possibly padded) buffer: from its first to one past its last element.
size_t span_bytes(const HBuffer &b) {
    return static_cast<size_t>(static_cast<const uint8_t *>(b.end()) - static_cast<const uint8_t *>(b.begin()));
}

int fail(std::string *error, const std::string &call, int err) {
    if (error) *error = call + " failed: " + cl_error_name(err);
    return err ? err : -1;
}

// Moves bytes between host and a cl_mem; a device-only buffer goes through a staging buffer.
int transfer(cl_context ctx, cl_command_queue q, cl_mem mem, void *host, size_t size, bool to_device, bool device_only,
             std::string *error) {
    const ClApi &cl = cl_api();
    cl_int err = CL_SUCCESS;
    cl_mem target = mem;
    if (device_only) {
        target = cl.create_buffer(ctx, CL_MEM_READ_WRITE, size, nullptr, &err);
        if (err != CL_SUCCESS) return fail(error, "clCreateBuffer (staging)", err);
        if (!to_device) err = cl.copy(q, mem, target, 0, 0, size, 0, nullptr, nullptr);
        if (err != CL_SUCCESS) {
            cl.release(target);
            return fail(error, "clEnqueueCopyBuffer (device-only -> staging)", err);
        }
    }
    err = to_device ? cl.write(q, target, CL_TRUE, 0, size, host, 0, nullptr, nullptr) :
                      cl.read(q, target, CL_TRUE, 0, size, host, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
        if (device_only) cl.release(target);
        return fail(error, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", err);
    }
    if (device_only) {
        if (to_device) err = cl.copy(q, target, mem, 0, 0, size, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) err = cl.finish(q);
        cl.release(target);
        if (err != CL_SUCCESS) return fail(error, "clEnqueueCopyBuffer (staging -> device-only)", err);
    }
    return 0;
}

}  // namespace
#endif

ModeBinding::ModeBinding(BufferMode mode, const std::string &runtime) : mode_(mode), runtime_(runtime) {}

ModeBinding::~ModeBinding() {
    for (Wrapped *w : wrapped_)
        delete w;
}

int ModeBinding::prepare(std::vector<HBuffer *> &inputs, std::vector<HBuffer *> &outputs, std::string *error) {
    if (mode_ == BufferMode::Host) return 0;
    const std::string why = buffer_mode_unavailable_reason(mode_, runtime_);
    if (!why.empty()) {
        if (error) *error = why;
        return -1;
    }
    if (mode_ == BufferMode::Device) {
        const halide_device_interface_t *iface = device_interface_for(runtime_);
        if (!iface) {
            if (error) *error = "no device interface for runtime " + runtime_ + " in this build";
            return -1;
        }
        for (auto *list : {&inputs, &outputs}) {
            for (HBuffer *pb : *list) {
                HBuffer &b = *pb;
                b.set_host_dirty(true);  // outputs too: their canary must be on the device
                if (int err = b.copy_to_device(iface)) {
                    if (error) *error = "copy_to_device failed with Halide error " + std::to_string(err);
                    return err;
                }
            }
        }
        return 0;
    }
#ifdef HARNESS_HAVE_OPENCL
    const ClApi &cl = cl_api();
    if (!cl.ok()) {
        if (error) *error = "the OpenCL loader lacks clCreateBuffer/clEnqueueCopyBuffer";
        return -1;
    }
    {
        // Halide loads the OpenCL library and creates its context lazily, on the first device call;
        // halide_acquire_cl_context alone does neither.
        Halide::Runtime::Buffer<uint8_t> probe(1);
        if (int err = probe.device_malloc(halide_opencl_device_interface())) {
            if (error) *error = "OpenCL device_malloc failed with Halide error " + std::to_string(err);
            return err;
        }
        probe.device_free();
    }
    cl_context ctx = nullptr;
    cl_command_queue q = nullptr;
    if (int err = halide_acquire_cl_context(nullptr, &ctx, &q, true))
        return fail(error, "halide_acquire_cl_context", err);
    const bool device_only = mode_ == BufferMode::WrappedDeviceOnly;
    const cl_mem_flags flags = CL_MEM_READ_WRITE | (device_only ? CL_MEM_HOST_NO_ACCESS : CL_MEM_ALLOC_HOST_PTR);
    int result = 0;
    for (auto *list : {&inputs, &outputs}) {
        for (HBuffer *pb : *list) {
            HBuffer &b = *pb;
            cl_int err = CL_SUCCESS;
            const size_t size = span_bytes(b);
            cl_mem mem = cl.create_buffer(ctx, flags, size, nullptr, &err);
            if (err != CL_SUCCESS) {
                result = fail(error, "clCreateBuffer", err);
                break;
            }
            auto *w = new Wrapped;
            w->mem = mem;
            w->buffer = &b;
            wrapped_.push_back(w);
            result = transfer(ctx, q, mem, b.begin(), size, true, device_only, error);
            if (result == 0) {
                result = halide_opencl_wrap_cl_mem(nullptr, b.raw_buffer(), reinterpret_cast<uint64_t>(mem));
                if (result && error)
                    *error = "halide_opencl_wrap_cl_mem failed with Halide error " + std::to_string(result);
            }
            if (result) break;
            b.set_host_dirty(false);
            b.set_device_dirty(false);
        }
        if (result) break;
    }
    halide_release_cl_context(nullptr);
    return result;
#else
    return -1;
#endif
}

int ModeBinding::release(std::vector<HBuffer *> &buffers, std::string *error) {
    int result = 0;
    for (HBuffer *pb : buffers) {
        HBuffer &b = *pb;
        int err = 0;
#ifdef HARNESS_HAVE_OPENCL
        if (mode_ == BufferMode::WrappedHostVisible || mode_ == BufferMode::WrappedDeviceOnly) {
            if (b.raw_buffer()->device) err = halide_opencl_detach_cl_mem(nullptr, b.raw_buffer());
        } else
#endif
        {
            err = b.device_free();
        }
        if (err && !result) {
            result = err;
            if (error) *error = "releasing a device buffer failed with Halide error " + std::to_string(err);
        }
    }
    return result;
}

int ModeBinding::finish(std::vector<HBuffer *> &inputs, std::vector<HBuffer *> &outputs, bool skip_copy_back,
                        std::string *error) {
    int result = 0;
    if (mode_ == BufferMode::Host || mode_ == BufferMode::Device) {
        for (HBuffer *b : outputs) {
            if (!skip_copy_back && result == 0) {
                result = b->copy_to_host();
                if (result && error) *error = "copy_to_host failed with Halide error " + std::to_string(result);
            }
        }
    }
#ifdef HARNESS_HAVE_OPENCL
    else {
        cl_context ctx = nullptr;
        cl_command_queue q = nullptr;
        if (int err = halide_acquire_cl_context(nullptr, &ctx, &q, true))
            return fail(error, "halide_acquire_cl_context", err);
        for (Wrapped *w : wrapped_) {
            const bool is_output = std::find(outputs.begin(), outputs.end(), w->buffer) != outputs.end();
            // A pipeline that computed its output on the host (a CPU schedule in a GPU variant) left
            // the result there (host_dirty): the cl_mem still holds the canary.
            if (is_output && !skip_copy_back && result == 0 && !w->buffer->host_dirty()) {
                result = transfer(ctx, q, w->mem, w->buffer->begin(), span_bytes(*w->buffer), false,
                                  mode_ == BufferMode::WrappedDeviceOnly, error);
            }
        }
        halide_release_cl_context(nullptr);
    }
#endif
    int r = release(outputs, error);
    if (!result) result = r;
    r = release(inputs, error);
    if (!result) result = r;
#ifdef HARNESS_HAVE_OPENCL
    for (Wrapped *w : wrapped_) {
        cl_api().release(w->mem);
        delete w;
    }
    wrapped_.clear();
#endif
    return result;
}

std::string cl_error_name(int err) {
    static const struct {
        int code;
        const char *name;
    } names[] = {{0, "CL_SUCCESS"},
                 {-1, "CL_DEVICE_NOT_FOUND"},
                 {-2, "CL_DEVICE_NOT_AVAILABLE"},
                 {-3, "CL_COMPILER_NOT_AVAILABLE"},
                 {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
                 {-5, "CL_OUT_OF_RESOURCES"},
                 {-6, "CL_OUT_OF_HOST_MEMORY"},
                 {-11, "CL_BUILD_PROGRAM_FAILURE"},
                 {-30, "CL_INVALID_VALUE"},
                 {-32, "CL_INVALID_PLATFORM"},
                 {-33, "CL_INVALID_DEVICE"},
                 {-34, "CL_INVALID_CONTEXT"},
                 {-36, "CL_INVALID_COMMAND_QUEUE"},
                 {-38, "CL_INVALID_MEM_OBJECT"},
                 {-48, "CL_INVALID_KERNEL"},
                 {-52, "CL_INVALID_KERNEL_ARGS"},
                 {-54, "CL_INVALID_WORK_GROUP_SIZE"},
                 {-59, "CL_INVALID_OPERATION"},
                 {-61, "CL_INVALID_BUFFER_SIZE"},
                 {-1001, "CL_PLATFORM_NOT_FOUND_KHR"}};
    for (const auto &n : names) {
        if (n.code == err) return n.name;
    }
    return "CL error " + std::to_string(err);
}

}  // namespace harness
