// The proposal of a spec from metadata: case sizes, input proposals, scalars, fills (metadata_cases.h).
#include "spec/metadata_cases.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cmath>
#include <cstring>

#include "values/scalar_value.h"

namespace harness {

namespace {

constexpr int kKeep = 16;                 // dimensions estimated at or below this keep their estimate
constexpr double kSmallBudget = 64 * 48;  // elements of the shrunk dimensions together, small case
// An output tests next to nothing when one value covers all of it (2 elements or more), or all but a
// handful of its elements: at most kHandful or 1/kRareShare of them (0.5 %), in kMinElements or more.
// How many distinct values it holds does not matter: a sign map of 0s, 1s and 2s, a 0/255 mask or a bool
// half true tests the comparison it computes; a mask with 1 true element in 3072 does not.
constexpr size_t kHandful = 2, kRareShare = 200, kMinElements = 64;

std::vector<DimRegion> estimates_of(const halide_filter_argument_t &a) {
    std::vector<DimRegion> out;
    if (!a.buffer_estimates) return out;
    bool any = false;
    for (int d = 0; d < a.dimensions; d++) {
        const int64_t *min = a.buffer_estimates[d * 2];
        const int64_t *extent = a.buffer_estimates[d * 2 + 1];
        if (extent && *extent > 0) {
            out.push_back({min ? static_cast<int>(*min) : 0, static_cast<int>(*extent)});
            any = true;
        } else {
            out.push_back({0, -1});
        }
    }
    if (!any) out.clear();
    return out;
}

int odd_of(int x) {
    return (x + 3) | 1;
}

int shrunk(int e, double scale) {
    return std::max(kKeep, static_cast<int>(std::lround(e * scale)));
}

}  // namespace

std::vector<DimRegion> buffer_estimates(const halide_filter_argument_t &a, const halide_filter_argument_t *probe) {
    std::vector<DimRegion> est = estimates_of(a);
    if (probe && probe->dimensions == a.dimensions) {
        const std::vector<DimRegion> p = estimates_of(*probe);
        if (est.empty()) return p;
        for (size_t d = 0; d < est.size() && d < p.size(); d++) {
            if (est[d].extent < 0) est[d] = p[d];
        }
    }
    return est;
}

bool has_all_estimates(const std::vector<DimRegion> &est, int dimensions) {
    if (dimensions == 0) return true;
    if (static_cast<int>(est.size()) != dimensions) return false;
    for (const auto &d : est) {
        if (d.extent <= 0) return false;
    }
    return true;
}

double case_scale(const std::vector<DimRegion> &est, int dimensions, CaseKind kind) {
    if (kind == CaseKind::Estimate) return 1;
    double product = 1;
    int k = 0;
    for (int d = 0; d < dimensions && d < static_cast<int>(est.size()); d++) {
        if (est[d].extent > kKeep) product *= est[d].extent, k++;
    }
    if (k == 0 || product <= kSmallBudget) return 1;
    return std::pow(kSmallBudget / product, 1.0 / k);
}

BufferShape case_output_shape(const std::vector<DimRegion> &est, int dimensions, CaseKind kind, double scale) {
    static const int small_default[] = {64, 48, 3}, odd_default[] = {67, 37, 3};
    BufferShape s;
    for (int d = 0; d < dimensions; d++) {
        const int e = d < static_cast<int>(est.size()) ? est[d].extent : -1;
        int x;
        if (e <= 0) {
            x = d < 3 ? (kind == CaseKind::Odd ? odd_default[d] : small_default[d]) : 2;
        } else if (kind == CaseKind::Estimate || e <= kKeep) {
            x = e;
        } else {
            x = shrunk(e, scale);
            if (kind == CaseKind::Odd) x = odd_of(x);
        }
        s.dims.push_back({0, x});
    }
    return s;
}

BufferShape case_input_proposal(const std::vector<DimRegion> &est, int dimensions, CaseKind kind, double scale,
                                const BufferShape &first_output) {
    BufferShape s;
    for (int d = 0; d < dimensions; d++) {
        const int e = d < static_cast<int>(est.size()) ? est[d].extent : -1;
        int x;
        if (e > 0) {
            x = (kind == CaseKind::Estimate || e <= kKeep) ? e : shrunk(e, scale);
            if (kind == CaseKind::Odd && e > kKeep) x = odd_of(x);
        } else if (d < static_cast<int>(first_output.dims.size())) {
            x = first_output.dims[d].extent;
        } else {
            x = d == 2 ? 3 : kKeep;
        }
        s.dims.push_back({0, x});
    }
    return s;
}

ScalarChoice choose_scalar(const halide_filter_argument_t &a, const halide_filter_argument_t *probe) {
    ScalarChoice c;
    const bool is_float = a.type.code == halide_type_float || a.type.code == halide_type_bfloat;
    auto fit = [&](double v) { return is_float ? v : std::trunc(v); };
    if (a.scalar_estimate) {
        c.value = scalar_as_double(*a.scalar_estimate, a.type), c.source = "estimate";
        return c;
    }
    if (probe && probe->scalar_estimate && probe->type.code == a.type.code && probe->type.bits == a.type.bits) {
        c.value = scalar_as_double(*probe->scalar_estimate, a.type), c.source = "estimate (autoscheduled build)";
        return c;
    }
    if (a.scalar_def) {
        c.value = scalar_as_double(*a.scalar_def, a.type), c.source = "default";
        return c;
    }
    const bool has_min = a.scalar_min != nullptr, has_max = a.scalar_max != nullptr;
    const double lo = has_min ? scalar_as_double(*a.scalar_min, a.type) : 0;
    const double hi = has_max ? scalar_as_double(*a.scalar_max, a.type) : 0;
    if (has_min && has_max) {
        c.value = is_float ? (lo + hi) / 2 : std::ceil((lo + hi) / 2);
        c.source = "inside [min, max]";
        return c;
    }
    std::vector<double> guesses;
    if (a.type.code == halide_type_uint && a.type.bits == 1) {
        guesses = {1, 0};
    } else if (is_float) {
        guesses = {0.5, 1, 0.1, 2};
    } else {
        guesses = {8, 3, 1, 16};
    }
    std::vector<double> ok;
    const double step = is_float ? 0.5 : 1;
    for (double g : guesses) {
        if (has_min && g < lo) g = fit(lo + step);  // just above the one bound given
        if (has_max && g > hi) g = fit(hi - step);
        if (std::find(ok.begin(), ok.end(), g) == ok.end()) ok.push_back(g);
    }
    c.value = ok.front();
    c.alternatives.assign(ok.begin() + 1, ok.end());
    c.source =
        std::string("guess (no estimate, default or range") + (has_min || has_max ? " beyond one bound" : "") + ")";
    return c;
}

Recipe default_recipe(halide_type_t t, uint64_t seed) {
    Recipe r;
    r.seed = seed;
    if (t.code == halide_type_float || t.code == halide_type_bfloat) {
        r.kind = Recipe::Kind::UniformFloat;
        r.lo = 0, r.hi = 1;
    } else if (t.bits == 1) {
        r.lo = 0, r.hi = 1;
    } else if (t.bits == 8) {
        r.lo = t.code == halide_type_int ? -128 : 0;
        r.hi = t.code == halide_type_int ? 127 : 255;
    } else if (t.bits == 16) {
        r.lo = 0, r.hi = 4095;
    } else {
        r.lo = 0, r.hi = 1000;
    }
    return r;
}

std::string degenerate_outputs(const std::vector<Array> &outputs, const std::vector<std::string> &names) {
    std::string why;
    for (size_t o = 0; o < outputs.size(); o++) {
        const Array &a = outputs[o];
        const size_t eb = std::max<size_t>(a.element_bytes(), 1), n = a.bytes.size() / eb;
        if (n < 2) continue;
        const uint8_t *p = a.bytes.data();
        // The most common value when one covers more than half (majority vote), then how many others.
        size_t cand = 0, votes = 0;
        for (size_t i = 0; i < n; i++) {
            if (votes == 0) {
                cand = i, votes = 1;
            } else if (std::memcmp(p + i * eb, p + cand * eb, eb) == 0) {
                votes++;
            } else {
                votes--;
            }
        }
        size_t others = 0;
        for (size_t i = 0; i < n; i++)
            others += std::memcmp(p + i * eb, p + cand * eb, eb) != 0;
        std::string what;
        if (others == 0) {
            what = "1 distinct value in " + std::to_string(n) + " elements";
        } else if (n >= kMinElements && others <= std::max(kHandful, n / kRareShare)) {
            what = "all but " + std::to_string(others) + " of " + std::to_string(n) + " elements hold one value";
        } else {
            continue;
        }
        const std::string name = o < names.size() ? names[o] : "#" + std::to_string(o);
        why += (why.empty() ? "" : "; ") + (outputs.size() > 1 ? "output '" + name + "': " : std::string()) + what;
    }
    return why;
}

std::string trial_out_of_time(int seconds) {
    return "the cpu variant did not finish the case within " + std::to_string(seconds) + " s";
}

bool is_trial_out_of_time(const std::string &why) {
    return why.rfind("the cpu variant did not finish the case within ", 0) == 0;
}

int degenerate_count(const std::string &why) {
    if (why.empty()) return 0;
    int score = 0;
    const auto count = [&](const std::string &key) {
        int k = 0;
        for (size_t at = why.find(key); at != std::string::npos; at = why.find(key, at + 1))
            k++;
        return k;
    };
    score += 2 * count(" distinct value in ");   // constant: the worst
    score += count(" elements hold one value");  // all but a handful
    return score == 0 ? kTrialFailed : score;
}

}  // namespace harness
