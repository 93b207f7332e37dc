// Tolerances: their constructors, names and JSON (compare.h).
#include <cmath>

#include "harness/compare.h"
#include "base/error.h"
#include "base/number_text.h"

namespace harness {

namespace {

using Kind = Tolerance::Kind;

const char *kind_name(Kind k) {
    switch (k) {
    case Kind::Exact:
        return "Exact";
    case Kind::Absolute:
        return "Absolute";
    case Kind::AbsRel:
        return "AbsRel";
    case Kind::Ulp:
        return "Ulp";
    case Kind::MismatchFraction:
        return "MismatchFraction";
    case Kind::Psnr:
        return "Psnr";
    }
    return "?";
}

}  // namespace

Tolerance Tolerance::exact() {
    return Tolerance{};
}

Tolerance Tolerance::absolute(double atol) {
    if (!(atol >= 0)) throw Error("Tolerance::absolute: atol must be >= 0, got " + fmt_num(atol) + "; fix the spec");
    Tolerance t;
    t.kind = Kind::Absolute;
    t.atol = atol;
    return t;
}

Tolerance Tolerance::abs_rel(double atol, double rtol) {
    if (!(atol >= 0) || !(rtol >= 0)) {
        throw Error("Tolerance::abs_rel: atol and rtol must be >= 0, got " + fmt_num(atol) + " and " + fmt_num(rtol) +
                    "; fix the spec");
    }
    Tolerance t;
    t.kind = Kind::AbsRel;
    t.atol = atol;
    t.rtol = rtol;
    return t;
}

Tolerance Tolerance::ulps(int64_t n) {
    if (n < 0) throw Error("Tolerance::ulps: n must be >= 0, got " + std::to_string(n) + "; fix the spec");
    Tolerance t;
    t.kind = Kind::Ulp;
    t.ulp = n;
    return t;
}

Tolerance Tolerance::mismatch_fraction(const Tolerance &inner, double max_fraction) {
    if (!(max_fraction >= 0 && max_fraction <= 1)) {
        throw Error("Tolerance::mismatch_fraction: max_fraction must be in [0, 1], got " + fmt_num(max_fraction) +
                    "; fix the spec");
    }
    if (inner.kind == Kind::MismatchFraction || inner.kind == Kind::Psnr) {
        throw Error("Tolerance::mismatch_fraction: the inner tolerance must be per element, not " + inner.name() +
                    "; use Exact, Absolute, AbsRel or Ulp");
    }
    Tolerance t;
    t.kind = Kind::MismatchFraction;
    t.max_fraction = max_fraction;
    t.inner = std::make_shared<const Tolerance>(inner);
    return t;
}

Tolerance Tolerance::psnr(double min_db) {
    if (std::isnan(min_db)) throw Error("Tolerance::psnr: min_db is NaN; fix the spec");
    Tolerance t;
    t.kind = Kind::Psnr;
    t.min_db = min_db;
    return t;
}

std::string Tolerance::name() const {
    std::string params;
    switch (kind) {
    case Kind::Exact:
        break;
    case Kind::Absolute:
        params = "atol=" + fmt_num(atol);
        break;
    case Kind::AbsRel:
        params = "atol=" + fmt_num(atol) + ", rtol=" + fmt_num(rtol);
        break;
    case Kind::Ulp:
        params = "n=" + std::to_string(ulp);
        break;
    case Kind::MismatchFraction:
        params = "inner=" + (inner ? inner->name() : std::string("Exact")) + ", max_fraction=" + fmt_num(max_fraction);
        break;
    case Kind::Psnr:
        params = "min_db=" + fmt_num(min_db);
        break;
    }
    if (nan_equal) params += params.empty() ? "nan_equal" : ", nan_equal";
    return std::string(kind_name(kind)) + (params.empty() ? "" : "{" + params + "}");
}

nlohmann::json Tolerance::to_json() const {
    nlohmann::json j{{"name", name()}, {"kind", kind_name(kind)}, {"nan_equal", nan_equal}};
    switch (kind) {
    case Kind::Exact:
        break;
    case Kind::Absolute:
        j["atol"] = num(atol);
        break;
    case Kind::AbsRel:
        j["atol"] = num(atol);
        j["rtol"] = num(rtol);
        break;
    case Kind::Ulp:
        j["ulp"] = ulp;
        break;
    case Kind::MismatchFraction:
        j["inner"] = inner ? inner->to_json() : Tolerance::exact().to_json();
        j["max_fraction"] = num(max_fraction);
        break;
    case Kind::Psnr:
        j["min_db"] = num(min_db);
        break;
    }
    return j;
}

core::Rule Tolerance::to_rule() const {
    core::Rule r;
    r.kind = static_cast<core::Rule::Kind>(int(kind));  // the same order (static_asserts below)
    r.atol = atol;
    r.rtol = rtol;
    r.ulp = ulp;
    r.max_fraction = max_fraction;
    r.min_db = min_db;
    r.nan_equal = nan_equal;
    if (inner) r.inner = std::make_shared<const core::Rule>(inner->to_rule());
    return r;
}
static_assert(int(Kind::Exact) == core::Rule::Exact && int(Kind::Absolute) == core::Rule::Absolute &&
              int(Kind::AbsRel) == core::Rule::AbsRel && int(Kind::Ulp) == core::Rule::Ulp &&
              int(Kind::MismatchFraction) == core::Rule::MismatchFraction && int(Kind::Psnr) == core::Rule::Psnr);

}  // namespace harness
