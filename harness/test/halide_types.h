// Halide element types the unit tests make arrays, guarded buffers and fake metadata of (one definition
// for every test file: the unit tests compile as unity batches).
#pragma once
#include "HalideRuntime.h"

namespace harness {

inline const halide_type_t kU8{halide_type_uint, 8, 1};
inline const halide_type_t kF32{halide_type_float, 32, 1};

}  // namespace harness
