// Deterministic input generation: the same recipe gives the same bytes on every platform.
// The integer -> value mapping is written here (splitmix64), never std::*_distribution.
#pragma once
#include <cstdint>

#include "harness/array.h"
#include "harness/spec.h"

namespace harness {

// splitmix64: a portable 64-bit generator.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next();
    // Uniform integer in [lo, hi] (inclusive); lo <= hi.
    int64_t uniform_int(int64_t lo, int64_t hi);
    // Uniform double in [lo, hi), from the top 53 bits.
    double uniform_real(double lo, double hi);

private:
    uint64_t state_;
};

// Allocates an array of the buffer's type and shape filled by its recipe. An Image recipe's file is
// read from `input_dir` (run and bless pass <golden dir>/inputs; "" = the default golden dir's inputs/).
// Throws Error if the recipe's range does not fit the type.
Array make_input(const BufferSpec &spec, const std::string &input_dir = "");

}  // namespace harness
