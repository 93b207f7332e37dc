// The 16-bit float element types, IEEE binary16 (float16) and bfloat16, as C++ types of the element type
// table (element_type.h): an element holds its bits; conversions to and from double round to nearest even,
// as Halide's own conversions do, so a fill, a scalar or a golden read back is the value Halide sees.
// No arithmetic: the harness fills, reads and compares elements, all through double.
#pragma once
#include <cstdint>

#include "harness/verdict_core.h"

namespace harness {

// The conversions are the verdict core's, which a repro bundle compiles too.
using core::double_from_float_bits;
using core::float_bits_from_double;

template<int ExponentBits, int MantissaBits>
struct Float16Format {
    uint16_t bits = 0;
    Float16Format() = default;
    explicit Float16Format(double v) : bits(float_bits_from_double(v, ExponentBits, MantissaBits)) {}
    explicit operator double() const { return double_from_float_bits(bits, ExponentBits, MantissaBits); }
    static Float16Format from_bits(uint16_t b) {
        Float16Format f;
        f.bits = b;
        return f;
    }
};

using float16 = Float16Format<5, 10>;  // IEEE 754 binary16 (Halide's float16_t)
using bfloat16 = Float16Format<8, 7>;  // the top half of a float32 (Halide's bfloat16_t)
static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2, "16-bit float elements are stored as their bits");

}  // namespace harness
