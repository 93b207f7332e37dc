// SHA-256 of a byte string, as 64 lowercase hex digits (FIPS 180-4).
#pragma once
#include <string>

namespace harness {

std::string sha256_hex(const std::string &bytes);

}  // namespace harness
