// harness::Error: the one exception type of the harness library.
// Its message names the problem and the fix, and fits on one line; the CLI prints it and exits 2.
#pragma once
#include <stdexcept>
#include <string>

namespace harness {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string &message) : std::runtime_error(message) {}
};

}  // namespace harness
