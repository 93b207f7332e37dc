// A named tolerance: how far an output may be from its golden (compare.h compares under it). Kept
// apart from compare.h so that specs (spec.h) need no JSON library: to_json() needs <nlohmann/json.hpp>.
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

#include <nlohmann/json_fwd.hpp>

#include "harness/verdict_core.h"

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
    // The same tolerance as the verdict core's rule (compare() judges with it; a repro bundle reads its words).
    core::Rule to_rule() const;
};

}  // namespace harness
