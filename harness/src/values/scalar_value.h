// Halide's scalar argument values (halide_scalar_value_t, as in filter metadata and argv calls) to
// and from double, for every scalar type a generator can declare.
#pragma once
#include "HalideRuntime.h"

namespace harness {

double scalar_as_double(const halide_scalar_value_t &v, halide_type_t t);
// `d` converted to `t` (integers truncate toward zero; handles become null).
halide_scalar_value_t scalar_from_double(double d, halide_type_t t);

}  // namespace harness
