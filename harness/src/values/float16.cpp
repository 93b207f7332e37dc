// Conversions of the 16-bit float element types (float16.h).
#include "values/float16.h"

#include <cmath>

namespace harness {

uint16_t float_bits_from_double(double v, int exponent_bits, int mantissa_bits) {
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const uint32_t sign = std::signbit(v) ? 0x8000u : 0u;
    const uint32_t exp_all_ones = ((1u << exponent_bits) - 1) << mantissa_bits;
    if (std::isnan(v)) return uint16_t(sign | exp_all_ones | (1u << (mantissa_bits - 1)));
    const double a = std::fabs(v);
    if (std::isinf(a)) return uint16_t(sign | exp_all_ones);
    if (a == 0) return uint16_t(sign);
    int e2 = 0;
    std::frexp(a, &e2);
    int e = e2 - 1;  // a = 1.m * 2^e
    if (e < 1 - bias) {
        // Subnormal: a multiple of 2^(1 - bias - mantissa_bits). The default rounding mode is to nearest
        // even; a result of 2^mantissa_bits is the smallest normal, whose bits are the same number.
        const double q = std::nearbyint(std::ldexp(a, bias - 1 + mantissa_bits));
        return uint16_t(sign | uint32_t(q));
    }
    double m = std::nearbyint(std::ldexp(a, mantissa_bits - e));  // in [2^mb, 2^(mb+1)], exact scaling
    if (m >= std::ldexp(1.0, mantissa_bits + 1)) m /= 2, e++;
    if (e > bias) return uint16_t(sign | exp_all_ones);
    return uint16_t(sign | (uint32_t(e + bias) << mantissa_bits) | (uint32_t(m) - (1u << mantissa_bits)));
}

double double_from_float_bits(uint16_t bits, int exponent_bits, int mantissa_bits) {
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const int e = (bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
    const uint32_t m = bits & ((1u << mantissa_bits) - 1);
    double v;
    if (e == 0) {
        v = std::ldexp(double(m), 1 - bias - mantissa_bits);
    } else if (e == (1 << exponent_bits) - 1) {
        v = m ? std::nan("") : INFINITY;
    } else {
        v = std::ldexp(double(m + (1u << mantissa_bits)), e - bias - mantissa_bits);
    }
    return (bits & 0x8000) ? -v : v;
}

}  // namespace harness
