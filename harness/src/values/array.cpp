// harness::Array: element access, Halide views and dtype names (see array.h).
#include "harness/array.h"

#include <cstring>
#include <type_traits>

#include "values/element_type.h"
#include "base/error.h"

namespace harness {

namespace {

template<typename T>
T load(const HostBytes &bytes, size_t i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}

}  // namespace

Array::Array(halide_type_t t, std::vector<int> s) : type(t), shape(std::move(s)) {
    for (int extent : shape) {
        if (extent < 0) throw Error("array shape " + shape_string(shape) + " has a negative extent; fix the caller");
    }
    bytes.assign(elements() * element_bytes(), 0);
}

// Product of the extents; 1 for a zero-dimensional (scalar) array.
size_t Array::elements() const {
    size_t n = 1;
    for (int extent : shape)
        n *= size_t(extent < 0 ? 0 : extent);
    return n;
}

// Element i as a double (64-bit integers beyond 2^53 are rounded). Throws Error for unsupported types.
double Array::value(size_t i) const {
    double v = 0;
    values(i, 1, &v);
    return v;
}

void Array::values(size_t begin, size_t count, double *out) const {
    dispatch_element_type(
        type,
        [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (size_t k = 0; k < count; k++) {
                if constexpr (std::is_same_v<T, bool>) {
                    out[k] = bytes[begin + k] != 0 ? 1.0 : 0.0;
                } else {
                    out[k] = double(load<T>(bytes, begin + k));  // 64-bit integers beyond 2^53 are rounded
                }
            }
        },
        "Array::value");
}

// Halide-order coordinates of flat index i: coords[0] varies fastest.
std::vector<int> Array::coords(size_t i) const {
    std::vector<int> c(shape.size(), 0);
    for (size_t d = 0; d < shape.size(); d++) {
        if (shape[d] <= 0) break;
        c[d] = int(i % size_t(shape[d]));
        i /= size_t(shape[d]);
    }
    return c;
}

// A dense buffer over `bytes` with shape in Halide order; no copy, no ownership.
Halide::Runtime::Buffer<void> Array::view() {
    return Halide::Runtime::Buffer<void>(type, bytes.data(), shape);
}

std::string dtype_name(halide_type_t t) {
    if (const ElementType *e = find_element_type(t)) return e->name;
    throw_unsupported_type(t, "");
}

halide_type_t dtype_from_name(const std::string &name) {
    if (const ElementType *e = find_element_type(name)) return e->type;
    throw Error("unknown dtype '" + name + "'; use one of " + supported_element_types());
}

std::string shape_string(const std::vector<int> &shape) {
    if (shape.empty()) return "scalar";
    std::string s;
    for (size_t d = 0; d < shape.size(); d++)
        s += (d ? "x" : "") + std::to_string(shape[d]);
    return s;
}

}  // namespace harness
