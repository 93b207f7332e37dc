// Overrides of weak Halide runtime hooks, shared by every variant (they all use one runtime).
#include <mutex>
#include <string>

#include "HalideRuntime.h"
#include "devices/opencl_loader.h"
#include "devices/runtime_hooks.h"

namespace harness {

namespace {

std::mutex error_mutex;
std::string last_error;

void capture_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(error_mutex);
    last_error = msg ? msg : "";
    while (!last_error.empty() && (last_error.back() == '\n' || last_error.back() == ' '))
        last_error.pop_back();
}

}  // namespace

void install_halide_error_handler() {
    halide_set_error_handler(capture_error);
}

std::string take_halide_error() {
    std::lock_guard<std::mutex> lock(error_mutex);
    std::string s;
    s.swap(last_error);
    return s;
}

}  // namespace harness

// Halide's runtime only tries "libOpenCL.so"; the harness's one loader (opencl_loader.h) also tries
// "libOpenCL.so.1", which devices and plain installs ship.
extern "C" void *halide_opencl_get_symbol(void *, const char *name) {
    return harness::opencl_symbol(name);
}
