// Comparison of an output with its golden under a named tolerance (the tolerances and their rules:
// harness/tolerance.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/array.h"
#include "harness/tolerance.h"

namespace harness {

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

// Distance in ULPs between two finite floats of the same width (16 (IEEE half), 32 or 64 bits); 0 for
// +0 vs -0.
double ulp_distance(double expected, double actual, int bits);
// The same for an element type (bfloat16 too).
double ulp_distance_of(double expected, double actual, halide_type_t type);

}  // namespace harness
