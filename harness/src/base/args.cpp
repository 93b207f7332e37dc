// Args (args.h): the strict --name value / --name=value / --flag parser and its checked numbers.
#include "base/args.h"

#include <cmath>
#include <cstdlib>

#include "base/error.h"

namespace harness {

Args::Args(const std::string &command, const std::vector<std::string> &argv, const std::set<std::string> &with_value,
           const std::set<std::string> &flags)
    : command_(command) {
    for (size_t i = 0; i < argv.size(); i++) {
        const std::string &a = argv[i];
        if (a.rfind("--", 0) != 0 || a == "--") {
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2), value;
        const size_t eq = name.find('=');
        const bool inline_value = eq != std::string::npos;
        if (inline_value) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        if (flags.count(name) && !inline_value) {
            values_[name] = "1";
        } else if (with_value.count(name)) {
            if (!inline_value) {
                if (i + 1 >= argv.size()) {
                    throw Error("option --" + name + " of '" + command_ + "' needs a value; see aot-harness " +
                                command_ + " --help");
                }
                value = argv[++i];
            }
            values_[name] = value;
        } else {
            throw Error("unknown option '--" + name + "' for '" + command_ + "'; see aot-harness " + command_ +
                        " --help");
        }
    }
}

std::string Args::get(const std::string &name, const std::string &fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

double Args::number(const std::string &name, double fallback, double lo, double hi) const {
    if (!has(name)) return fallback;
    const std::string s = get(name);
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || v < lo || v > hi) {
        throw Error("--" + name + " '" + s + "' is not a number from " + std::to_string(static_cast<long long>(lo)) +
                    " to " + std::to_string(static_cast<long long>(hi)) + "; pass one in that range");
    }
    return v;
}

}  // namespace harness
