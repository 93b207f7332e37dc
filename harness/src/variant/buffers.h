// Buffers for one run: guarded output storage and the four buffer modes (docs/ARCHITECTURE.md, "one call").
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

namespace harness {

enum class BufferMode { Host, Device, WrappedHostVisible, WrappedDeviceOnly };

const char *buffer_mode_name(BufferMode m);
// Throws Error listing the modes for an unknown name.
BufferMode buffer_mode_from_name(const std::string &name);
const std::vector<BufferMode> &all_buffer_modes();
// Why `mode` cannot run with a profile of this runtime (none/opencl/cuda/vulkan); "" if it can.
std::string buffer_mode_unavailable_reason(BufferMode mode, const std::string &runtime);

// Storage for a buffer of `shape` laid out in `storage_order` (innermost first; empty or natural:
// dense in Halide order), starting at `min` (empty: 0): resizes `storage` and returns a Halide
// buffer over it.
Halide::Runtime::Buffer<void> strided_view(Array &storage, halide_type_t type, const std::vector<int> &shape,
                                           const std::vector<int> &min, const std::vector<int> &storage_order);
// Whether `order` is the natural order 0, 1, 2, ... (or empty).
bool natural_order(const std::vector<int> &order);

// Output storage surrounded by guard bands: `guard` elements on each side of dimension 0 and
// 2 rows on each side of dimension 1 (none for higher dimensions). view() is a Halide buffer of exactly `shape` inside
// it, starting at `min` (empty: 0). An output the generator lays out in another storage order, or
// asks to be dense, has no guard bands (check_guards() is then "").
class GuardedArray {
public:
    static constexpr uint8_t kGuardByte = 0x5A;

    GuardedArray(halide_type_t type, const std::vector<int> &shape, int guard, const std::vector<int> &min = {},
                 const std::vector<int> &storage_order = {});
    GuardedArray(const GuardedArray &) = delete;  // the view aliases the storage
    GuardedArray(GuardedArray &&) = default;
    GuardedArray &operator=(GuardedArray &&) = default;
    // Fills the interior with `canary` bytes and the guard bands with kGuardByte.
    void fill(uint8_t canary);
    // Fills the guard bands with kGuardByte and the interior with `values` (dense, Halide order, this
    // shape), for an output the pipeline updates in place; the host copy is then the truth.
    void fill(const Array &values);
    Halide::Runtime::Buffer<void> &view() { return view_; }
    // The interior as a dense array (Halide order, from 0).
    Array interior() const;
    // Whether the storage has guard bands.
    bool guarded() const { return !guard_runs_.empty(); }
    // "" if every guard byte is intact, else where the first touched one is (Halide coordinates of
    // the padded storage relative to the interior origin) and how many were touched.
    std::string check_guards() const;

private:
    Array padded_;
    std::vector<int> pad_;
    std::vector<int> shape_;
    Halide::Runtime::Buffer<void> view_;
    std::vector<std::pair<size_t, size_t>> interior_runs_, guard_runs_;  // (byte offset, length)
    bool permuted_ = false;  // stored in another order than Halide's: interior() copies through view_
};

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
