// harness::Array: a dense host array with a Halide element type.
//
// Dimension order is Halide's: shape[0] is the innermost (fastest-varying) dimension, e.g. {x, y, c}.
// The .npy files store the same bytes in C order, so their shape is the reverse ({c, y, x}).
#pragma once
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "harness/verdict_core.h"

namespace harness {

// Where every host buffer the harness hands a pipeline starts: 128 bytes, the alignment of Halide's own
// Runtime::Buffer allocations (HalideBuffer.h), so that a generator that declares
// `set_host_alignment(n)` for n <= 128 (and then gets wider vector loads and stores, on GPUs too) runs
// here as it runs in an application that allocates its buffers with Halide. The allocator is the verdict
// core's (verdict_core.h), which a repro bundle's main allocates with too.
using core::HostAlignedAllocator;
using core::kHostAlignment;

// The bytes of an Array: data() is kHostAlignment-aligned (an empty one's may be null).
using HostBytes = std::vector<uint8_t, HostAlignedAllocator<uint8_t>>;

struct Array {
    halide_type_t type{halide_type_uint, 8, 1};
    std::vector<int> shape;  // Halide order, innermost first
    HostBytes bytes;         // dense, innermost dimension fastest; starts kHostAlignment-aligned

    Array() = default;
    // Allocates a zero-filled array of the given type and shape.
    Array(halide_type_t type, std::vector<int> shape);

    size_t elements() const;
    size_t element_bytes() const { return (type.bits + 7) / 8; }
    // Element i (flat index) converted to double; works for every supported type.
    double value(size_t i) const;
    // Elements [begin, begin + count) the same way into out, one type dispatch for all of them (a loop over
    // a large array calls this a chunk at a time: a dispatch per element cost more than the comparison).
    void values(size_t begin, size_t count, double *out) const;
    // Coordinates (Halide order) of flat index i.
    std::vector<int> coords(size_t i) const;

    template<typename T>
    T *data() {
        return reinterpret_cast<T *>(bytes.data());
    }
    template<typename T>
    const T *data() const {
        return reinterpret_cast<const T *>(bytes.data());
    }

    // A Halide buffer aliasing this array's bytes (no copy). The array must outlive it.
    Halide::Runtime::Buffer<void> view();
};

// "uint8", "int16", "float32", ... ; throws Error for types the harness does not support.
std::string dtype_name(halide_type_t t);
// Inverse of dtype_name; throws Error naming the supported dtypes.
halide_type_t dtype_from_name(const std::string &name);
// "64x48x3" (Halide order).
std::string shape_string(const std::vector<int> &shape);

}  // namespace harness
