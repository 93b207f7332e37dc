// The verdict core (harness/verdict_core.h): the 16-bit floats, element values, the tolerance rules with their
// case.txt words, and one output's verdict. The .npy format: npy_core.cpp.
#include "harness/verdict_core.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace harness::core {

namespace {

const double kInf = std::numeric_limits<double>::infinity();

template<typename T>
T load(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Order-preserving map of a float's bits to an unsigned integer; +0 and -0 map to the same key.
uint64_t ordered_key(double v, ElemType t) {
    if (t.bits == 16) {
        const uint64_t u = t.code == BFloat ? float_bits_from_double(v, 8, 7) : float_bits_from_double(v, 5, 10);
        const uint64_t mag = u & 0x7fffu, mid = uint64_t(1) << 15;
        return (u >> 15) ? mid - mag : mid + mag;
    }
    if (t.bits == 32) {
        const float f = float(v);
        uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        const uint64_t mag = u & 0x7fffffffu, mid = uint64_t(1) << 31;
        return (u >> 31) ? mid - mag : mid + mag;
    }
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    const uint64_t mag = u & 0x7fffffffffffffffull, mid = uint64_t(1) << 63;
    return (u >> 63) ? mid - mag : mid + mag;
}

// |output[i] - golden[i]| of integers, exactly (64-bit values too).
uint64_t int_diff_at(const uint8_t *g, const uint8_t *o, ElemType t, size_t i) {
    const size_t bytes = size_t(t.bits + 7) / 8;
    if (t.bits == 1) return (g[i] != 0) != (o[i] != 0) ? 1 : 0;
    if (t.code == Int) {
        const auto wide = [&](const uint8_t *p) -> int64_t {
            return bytes == 1 ? load<int8_t>(p) :
                   bytes == 2 ? load<int16_t>(p) :
                   bytes == 4 ? load<int32_t>(p) :
                                load<int64_t>(p);
        };
        const int64_t a = wide(o + i * bytes), b = wide(g + i * bytes);
        return a >= b ? uint64_t(a) - uint64_t(b) : uint64_t(b) - uint64_t(a);
    }
    const auto wide = [&](const uint8_t *p) -> uint64_t {
        return bytes == 1 ? load<uint8_t>(p) :
               bytes == 2 ? load<uint16_t>(p) :
               bytes == 4 ? load<uint32_t>(p) :
                            load<uint64_t>(p);
    };
    const uint64_t a = wide(o + i * bytes), b = wide(g + i * bytes);
    return a >= b ? a - b : b - a;
}

}  // namespace

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
        v = m ? std::nan("") : kInf;
    } else {
        v = std::ldexp(double(m + (1u << mantissa_bits)), e - bias - mantissa_bits);
    }
    return (bits & 0x8000) ? -v : v;
}

double element_value(const uint8_t *data, ElemType t, size_t i) {
    const size_t bytes = size_t(t.bits + 7) / 8;
    const uint8_t *p = data + i * bytes;
    switch (t.code) {
    case BFloat:
        return double_from_float_bits(load<uint16_t>(p), 8, 7);
    case Float:
        return t.bits == 16 ? double_from_float_bits(load<uint16_t>(p), 5, 10) :
               t.bits == 32 ? double(load<float>(p)) :
                              load<double>(p);
    case Int:
        return bytes == 1 ? load<int8_t>(p) :
               bytes == 2 ? load<int16_t>(p) :
               bytes == 4 ? load<int32_t>(p) :
                            double(load<int64_t>(p));
    default:
        return t.bits == 1 ? (p[0] != 0) :
               bytes == 1  ? load<uint8_t>(p) :
               bytes == 2  ? load<uint16_t>(p) :
               bytes == 4  ? load<uint32_t>(p) :
                             double(load<uint64_t>(p));
    }
}

std::string rule_words(const Rule &r) {
    char buf[96];
    std::string w;
    switch (r.kind) {
    case Rule::Exact:
        w = "exact";
        break;
    case Rule::Absolute:
        std::snprintf(buf, sizeof buf, "absolute %.17g", r.atol);
        w = buf;
        break;
    case Rule::AbsRel:
        std::snprintf(buf, sizeof buf, "abs_rel %.17g %.17g", r.atol, r.rtol);
        w = buf;
        break;
    case Rule::Ulp:
        w = "ulp " + std::to_string(r.ulp);
        break;
    case Rule::Psnr:
        std::snprintf(buf, sizeof buf, "psnr %.17g", r.min_db);
        w = buf;
        break;
    case Rule::MismatchFraction:  // its own nan_equal before its inner rule's words, so that neither is taken for
                                  // the other
        std::snprintf(buf, sizeof buf, "fraction %.17g ", r.max_fraction);
        return buf + std::string(r.nan_equal ? "nan_equal " : "") + (r.inner ? rule_words(*r.inner) : "exact");
    }
    return w + (r.nan_equal ? " nan_equal" : "");
}

namespace {

// " nan_equal" if it is the next word (consumed); nothing else may be.
bool read_nan_equal(std::istream &in, const std::string &kind) {
    if (!in.eof()) in >> std::ws;  // (at the end, any further read would set failbit)
    if (in.eof() || in.peek() != 'n') return false;
    std::string more;
    in >> more;
    if (more != "nan_equal") throw FormatError("unexpected '" + more + "' after tolerance '" + kind + "'");
    return true;
}

}  // namespace

Rule parse_rule_words(std::istream &in) {
    Rule r;
    std::string kind;
    in >> kind;
    if (kind == "exact") {
        r.kind = Rule::Exact;
    } else if (kind == "absolute") {
        r.kind = Rule::Absolute;
        in >> r.atol;
    } else if (kind == "abs_rel") {
        r.kind = Rule::AbsRel;
        in >> r.atol >> r.rtol;
    } else if (kind == "ulp") {
        r.kind = Rule::Ulp;
        in >> r.ulp;
    } else if (kind == "psnr") {
        r.kind = Rule::Psnr;
        in >> r.min_db;
    } else if (kind == "fraction") {
        r.kind = Rule::MismatchFraction;
        in >> r.max_fraction;
        if (in.fail()) throw FormatError("the fraction of tolerance 'fraction' is missing or malformed");
        r.nan_equal = read_nan_equal(in, kind);
        r.inner = std::make_shared<const Rule>(parse_rule_words(in));
        return r;
    } else {
        throw FormatError("unknown tolerance '" + kind + "'");
    }
    if (in.fail()) throw FormatError("a number of tolerance '" + kind + "' is missing or malformed");
    r.nan_equal = read_nan_equal(in, kind);
    return r;
}

Pair float_pair(double e, double a) {
    Pair p;
    p.e = e;
    p.a = a;
    p.nan = std::isnan(e) || std::isnan(a);
    p.inf = !p.nan && (std::isinf(e) || std::isinf(a));
    p.equal = !p.nan && e == a;
    p.abs_err = p.nan || p.equal ? 0 : std::fabs(a - e);
    return p;
}

Pair int_pair(double e, double a, uint64_t int_diff) {
    Pair p;
    p.e = e;
    p.a = a;
    p.int_diff = int_diff;
    p.equal = int_diff == 0;
    p.abs_err = double(int_diff);
    return p;
}

double ulp_distance(double e, double a, ElemType t) {
    if (std::isnan(e) || std::isnan(a)) return kInf;
    const uint64_t ke = ordered_key(e, t), ka = ordered_key(a, t);
    return double(ke > ka ? ke - ka : ka - ke);
}

bool within(const Rule &r, const Pair &p, bool nan_equal, ElemType t) {
    if (p.nan) return std::isnan(p.e) && std::isnan(p.a) && nan_equal;
    if (p.inf) return p.e == p.a;
    switch (r.kind) {
    case Rule::Exact:
    case Rule::Psnr:
        return p.equal;
    case Rule::Absolute:
        return p.abs_err <= r.atol;
    case Rule::AbsRel:
        return p.abs_err <= r.atol + r.rtol * std::fabs(p.e);
    case Rule::Ulp:
        if (r.ulp < 0) return p.equal;
        if (!is_float(t)) return p.int_diff <= uint64_t(r.ulp);  // an integer's ULP is 1
        return ulp_distance(p.e, p.a, t) <= double(r.ulp);
    case Rule::MismatchFraction:
        if (!r.inner) return p.equal;
        return within(*r.inner, p, nan_equal || r.inner->nan_equal, t);
    }
    return false;
}

double psnr_peak(ElemType t) {
    if (is_float(t)) return 1.0;
    if (t.code == UInt) return std::ldexp(1.0, t.bits) - 1;
    return std::ldexp(1.0, t.bits - 1) - 1;
}

double psnr_db(const Tally &t, ElemType type) {
    const double mse = t.count ? t.sse / double(t.count) : 0;
    const double peak = psnr_peak(type);
    return mse == 0 ? kInf : 10 * std::log10(peak * peak / mse);
}

bool passes(const Rule &r, const Tally &t, ElemType type) {
    switch (r.kind) {
    case Rule::MismatchFraction:
        return t.output_nans == 0 && (t.count ? double(t.mismatches) / double(t.count) : 0) <= r.max_fraction;
    case Rule::Psnr:
        return t.nan_mismatches == 0 && psnr_db(t, type) >= r.min_db;
    default:
        return t.mismatches == 0;
    }
}

Judgement judge(const uint8_t *golden, const uint8_t *output, size_t count, ElemType t, const Rule &r) {
    Judgement j;
    j.tally.count = count;
    j.worst = count;
    double worst_key = -1;
    for (size_t i = 0; i < count; i++) {
        const double e = element_value(golden, t, i), a = element_value(output, t, i);
        const Pair p = is_float(t) ? float_pair(e, a) : int_pair(e, a, int_diff_at(golden, output, t, i));
        if (!p.nan) {
            j.max_abs_error = std::max(j.max_abs_error, p.abs_err);
            j.tally.sse += p.abs_err * p.abs_err;
        }
        if (within(r, p, r.nan_equal, t)) continue;
        j.tally.mismatches++;
        if (p.nan) j.tally.nan_mismatches++;
        if (std::isnan(a) && !std::isnan(e)) j.tally.output_nans++;
        const double key = p.nan ? kInf : p.abs_err;
        if (key > worst_key) {
            worst_key = key;
            j.worst = i;
        }
    }
    j.passed = passes(r, j.tally, t);
    return j;
}

}  // namespace harness::core
