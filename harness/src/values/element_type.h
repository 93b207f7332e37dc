// The element types the harness supports: one table (C++ type, Halide type, dtype name, numpy
// descr) and one dispatch from a runtime halide_type_t to its C++ type, as Halide's RunGen does
// with dynamic_type_dispatch. Array, .npy, inputs, scalars and compare all use these.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "HalideRuntime.h"
#include "values/float16.h"

namespace harness {

// X(C++ type, Halide type code, bits, dtype name, numpy kind+size), in the order messages list them.
// bfloat16 has no numpy dtype: its .npy is the structured dtype [('bfloat16', '<u2')] (the bits, named;
// npy.cpp), which the "V2" here stands for.
#define HARNESS_ELEMENT_TYPES(X)                          \
    X(bool, halide_type_uint, 1, "bool", "b1")            \
    X(uint8_t, halide_type_uint, 8, "uint8", "u1")        \
    X(uint16_t, halide_type_uint, 16, "uint16", "u2")     \
    X(uint32_t, halide_type_uint, 32, "uint32", "u4")     \
    X(uint64_t, halide_type_uint, 64, "uint64", "u8")     \
    X(int8_t, halide_type_int, 8, "int8", "i1")           \
    X(int16_t, halide_type_int, 16, "int16", "i2")        \
    X(int32_t, halide_type_int, 32, "int32", "i4")        \
    X(int64_t, halide_type_int, 64, "int64", "i8")        \
    X(float16, halide_type_float, 16, "float16", "f2")    \
    X(bfloat16, halide_type_bfloat, 16, "bfloat16", "V2") \
    X(float, halide_type_float, 32, "float32", "f4")      \
    X(double, halide_type_float, 64, "float64", "f8")

// The C++ types of the table's float rows (float16 and bfloat16 are not std::is_floating_point).
template<typename T>
inline constexpr bool is_float_element_v =
    std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;
// A float type code: float (16, 32, 64 bits) or bfloat.
inline bool is_float_type(halide_type_t t) {
    return t.code == halide_type_float || t.code == halide_type_bfloat;
}

struct ElementType {
    halide_type_t type;
    const char *name;  // "uint8"
    const char *npy;   // "u1" (numpy kind and item size, without the byte-order mark)
};

// Every supported element type, in the table's order.
const std::vector<ElementType> &element_types();
// The row of `t` or of the dtype `name`; nullptr if unsupported.
const ElementType *find_element_type(halide_type_t t);
const ElementType *find_element_type(const std::string &name);
// "bool, uint8, ..." for messages.
std::string supported_element_types();
// "uint8", "float16", "int32x4": any halide_type_t, supported or not.
std::string describe_type(halide_type_t t);
// Throws Error "unsupported element type <t>; the harness supports <list>".
[[noreturn]] void throw_unsupported_type(halide_type_t t, const std::string &where);

template<typename T>
struct TypeTag {
    using type = T;
};

// Calls f(TypeTag<T>{}) with T the C++ type of `t` and returns its result; throws Error naming
// `where` for a type outside the table.
template<typename F>
decltype(auto) dispatch_element_type(halide_type_t t, F &&f, const char *where = "") {
    if (t.lanes == 1) {
#define HARNESS_DISPATCH_ROW(T, code_, bits_, name, npy) \
    if (t.code == code_ && t.bits == bits_) return f(TypeTag<T>{});
        HARNESS_ELEMENT_TYPES(HARNESS_DISPATCH_ROW)
#undef HARNESS_DISPATCH_ROW
    }
    throw_unsupported_type(t, where);
}

}  // namespace harness
