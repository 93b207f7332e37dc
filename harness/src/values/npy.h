// Reading and writing NumPy .npy files (format 1.0/2.0, C order, little-endian).
// Shapes are converted to Halide order on read and back to C order on write (see array.h).
#pragma once
#include <string>

#include "harness/array.h"
#include "base/files.h"

namespace harness {

// Serialises `a` as .npy bytes (format 1.0, '<u1' ... '<f8', fortran_order False).
std::string npy_encode(const Array &a);
// Parses .npy bytes. Throws Error naming `what` (usually the file) and what is wrong: bad magic,
// truncated header or data, unsupported dtype, fortran order, big-endian, bad shape.
Array npy_decode(const std::string &bytes, const std::string &what);

Array npy_load(const std::string &path);
void npy_save(const std::string &path, const Array &a);

}  // namespace harness
