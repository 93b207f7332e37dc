// Numbers as text for messages and JSON (private to the harness sources: compare.cpp, tolerance.cpp).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

// Shortest decimal that reads back as the same value (as a float when bits == 32), %g style but
// without an exponent for integers below 1e16: 0.001, 1e-05, 40, 0.52.
std::string fmt_num(double v, int bits = 64);
// Two decimals without trailing zeros: 0.39, 6, 34.15.
std::string fmt_fixed2(double v);
// A fraction as a percentage for messages; tiny nonzero fractions keep two significant digits.
std::string fmt_pct(double fraction);
// JSON has no inf/nan: they become the strings "inf", "-inf", "nan".
nlohmann::json num(double v);

}  // namespace harness
