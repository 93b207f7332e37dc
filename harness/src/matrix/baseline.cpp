// A device baseline (baseline.h): reading, writing and applying `run --baseline` files.
#include "matrix/baseline.h"

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/files.h"
#include "matrix/flake.h"
#include "base/json_reader.h"

namespace harness {

namespace {

constexpr const char *kFormat = "aot-harness-baseline";

// `k` (the key of `at`, or its string value) must be pipeline/profile/case/mode.
void check_key(const std::string &k, const JsonAt &at) {
    size_t parts = 1;
    for (const char c : k)
        parts += c == '/';
    if (k.empty() || parts != 4 || k.find("//") != std::string::npos || k.front() == '/' || k.back() == '/') {
        at.fail("'" + k + "' is not pipeline/profile/case/mode");
    }
}

}  // namespace

Baseline Baseline::load(const std::string &path) {
    if (path.empty()) return Baseline();
    Baseline b = parse(read_file(path), path);
    b.path_ = path;
    return b;
}

Baseline Baseline::parse(const std::string &json_text, const std::string &what) {
    const std::string fix = "write it with aot-harness run --baseline-out FILE";
    const nlohmann::json j = parse_json(json_text, what, fix);
    const JsonAt top(j, what, fix);
    top.object();
    if (!top.has("format") || !j["format"].is_string() || j["format"] != kFormat) {
        top.fail("not a baseline (no \"format\": \"aot-harness-baseline\")");
    }
    top.get("version").integer(1, 1);
    top.only_keys({"format", "version", "failures", "flakes", "note"});
    Baseline b;
    if (top.has("failures")) {
        for (const auto &[k, v] : top.get("failures").members()) {
            check_key(k, v);
            const OutcomeInfo *o = find_outcome(v.string());
            if (!o || !is_unexpected_failure(o->outcome))
                v.fail("'" + v.string() + "' is not FAIL, TEARDOWN_FAULT, TIMEOUT, CRASH or ERROR");
            b.failures_[k] = o->name;
        }
    }
    if (top.has("flakes")) {
        for (const JsonAt &f : top.get("flakes").items()) {
            check_key(f.string(), f);
            b.flakes_.insert(f.string());
        }
    }
    return b;
}

std::string Baseline::key(const RunRecord &r) {
    return r.pipeline + "/" + r.profile + "/" + r.case_name + "/" + r.mode;
}

bool Baseline::expects(const RunRecord &r) const {
    const auto it = failures_.find(key(r));
    return it != failures_.end() && it->second == outcome_name(r.outcome);
}

void Baseline::apply(RunRecord &r) const {
    if (!r.fallback_for.empty()) return;
    const std::string k = key(r);
    const std::string from = path_.empty() ? "baseline" : "baseline " + path_;  // xfail_reason starts with "baseline"
    const auto it = failures_.find(k);
    if (it != failures_.end()) {
        if (it->second == outcome_name(r.outcome)) {
            r.result_outcome = it->second;
            r.outcome = Outcome::XFail;
            r.xfail_reason = from + " expects " + it->second;
            r.message = "expected " + it->second + " (" + from + "): " + r.message;
        } else if (r.outcome == Outcome::Pass) {
            r.outcome = Outcome::XPass;
            r.xfail_reason = from + " expects " + it->second;
            r.message = "passed, but " + from + " expects " + it->second + "; write a new baseline";
        }
        return;
    }
    if (flakes_.count(k) && is_unexpected_failure(r.outcome)) {
        r.result_outcome = outcome_name(r.outcome);
        r.outcome = Outcome::Flake;
        r.message = "known flake in " + from + ", failed this time: " + r.result_outcome + " (" + r.message + ")";
    }
}

Baseline Baseline::from_records(const std::vector<RunRecord> &records) {
    Baseline b;
    for (const auto &r : records) {
        if (!r.fallback_for.empty()) continue;
        if (is_unexpected_failure(r.outcome)) {
            b.failures_[key(r)] = outcome_name(r.outcome);
        } else if (r.outcome == Outcome::XFail && r.xfail_reason.rfind("baseline", 0) == 0 &&
                   !r.result_outcome.empty()) {
            b.failures_[key(r)] = r.result_outcome;
        } else if (r.outcome == Outcome::Flake) {
            b.flakes_.insert(key(r));
        }
    }
    return b;
}

std::string Baseline::to_json() const {
    nlohmann::json j{{"format", kFormat}, {"version", 1}, {"failures", failures_}, {"flakes", flakes_}};
    return j.dump(1) + "\n";
}

}  // namespace harness
