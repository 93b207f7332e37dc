// Comparison of an output with its golden under a named tolerance.
//
// Tolerances (docs/ARCHITECTURE.md, "a tolerance"):
//   Exact                      equal values (+0 == -0; NaN == NaN only if nan_equal)
//   Absolute{atol}             |a - e| <= atol
//   AbsRel{atol, rtol}         |a - e| <= atol + rtol * |e|
//   Ulp{n}                     float distance in units in the last place <= n (floats only)
//   MismatchFraction{inner, f} at most fraction f of elements may fail `inner`
//   Psnr{min_db}               peak signal-to-noise ratio >= min_db (peak: type max, or 1.0 for floats)
// Rules for every tolerance: NaN in the output where the golden has none is a failure; NaN matches
// NaN only where nan_equal is set; +Inf matches +Inf and -Inf matches -Inf exactly, never a finite value.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/array.h"

namespace harness {

struct Tolerance {
    enum class Kind { Exact, Absolute, AbsRel, Ulp, MismatchFraction, Psnr };
    Kind kind = Kind::Exact;
    double atol = 0;
    double rtol = 0;
    int64_t ulp = 0;
    double max_fraction = 0;
    double min_db = 0;
    bool nan_equal = false;
    std::shared_ptr<const Tolerance> inner;  // MismatchFraction only

    static Tolerance exact();
    static Tolerance absolute(double atol);
    static Tolerance abs_rel(double atol, double rtol);
    static Tolerance ulps(int64_t n);
    static Tolerance mismatch_fraction(const Tolerance &inner, double max_fraction);
    static Tolerance psnr(double min_db);

    // "Exact", "Absolute{atol=1}", "AbsRel{atol=0.001, rtol=0.0001}", ...
    std::string name() const;
    nlohmann::json to_json() const;
};

struct CompareResult {
    bool passed = false;
    std::string message;  // one line: why it failed, or a summary when it passed
    size_t count = 0;
    size_t mismatches = 0;  // elements outside the (inner) tolerance
    double mismatch_fraction = 0;
    double max_abs_error = 0;
    double max_rel_error = 0;
    double max_ulp_error = 0;  // floats only
    double psnr_db = 0;        // +inf when identical
    size_t nan_mismatches = 0;
    // First mismatch (lowest flat index) and worst (largest abs error) in Halide coordinates.
    std::vector<int> first_mismatch, worst_mismatch;
    double first_expected = 0, first_actual = 0, worst_expected = 0, worst_actual = 0;
    // Images (2+ dimensions, at least 8x8): the largest distance of a mismatch from the nearest
    // x/y edge, -1 when there is none or the array is not an image. Mismatches only within 2
    // elements of the edge point at a boundary condition, and the message says so.
    int max_edge_distance = -1;

    nlohmann::json to_json() const;
};

// Compares `actual` against `expected`. A type or shape difference is a failed result (not an
// exception) whose message says which. Never throws for well-formed arrays.
CompareResult compare(const Array &expected, const Array &actual, const Tolerance &tol);

// Distance in ULPs between two finite floats of the same width (32 or 64 bits); 0 for +0 vs -0.
double ulp_distance(double expected, double actual, int bits);

}  // namespace harness
