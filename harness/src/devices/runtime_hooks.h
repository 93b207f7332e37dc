// Hooks into the shared Halide runtime: errors become records instead of aborts.
#pragma once
#include <string>

namespace harness {

// Replaces Halide's error handler: messages are kept for take_halide_error() (not printed).
void install_halide_error_handler();
// The last Halide error message since the previous call ("" if none), and clears it.
std::string take_halide_error();

// How an error message starts when an emulated device (device_personality.h) refused the call that failed:
// the refusal (kernel, need, limit), then Halide's own message in parentheses.
inline constexpr const char *kDeviceLimitPrefix = "device limit: ";

}  // namespace harness
