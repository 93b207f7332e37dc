// Test helper shared by the unit tests.
#pragma once
#include <functional>
#include <string>

#include "base/error.h"

namespace harness {

// The message of the harness::Error `f` throws, or "" if it throws nothing (other exceptions escape).
inline std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    return "";
}

}  // namespace harness
