// Args and OptionSpec (args.h): the strict --name value / --name=value / --flag parser, its rows and checked numbers.
#include "base/args.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "base/error.h"

namespace harness {

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

namespace {

OptionSpec make_row(std::string name, OptionType type, std::string value, std::string help, std::string fallback = "",
                    double lo = 0, double hi = 0) {
    OptionSpec o;
    o.name = std::move(name);
    o.type = type;
    o.value = std::move(value);
    o.help = std::move(help);
    o.fallback = std::move(fallback);
    o.lo = lo;
    o.hi = hi;
    return o;
}

}  // namespace

OptionSpec OptionSpec::flag(std::string name, std::string help) {
    return make_row(std::move(name), OptionType::Flag, "", std::move(help));
}

OptionSpec OptionSpec::text(std::string name, std::string value, std::string help, std::string fallback) {
    return make_row(std::move(name), OptionType::Text, std::move(value), std::move(help), std::move(fallback));
}

OptionSpec OptionSpec::whole(std::string name, std::string value, std::string help, int64_t fallback, int64_t lo,
                             int64_t hi) {
    return make_row(std::move(name), OptionType::Whole, std::move(value), std::move(help), std::to_string(fallback),
                    double(lo), double(hi));
}

OptionSpec OptionSpec::number(std::string name, std::string value, std::string help, double fallback, double lo,
                              double hi) {
    return make_row(std::move(name), OptionType::Number, std::move(value), std::move(help), bound_text(fallback), lo,
                    hi);
}

std::string OptionSpec::default_and_range() const {
    const std::string shown = !shown_default.empty() ? shown_default : fallback;
    std::string range;
    if (type == OptionType::Whole || type == OptionType::Number) range = bound_text(lo) + " to " + bound_text(hi);
    if (shown.empty() && range.empty()) return "";
    if (shown.empty()) return "(" + range + ")";
    return "(default " + shown + (range.empty() ? "" : "; " + range) + ")";
}

Args::Args(const std::string &command, const std::vector<std::string> &argv, const std::vector<OptionSpec> &options)
    : command_(command) {
    for (const auto &o : options)
        rows_[o.name] = o;
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
        const auto it = rows_.find(name);
        if (it != rows_.end() && it->second.type == OptionType::Flag && !inline_value) {
            values_[name] = "1";
        } else if (it != rows_.end() && it->second.type != OptionType::Flag) {
            if (!inline_value) {
                if (i + 1 >= argv.size()) {
                    throw Error("option --" + name + " of '" + command_ + "' needs a value; see aot-harness " +
                                command_ + " --help");
                }
                value = argv[++i];
            }
            values_[name] = value;
            if (it->second.type == OptionType::Whole) whole(name);  // its range, checked now
            if (it->second.type == OptionType::Number) number(name);
        } else {
            throw Error("unknown option '--" + name + "' for '" + command_ + "'; see aot-harness " + command_ +
                        " --help");
        }
    }
}

const OptionSpec &Args::row(const std::string &name) const {
    const auto it = rows_.find(name);
    if (it == rows_.end()) throw Error("internal error: '" + command_ + "' has no option --" + name + "; fix its row");
    return it->second;
}

std::string Args::get(const std::string &name) const {
    const auto it = values_.find(name);
    return it == values_.end() ? row(name).fallback : it->second;
}

std::string Args::get(const std::string &name, const std::string &fallback) const {
    row(name);
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

double Args::number(const std::string &name) const {
    const OptionSpec &r = row(name);
    const double lo = r.lo, hi = r.hi;
    const std::string s = get(name);
    if (!has(name)) return std::strtod(s.c_str(), nullptr);
    const double v = plain_decimal(s, false) ? std::strtod(s.c_str(), nullptr) : NAN;
    if (!std::isfinite(v) || v < lo || v > hi) {
        throw Error("--" + name + " '" + s + "' is not a number from " + bound_text(lo) + " to " + bound_text(hi) +
                    "; pass one in that range");
    }
    return v;
}

int64_t Args::whole(const std::string &name) const {
    const OptionSpec &r = row(name);
    const auto lo = static_cast<int64_t>(r.lo), hi = static_cast<int64_t>(r.hi);
    const std::string s = get(name);
    if (!has(name)) return std::strtoll(s.c_str(), nullptr, 10);
    errno = 0;
    const long long v = plain_decimal(s, true) ? std::strtoll(s.c_str(), nullptr, 10) : 0;
    if (!plain_decimal(s, true) || errno == ERANGE || v < lo || v > hi) {
        throw Error("--" + name + " '" + s + "' is not a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + "; pass one in that range");
    }
    return v;
}

}  // namespace harness
