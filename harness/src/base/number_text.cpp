// Numbers as text (number_text.h).
#include "base/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace harness {

std::string fmt_num(double v, int bits) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[40];
    int precision = 1;
    for (; precision <= 17; precision++) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        const double back = std::strtod(buf, nullptr);
        if (bits == 32 ? float(back) == float(v) : back == v) break;
    }
    const int exponent = v == 0 ? 0 : int(std::floor(std::log10(std::fabs(v))));
    if (std::strchr(buf, 'e') && exponent >= 0 && exponent < 16) {
        std::snprintf(buf, sizeof buf, "%.*g", std::max(precision, exponent + 1), v);
    }
    return buf;
}

std::string fmt_fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string fmt_pct(double fraction) {
    const double pct = fraction * 100;
    if (pct > 0 && pct < 0.01) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.2g", pct);
        return buf;
    }
    return fmt_fixed2(pct);
}

nlohmann::json num(double v) {
    if (std::isfinite(v)) return v;
    return fmt_num(v);
}

}  // namespace harness
