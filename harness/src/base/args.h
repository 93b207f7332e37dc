// A small, strict argument parser: `--name value`, `--name=value` and `--flag`; unknown options
// are errors naming the command's --help.
#pragma once
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
    // A number in [lo, hi]; throws Error naming the option otherwise.
    double number(const std::string &name, double fallback, double lo, double hi) const;
    const std::vector<std::string> &positional() const { return positional_; }

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

}  // namespace harness
