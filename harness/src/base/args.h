// A small, strict argument parser: `--name value`, `--name=value` and `--flag`; unknown options
// are errors naming the command's --help.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace harness {

class Args {
public:
    // `with_value`: options that take a value; `flags`: options that do not.
    // Throws Error for an unknown option or a missing value.
    Args(const std::string &command, const std::vector<std::string> &argv, const std::set<std::string> &with_value,
         const std::set<std::string> &flags);

    bool has(const std::string &name) const { return values_.count(name) > 0; }
    std::string get(const std::string &name, const std::string &fallback = "") const;
    // A decimal number in [lo, hi] (not 0x10, inf or nan); throws Error naming the option and the range.
    double number(const std::string &name, double fallback, double lo, double hi) const;
    // A whole number in [lo, hi]: digits with an optional sign only (2.5, 1e3, 0x10 are errors).
    int64_t whole(const std::string &name, int64_t fallback, int64_t lo, int64_t hi) const;
    const std::vector<std::string> &positional() const { return positional_; }

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

}  // namespace harness
