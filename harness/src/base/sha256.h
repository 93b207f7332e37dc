// SHA-256 of a byte string, as 64 lowercase hex digits (FIPS 180-4).
#pragma once
#include <string>

namespace harness {

std::string sha256_hex(const std::string &bytes);
// The same digest by the portable rounds only, and whether sha256_hex uses the CPU's SHA extensions (x86
// SHA-NI) instead: for the tests that hold the two paths to each other.
std::string sha256_hex_portable(const std::string &bytes);
bool sha256_uses_cpu_extensions();

}  // namespace harness
