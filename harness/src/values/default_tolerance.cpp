// Default tolerances per output type (default_tolerance.h) and the measured-error line of a PASS.
#include "values/default_tolerance.h"

#include <cstdio>

#include "values/element_type.h"

namespace harness {

Tolerance default_tolerance(halide_type_t t, std::string *reason, bool float_inputs, bool f64_inputs) {
    std::string why;
    Tolerance tol = Tolerance::exact();
    if (t.code != halide_type_float && t.code != halide_type_bfloat && float_inputs && t.bits > 1) {
        tol = Tolerance::absolute(1);
        why = "abs 1: integer output computed through float arithmetic (the pipeline takes float inputs; fma "
              "contraction on one target and not another moves a truncated value by one); state a tolerance in "
              "a spec to make it exact";
    } else if (t.code != halide_type_float && t.code != halide_type_bfloat) {
        why = "default for integer outputs: exact (integer pipelines are deterministic on every target)";
    } else if (t.code == halide_type_bfloat) {
        tol = Tolerance::abs_rel(1e-2, 5e-2);
        why = "default for bfloat16 outputs: 8-bit mantissa (one ULP is 2^-7 relative, so about 6 ULP) and GPU "
              "bfloat16 arithmetic";
    } else if (t.bits == 16) {
        tol = Tolerance::abs_rel(1e-3, 1e-2);
        why = "default for float16 outputs: 10-bit mantissa and GPU half arithmetic";
    } else if (t.bits == 64 && !f64_inputs) {
        tol = Tolerance::abs_rel(1e-5, 1e-4);
        why = "float32's default for a float64 output of a pipeline without float64 inputs (its values may come "
              "from float32 arithmetic, where fma contraction moves them by a float32 ULP); state a tolerance in a "
              "spec to tighten it";
    } else if (t.bits == 64) {
        tol = Tolerance::abs_rel(1e-12, 1e-9);
        why = "default for float64 outputs: reassociated sums and fma contraction";
    } else {
        tol = Tolerance::abs_rel(1e-5, 1e-4);
        why = "default for float32 outputs: GPU math libraries, fma contraction and reassociated sums "
              "(about 840 ULP relative); state a tolerance in a spec to tighten it";
    }
    // NaN where the golden has NaN is the same result (a 0/0 both computed), not an error; an output that is
    // all NaN is still flagged by the degenerate-golden check.
    if (t.code == halide_type_float || t.code == halide_type_bfloat) tol.nan_equal = true, why += "; NaN equals NaN";
    if (reason) *reason = why;
    return tol;
}

std::string measured_error(const CompareResult &r, halide_type_t t) {
    char buf[160];
    if (is_float_type(t)) {
        std::snprintf(buf, sizeof buf, "max abs error %.3g, max rel error %.3g, max ULP %.0f", r.max_abs_error,
                      r.max_rel_error, r.max_ulp_error);
    } else {
        std::snprintf(buf, sizeof buf, "max abs error %.6g", r.max_abs_error);
    }
    return buf;
}

}  // namespace harness
