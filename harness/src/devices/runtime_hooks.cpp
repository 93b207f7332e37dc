// Overrides of weak Halide runtime hooks, shared by every variant (they all use one runtime).
#include <mutex>
#include <string>

#include "HalideRuntime.h"
#include "devices/device_personality.h"
#include "devices/runtime_hooks.h"
#include "devices/vulkan_interpose.h"

namespace harness {

namespace {

std::mutex error_mutex;
std::string last_error;
std::string current_refusal;  // an emulated device's refusal behind the errors since the last take

void capture_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(error_mutex);
    last_error = msg ? msg : "";
    while (!last_error.empty() && (last_error.back() == '\n' || last_error.back() == ' '))
        last_error.pop_back();
    // A launch or build an emulated device refused: its message names the kernel, the need and the
    // limit, which Halide's own ("clEnqueueNDRangeKernel failed: CL_INVALID_WORK_GROUP_SIZE") does not.
    // Halide reports one failure in several messages, the last one kept: the refusal stays with each of them
    // until the error is taken.
    std::string refusal = take_device_limit_violation();
    if (refusal.empty()) refusal = vulkan_shared_memory_refusal(last_error);  // Halide's own check of the limit
    if (!refusal.empty()) current_refusal = refusal;
    if (!current_refusal.empty()) last_error = kDeviceLimitPrefix + current_refusal + " (Halide: " + last_error + ")";
}

}  // namespace

void install_halide_error_handler() {
    halide_set_error_handler(capture_error);
}

std::string take_halide_error() {
    std::lock_guard<std::mutex> lock(error_mutex);
    std::string s;
    s.swap(last_error);
    current_refusal.clear();
    return s;
}

}  // namespace harness
