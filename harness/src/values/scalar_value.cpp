// halide_scalar_value_t <-> double (scalar_value.h).
#include "values/scalar_value.h"

#include <cstdint>
#include <cstring>

#include "values/float16.h"

namespace harness {

double scalar_as_double(const halide_scalar_value_t &v, halide_type_t t) {
    switch (t.code) {
    case halide_type_float:
        if (t.bits == 16) return double(float16::from_bits(v.u.u16));
        return t.bits == 64 ? v.u.f64 : v.u.f32;
    case halide_type_bfloat:
        return double(bfloat16::from_bits(v.u.u16));
    case halide_type_int:
        return t.bits == 8 ? v.u.i8 : t.bits == 16 ? v.u.i16 : t.bits == 32 ? v.u.i32 : static_cast<double>(v.u.i64);
    case halide_type_uint:
        return t.bits == 1  ? v.u.b :
               t.bits == 8  ? v.u.u8 :
               t.bits == 16 ? v.u.u16 :
               t.bits == 32 ? v.u.u32 :
                              static_cast<double>(v.u.u64);
    default:
        return 0;
    }
}

halide_scalar_value_t scalar_from_double(double d, halide_type_t t) {
    halide_scalar_value_t v;
    std::memset(static_cast<void *>(&v), 0, sizeof v);
    if (t.code == halide_type_bfloat) {
        v.u.u16 = bfloat16(d).bits;
    } else if (t.code == halide_type_float && t.bits == 16) {
        v.u.u16 = float16(d).bits;  // Halide passes a float16 scalar as its bits
    } else if (t.code == halide_type_float) {
        if (t.bits == 64)
            v.u.f64 = d;
        else
            v.u.f32 = static_cast<float>(d);
    } else if (t.code == halide_type_int) {
        if (t.bits == 8)
            v.u.i8 = static_cast<int8_t>(d);
        else if (t.bits == 16)
            v.u.i16 = static_cast<int16_t>(d);
        else if (t.bits == 32)
            v.u.i32 = static_cast<int32_t>(d);
        else
            v.u.i64 = static_cast<int64_t>(d);
    } else if (t.code == halide_type_uint) {
        if (t.bits == 1)
            v.u.b = d != 0;
        else if (t.bits == 8)
            v.u.u8 = static_cast<uint8_t>(d);
        else if (t.bits == 16)
            v.u.u16 = static_cast<uint16_t>(d);
        else if (t.bits == 32)
            v.u.u32 = static_cast<uint32_t>(d);
        else
            v.u.u64 = static_cast<uint64_t>(d);
    }
    return v;
}

}  // namespace harness
