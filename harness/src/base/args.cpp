// Args (args.h): the strict --name value / --name=value / --flag parser and its checked numbers.
#include "base/args.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
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

namespace {

std::string bound_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

// Plain decimal text: an optional sign, digits, at most one point, an optional exponent. Not what strtod
// also takes (0x10, inf, nan, leading spaces): an option's value is written by hand, so a typo stops.
bool plain_decimal(const std::string &s, bool whole) {
    size_t i = s.size() > 1 && (s[0] == '-' || s[0] == '+') ? 1 : 0, digits = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); i++)
        digits++;
    if (whole) return digits > 0 && i == s.size();
    if (i < s.size() && s[i] == '.') {
        for (i++; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); i++)
            digits++;
    }
    if (digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) i++;
        const size_t start = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
            i++;
        if (i == start) return false;
    }
    return i == s.size();
}

}  // namespace

double Args::number(const std::string &name, double fallback, double lo, double hi) const {
    if (!has(name)) return fallback;
    const std::string s = get(name);
    const double v = plain_decimal(s, false) ? std::strtod(s.c_str(), nullptr) : NAN;
    if (!std::isfinite(v) || v < lo || v > hi) {
        throw Error("--" + name + " '" + s + "' is not a number from " + bound_text(lo) + " to " + bound_text(hi) +
                    "; pass one in that range");
    }
    return v;
}

int64_t Args::whole(const std::string &name, int64_t fallback, int64_t lo, int64_t hi) const {
    if (!has(name)) return fallback;
    const std::string s = get(name);
    errno = 0;
    const long long v = plain_decimal(s, true) ? std::strtoll(s.c_str(), nullptr, 10) : 0;
    if (!plain_decimal(s, true) || errno == ERANGE || v < lo || v > hi) {
        throw Error("--" + name + " '" + s + "' is not a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + "; pass one in that range");
    }
    return v;
}

}  // namespace harness
