// Comparison of an output with its golden under a named tolerance (see compare.h): the element test and the
// verdict are the verdict core's (verdict_core.h), which a repro bundle's main compiles too; the measures and
// the message are the harness's.
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

core::ElemType core_type(halide_type_t t) {
    return {int(t.code), int(t.bits)};
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
    return core::ulp_distance(expected, actual, core_type(type));
}

double ulp_distance(double expected, double actual, int bits) {
    if (bits != 16 && bits != 32 && bits != 64)
        throw Error("ulp_distance: bits must be 16, 32 or 64, got " + std::to_string(bits));
    return core::ulp_distance(expected, actual, {core::Float, bits});
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
    size_t first = n, worst = n;
    double worst_key = -1;
    const bool image = expected.shape.size() >= 2 && expected.shape[0] >= 8 && expected.shape[1] >= 8;
    const int w = image ? expected.shape[0] : 0, h = image ? expected.shape[1] : 0;
    const core::ElemType ctype = core_type(type);
    const core::Rule rule = tol.to_rule();
    core::Tally tally;
    tally.count = n;
    // Bit-identical arrays (most passing runs): every element equal, no error to measure, unless a NaN
    // would count against a rule that does not take NaN for NaN.
    const bool identical = expected.bytes == actual.bytes && (!floats || rule.nan_equal);
    const bool wide_ints = !floats && type.bits == 64;  // differences beyond 2^53: exact only from the integers
    constexpr size_t kChunk = 4096;
    std::vector<double> ev(std::min(n, kChunk)), av(std::min(n, kChunk));
    for (size_t i = identical ? n : 0; i < n; i++) {
        if (i % kChunk == 0) {
            expected.values(i, std::min(kChunk, n - i), ev.data());
            actual.values(i, std::min(kChunk, n - i), av.data());
        }
        const double e = ev[i % kChunk], a = av[i % kChunk];
        const core::Pair p =
            floats ? core::float_pair(e, a) :
                     core::int_pair(e, a, wide_ints ? int_abs_diff(expected, actual, i) : uint64_t(std::fabs(e - a)));
        const bool ok = core::within(rule, p, rule.nan_equal, ctype);
        if (!p.nan) {
            r.max_abs_error = std::max(r.max_abs_error, p.abs_err);
            if (!p.equal && std::isfinite(p.e) && p.e != 0) {
                r.max_rel_error = std::max(r.max_rel_error, p.abs_err / std::fabs(p.e));
            }
            if (floats && !p.inf) r.max_ulp_error = std::max(r.max_ulp_error, core::ulp_distance(p.e, p.a, ctype));
            tally.sse += p.abs_err * p.abs_err;
        }
        if (ok) continue;
        tally.mismatches++;
        if (image) {
            const int x = int(i % size_t(w)), y = int(i / size_t(w) % size_t(h));
            r.max_edge_distance =
                std::max(r.max_edge_distance, std::min(std::min(x, w - 1 - x), std::min(y, h - 1 - y)));
        }
        if (p.nan) tally.nan_mismatches++;
        if (std::isnan(p.a) && !std::isnan(p.e)) tally.output_nans++;
        if (first == n) first = i;
        const double key = p.nan ? kInf : p.abs_err;
        if (key > worst_key) {
            worst_key = key;
            worst = i;
        }
    }
    r.mismatches = tally.mismatches;
    r.nan_mismatches = tally.nan_mismatches;
    const size_t output_nans = tally.output_nans;
    r.passed = core::passes(rule, tally, ctype);  // the verdict a repro bundle gives too
    r.mismatch_fraction = n ? double(r.mismatches) / double(n) : 0;
    r.psnr_db = core::psnr_db(tally, ctype);

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
