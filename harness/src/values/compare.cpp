// Comparison of an output with its golden under a named tolerance (see compare.h).
#include "harness/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "values/element_type.h"
#include "base/error.h"
#include "base/number_text.h"

namespace harness {

namespace {

using Kind = Tolerance::Kind;
const double kInf = std::numeric_limits<double>::infinity();

bool is_float(halide_type_t t) {
    return is_float_type(t);
}

template<typename T>
uint64_t abs_diff_as(const Array &x, const Array &y, size_t i) {
    using Wide = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    const Wide a = x.data<T>()[i], b = y.data<T>()[i];
    // Exact even for 64-bit values: the true difference always fits in uint64_t.
    return a >= b ? uint64_t(a) - uint64_t(b) : uint64_t(b) - uint64_t(a);
}

// |x[i] - y[i]| for integer arrays of the same type, exactly.
uint64_t int_abs_diff(const Array &x, const Array &y, size_t i) {
    return dispatch_element_type(x.type, [&](auto tag) -> uint64_t {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, bool>) {
            return (x.bytes[i] != 0) != (y.bytes[i] != 0) ? 1 : 0;
        } else if constexpr (is_float_element_v<T>) {
            throw Error("int_abs_diff of a float array; fix compare.cpp");
        } else {
            return abs_diff_as<T>(x, y, i);
        }
    });
}

// Element i as text, exact for 64-bit integers.
std::string element_string(const Array &a, size_t i) {
    if (is_float(a.type)) return fmt_num(a.value(i), a.type.bits);
    if (a.type.bits == 64) {
        return a.type.code == halide_type_int ? std::to_string(a.data<int64_t>()[i]) :
                                                std::to_string(a.data<uint64_t>()[i]);
    }
    return std::to_string(int64_t(a.value(i)));
}

std::string coords_string(const std::vector<int> &c) {
    std::string s = "(";
    for (size_t d = 0; d < c.size(); d++)
        s += (d ? "," : "") + std::to_string(c[d]);
    return s + ")";
}

// The peak value for PSNR: the type's maximum for integers, 1.0 for floats.
double psnr_peak(halide_type_t t) {
    if (is_float(t)) return 1.0;
    if (t.code == halide_type_uint) return std::ldexp(1.0, t.bits) - 1;
    return std::ldexp(1.0, t.bits - 1) - 1;
}

// One element pair, with the error measures every tolerance needs.
struct Pair {
    double e = 0, a = 0;
    bool nan = false;    // either side is NaN
    bool inf = false;    // either side is infinite (and neither is NaN)
    bool equal = false;  // same value (+0 == -0; NaN never equal here)
    double abs_err = 0;  // exact for integers; inf for inf vs finite; 0 for equal infinities
    uint64_t int_diff = 0;
};

bool within(const Tolerance &t, const Pair &p, bool nan_equal, halide_type_t type) {
    if (p.nan) return std::isnan(p.e) && std::isnan(p.a) && nan_equal;
    if (p.inf) return p.e == p.a;
    switch (t.kind) {
    case Kind::Exact:
    case Kind::Psnr:
        return p.equal;
    case Kind::Absolute:
        return p.abs_err <= t.atol;
    case Kind::AbsRel:
        return p.abs_err <= t.atol + t.rtol * std::fabs(p.e);
    case Kind::Ulp:
        if (t.ulp < 0) return p.equal;
        if (!is_float(type)) return p.int_diff <= uint64_t(t.ulp);  // an integer's ULP is 1
        return ulp_distance_of(p.e, p.a, type) <= double(t.ulp);
    case Kind::MismatchFraction:
        if (!t.inner) return p.equal;
        return within(*t.inner, p, nan_equal || t.inner->nan_equal, type);
    }
    return false;
}

// Order-preserving map of a float's bits to an unsigned integer; +0 and -0 map to the same key.
// 16 bits: IEEE half; bfloat16 has its own key (ulp_distance_of).
uint64_t ordered_key(double v, int bits) {
    if (bits == 16) {
        const uint64_t u = float16(v).bits, mag = u & 0x7fffu, mid = uint64_t(1) << 15;
        return (u >> 15) ? mid - mag : mid + mag;
    }
    if (bits == 32) {
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

CompareResult failed(const std::string &message) {
    CompareResult r;
    r.passed = false;
    r.message = message;
    return r;
}

std::string type_label(halide_type_t t) {
    try {
        return dtype_name(t);
    } catch (const Error &) {
        return "type(code=" + std::to_string(int(t.code)) + ", bits=" + std::to_string(int(t.bits)) +
               ", lanes=" + std::to_string(int(t.lanes)) + ")";
    }
}

}  // namespace

nlohmann::json CompareResult::to_json() const {
    nlohmann::json j{{"passed", passed},
                     {"message", message},
                     {"count", count},
                     {"mismatches", mismatches},
                     {"mismatch_fraction", num(mismatch_fraction)},
                     {"max_abs_error", num(max_abs_error)},
                     {"max_rel_error", num(max_rel_error)},
                     {"max_ulp_error", num(max_ulp_error)},
                     {"psnr_db", num(psnr_db)},
                     {"nan_mismatches", nan_mismatches}};
    if (mismatches > 0) {
        j["first_mismatch"] = first_mismatch;
        j["first_expected"] = num(first_expected);
        j["first_actual"] = num(first_actual);
        j["worst_mismatch"] = worst_mismatch;
        j["worst_expected"] = num(worst_expected);
        j["worst_actual"] = num(worst_actual);
        if (max_edge_distance >= 0) j["max_edge_distance"] = max_edge_distance;
    }
    return j;
}

double ulp_distance_of(double expected, double actual, halide_type_t type) {
    if (type.code != halide_type_bfloat) return ulp_distance(expected, actual, type.bits);
    if (std::isnan(expected) || std::isnan(actual)) return kInf;
    const auto key = [](double v) {
        const uint64_t u = bfloat16(v).bits, mag = u & 0x7fffu, mid = uint64_t(1) << 15;
        return (u >> 15) ? mid - mag : mid + mag;
    };
    const uint64_t ke = key(expected), ka = key(actual);
    return double(ke > ka ? ke - ka : ka - ke);
}

double ulp_distance(double expected, double actual, int bits) {
    if (bits != 16 && bits != 32 && bits != 64)
        throw Error("ulp_distance: bits must be 16, 32 or 64, got " + std::to_string(bits));
    if (std::isnan(expected) || std::isnan(actual)) return kInf;
    const uint64_t ke = ordered_key(expected, bits), ka = ordered_key(actual, bits);
    return double(ke > ka ? ke - ka : ka - ke);
}

CompareResult compare(const Array &expected, const Array &actual, const Tolerance &tol) {
    const std::string golden_type = type_label(expected.type), output_type = type_label(actual.type);
    if (golden_type != output_type) return failed("type mismatch: golden " + golden_type + ", output " + output_type);
    if (expected.shape != actual.shape) {
        return failed("shape mismatch: golden " + shape_string(expected.shape) + ", output " +
                      shape_string(actual.shape));
    }
    try {
        dtype_name(expected.type);
    } catch (const Error &) {
        return failed("unsupported element type " + golden_type + "; the harness compares " +
                      supported_element_types());
    }
    const size_t n = expected.elements();
    for (const Array *x : {&expected, &actual}) {
        if (x->bytes.size() != n * x->element_bytes()) {
            return failed(std::string("malformed ") + (x == &expected ? "golden" : "output") +
                          " array: " + std::to_string(x->bytes.size()) + " bytes for shape " + shape_string(x->shape));
        }
    }

    const halide_type_t type = expected.type;
    const bool floats = is_float(type);
    CompareResult r;
    r.count = n;
    size_t output_nans = 0, first = n, worst = n;
    double worst_key = -1, sse = 0;
    const bool image = expected.shape.size() >= 2 && expected.shape[0] >= 8 && expected.shape[1] >= 8;
    const int w = image ? expected.shape[0] : 0, h = image ? expected.shape[1] : 0;
    for (size_t i = 0; i < n; i++) {
        Pair p;
        p.e = expected.value(i);
        p.a = actual.value(i);
        p.nan = std::isnan(p.e) || std::isnan(p.a);
        p.inf = !p.nan && (std::isinf(p.e) || std::isinf(p.a));
        if (floats) {
            p.equal = !p.nan && p.e == p.a;
            p.abs_err = p.nan ? 0 : (p.equal ? 0 : std::fabs(p.a - p.e));
        } else {
            p.int_diff = int_abs_diff(expected, actual, i);
            p.equal = p.int_diff == 0;
            p.abs_err = double(p.int_diff);
        }
        const bool ok = within(tol, p, tol.nan_equal, type);
        if (!p.nan) {
            r.max_abs_error = std::max(r.max_abs_error, p.abs_err);
            if (!p.equal && std::isfinite(p.e) && p.e != 0) {
                r.max_rel_error = std::max(r.max_rel_error, p.abs_err / std::fabs(p.e));
            }
            if (floats && !p.inf) r.max_ulp_error = std::max(r.max_ulp_error, ulp_distance_of(p.e, p.a, type));
            sse += p.abs_err * p.abs_err;
        }
        if (ok) continue;
        r.mismatches++;
        if (image) {
            const int x = int(i % size_t(w)), y = int(i / size_t(w) % size_t(h));
            r.max_edge_distance =
                std::max(r.max_edge_distance, std::min(std::min(x, w - 1 - x), std::min(y, h - 1 - y)));
        }
        if (p.nan) r.nan_mismatches++;
        if (std::isnan(p.a) && !std::isnan(p.e)) output_nans++;
        if (first == n) first = i;
        const double key = p.nan ? kInf : p.abs_err;
        if (key > worst_key) {
            worst_key = key;
            worst = i;
        }
    }
    r.mismatch_fraction = n ? double(r.mismatches) / double(n) : 0;
    const double mse = n ? sse / double(n) : 0;
    const double peak = psnr_peak(type);
    r.psnr_db = mse == 0 ? kInf : 10 * std::log10(peak * peak / mse);

    std::string where;
    if (first < n) {
        r.first_mismatch = expected.coords(first);
        r.first_expected = expected.value(first);
        r.first_actual = actual.value(first);
        r.worst_mismatch = expected.coords(worst);
        r.worst_expected = expected.value(worst);
        r.worst_actual = actual.value(worst);
        where = "; worst at " + coords_string(r.worst_mismatch) + ": expected " + element_string(expected, worst) +
                ", got " + element_string(actual, worst);
    }
    const std::string outside = std::to_string(r.mismatches) + " of " + std::to_string(n) + " elements (" +
                                fmt_pct(r.mismatch_fraction) + "%) ";
    if (r.mismatches > 0 && r.max_edge_distance >= 0 && r.max_edge_distance < 2) {
        where += "; every mismatch lies within " + std::to_string(r.max_edge_distance + 1) +
                 " element(s) of the image edge: check the boundary condition";
    }
    const std::string nan_note =
        output_nans ? " (" + std::to_string(output_nans) + " NaN in the output where the golden has none)" : "";
    const std::string psnr_text =
        "PSNR " + (std::isfinite(r.psnr_db) ? fmt_fixed2(r.psnr_db) : fmt_num(r.psnr_db)) + " dB";

    switch (tol.kind) {
    case Kind::MismatchFraction: {
        const std::string inner_name = tol.inner ? tol.inner->name() : "Exact";
        r.passed = output_nans == 0 && r.mismatch_fraction <= tol.max_fraction;
        if (r.passed) {
            r.message = outside + "outside " + inner_name + ", within " + tol.name();
        } else if (output_nans) {
            r.message =
                outside + "outside " + inner_name + nan_note + ", which " + tol.name() + " never allows" + where;
        } else {
            r.message = outside + "outside " + inner_name + ", more than the " + fmt_pct(tol.max_fraction) +
                        "% allowed by " + tol.name() + where;
        }
        break;
    }
    case Kind::Psnr:
        r.passed = r.nan_mismatches == 0 && r.psnr_db >= tol.min_db;
        if (r.passed) {
            r.message = psnr_text + " >= " + fmt_num(tol.min_db) + " dB (" + tol.name() + "); " +
                        std::to_string(r.mismatches) + " of " + std::to_string(n) + " elements differ";
        } else if (r.nan_mismatches) {
            r.message = std::to_string(r.nan_mismatches) + " NaN mismatches of " + std::to_string(n) +
                        " elements, which " + tol.name() + " never allows" + nan_note + where;
        } else {
            r.message =
                psnr_text + " below " + fmt_num(tol.min_db) + " dB (" + tol.name() + "); " + outside + "differ" + where;
        }
        break;
    default:
        r.passed = r.mismatches == 0;
        if (r.passed) {
            r.message = "all " + std::to_string(n) + " elements within " + tol.name() + " (max abs error " +
                        fmt_num(r.max_abs_error) + ")";
        } else {
            r.message = outside + "outside " + tol.name() + nan_note + where;
        }
        break;
    }
    return r;
}

}  // namespace harness
