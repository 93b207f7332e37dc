// The tolerance a pipeline gets when its spec states none (specs from generator metadata or a JSON
// spec without "tolerance"), per output element type, and the measured-error line every PASS shows.
//   integers (and bool): Exact                         -- integer pipelines are deterministic
//   integers of a pipeline with float inputs: Absolute{atol=1} -- computed through float arithmetic, where
//                                                         fma contraction on one target and not on another
//                                                         moves a truncated or rounded value by one (bool
//                                                         stays Exact: 1 would allow anything)
//   float16:  AbsRel{atol=0.001, rtol=0.01}            -- 10-bit mantissa, GPU half math
//   bfloat16: AbsRel{atol=0.01, rtol=0.05}             -- 8-bit mantissa (ULP 2^-7 relative), GPU bf16 math
//   float32:  AbsRel{atol=1e-05, rtol=0.0001}          -- ~840 ULP relative: GPU math libraries, fma
//                                                         contraction and reassociated sums
//   float64:  AbsRel{atol=1e-12, rtol=1e-09}
//   float64 of a pipeline without float64 inputs: float32's -- its values may come from float32 arithmetic
//                                                         (fma contraction moves them by a float32 ULP, 2^29
//                                                         float64 ULP)
// Float tolerances take NaN == NaN (nan_equal): NaN at the same position in both is the same result.
#pragma once
#include <string>

#include "HalideRuntime.h"
#include "harness/compare.h"

namespace harness {

// The default tolerance of an output of type `t`; `reason` receives why. `float_inputs`: the pipeline
// takes a float (any width) input buffer or scalar, so its integer outputs are taken to be computed
// through float arithmetic (the generator's IR is not at hand; a float input is the conservative sign).
// `f64_inputs`: it takes a float64 input buffer or scalar; without one, its float64 outputs get float32's
// tolerance (the same conservative sign for narrower arithmetic).
Tolerance default_tolerance(halide_type_t t, std::string *reason = nullptr, bool float_inputs = false,
                            bool f64_inputs = true);

// "max abs error 0.0012, max rel error 3e-05, max ULP 12" (ULP for floats only): what the run
// measured, to set a tolerance from.
std::string measured_error(const CompareResult &r, halide_type_t t);

}  // namespace harness
