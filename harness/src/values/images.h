// PNG pictures of 2-D and 3-D outputs for reports: golden, output and their difference.
#pragma once
#include <string>

#include "harness/array.h"

namespace harness {

// Writes <prefix>.golden.png, <prefix>.output.png and <prefix>.diff.png when the arrays are 2-D or
// 3-D images (3-D: 1, 3 or 4 channels in dimension 2, else its first channel). Non-u8 values are
// scaled by the golden's range. In the diff, matching pixels are the dimmed golden and mismatching
// ones red, brighter for larger errors. Returns false (writing nothing) for other shapes.
// Throws Error naming the file if it cannot be written.
bool write_comparison_pngs(const Array &golden, const Array &output, const std::string &prefix);

}  // namespace harness
