// harness::Array: element access, Halide views and dtype names (see array.h).
#include "harness/array.h"

#include <cstring>

#include "harness/error.h"

namespace harness {

namespace {

template<typename T>
T load(const std::vector<uint8_t> &bytes, size_t i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}

bool same_type(halide_type_t a, halide_type_t b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

struct NamedType {
    const char *name;
    halide_type_t type;
};

// Every dtype the harness supports, in the order error messages list them.
const NamedType kTypes[] = {
    {"bool", halide_type_t(halide_type_uint, 1, 1)},     {"uint8", halide_type_t(halide_type_uint, 8, 1)},
    {"uint16", halide_type_t(halide_type_uint, 16, 1)},  {"uint32", halide_type_t(halide_type_uint, 32, 1)},
    {"uint64", halide_type_t(halide_type_uint, 64, 1)},  {"int8", halide_type_t(halide_type_int, 8, 1)},
    {"int16", halide_type_t(halide_type_int, 16, 1)},    {"int32", halide_type_t(halide_type_int, 32, 1)},
    {"int64", halide_type_t(halide_type_int, 64, 1)},    {"float32", halide_type_t(halide_type_float, 32, 1)},
    {"float64", halide_type_t(halide_type_float, 64, 1)},
};

std::string supported_list() {
    std::string s;
    for (const auto &t : kTypes) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

std::string describe_type(halide_type_t t) {
    static const char *const codes[] = {"int", "uint", "float", "handle", "bfloat"};
    const std::string code = t.code < 5 ? codes[t.code] : "code" + std::to_string(int(t.code));
    std::string s = code + std::to_string(int(t.bits));
    if (t.lanes != 1) s += "x" + std::to_string(int(t.lanes));
    return s;
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
    for (int extent : shape) n *= size_t(extent < 0 ? 0 : extent);
    return n;
}

// Element i as a double (64-bit integers beyond 2^53 are rounded). Throws Error for unsupported types.
double Array::value(size_t i) const {
    switch (type.code) {
    case halide_type_uint:
        switch (type.bits) {
        case 1: return bytes[i] != 0 ? 1.0 : 0.0;
        case 8: return bytes[i];
        case 16: return load<uint16_t>(bytes, i);
        case 32: return load<uint32_t>(bytes, i);
        case 64: return double(load<uint64_t>(bytes, i));
        }
        break;
    case halide_type_int:
        switch (type.bits) {
        case 8: return load<int8_t>(bytes, i);
        case 16: return load<int16_t>(bytes, i);
        case 32: return load<int32_t>(bytes, i);
        case 64: return double(load<int64_t>(bytes, i));
        }
        break;
    case halide_type_float:
        switch (type.bits) {
        case 32: return load<float>(bytes, i);
        case 64: return load<double>(bytes, i);
        }
        break;
    default: break;
    }
    throw Error("Array::value: unsupported element type " + describe_type(type) + "; supported: " + supported_list());
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
    for (const auto &n : kTypes) {
        if (same_type(n.type, t)) return n.name;
    }
    throw Error("unsupported element type " + describe_type(t) + "; the harness supports " + supported_list());
}

halide_type_t dtype_from_name(const std::string &name) {
    for (const auto &n : kTypes) {
        if (name == n.name) return n.type;
    }
    throw Error("unknown dtype '" + name + "'; use one of " + supported_list());
}

std::string shape_string(const std::vector<int> &shape) {
    if (shape.empty()) return "scalar";
    std::string s;
    for (size_t d = 0; d < shape.size(); d++) s += (d ? "x" : "") + std::to_string(shape[d]);
    return s;
}

}  // namespace harness
