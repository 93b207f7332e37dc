// A device baseline (baseline.h): reading, writing and applying `run --baseline` files.
#include "matrix/baseline.h"

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/files.h"
#include "matrix/flake.h"

namespace harness {

namespace {

constexpr const char *kFormat = "aot-harness-baseline";

void check_key(const std::string &k, const std::string &what) {
    size_t parts = 1;
    for (const char c : k)
        parts += c == '/';
    if (parts != 4 || k.find("//") != std::string::npos || k.front() == '/' || k.back() == '/') {
        throw Error(what + ": '" + k + "' is not pipeline/profile/case/mode; write the file with run --baseline-out");
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
    const std::string fix = "; write it with aot-harness run --baseline-out FILE";
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::exception &e) {
        throw Error(what + " is not JSON (" + e.what() + ")" + fix);
    }
    if (!j.is_object() || j.value("format", "") != kFormat || j.value("version", 0) != 1) {
        throw Error(what + " is not a baseline (format \"aot-harness-baseline\", version 1)" + fix);
    }
    for (const auto &[k, v] : j.items()) {
        if (k != "format" && k != "version" && k != "failures" && k != "flakes" && k != "note") {
            throw Error(what + ": unknown key '" + k + "' (known: failures, flakes, note)" + fix);
        }
    }
    Baseline b;
    const nlohmann::json failures = j.value("failures", nlohmann::json::object());
    const nlohmann::json flakes = j.value("flakes", nlohmann::json::array());
    if (!failures.is_object() || !flakes.is_array())
        throw Error(what + ": failures must be an object, flakes a list" + fix);
    for (const auto &[k, v] : failures.items()) {
        check_key(k, what);
        const OutcomeInfo *o = v.is_string() ? find_outcome(v.get<std::string>()) : nullptr;
        if (!o || !is_unexpected_failure(o->outcome)) {
            throw Error(what + ": failure of " + k + " must be FAIL, TEARDOWN_FAULT, TIMEOUT, CRASH or ERROR" + fix);
        }
        b.failures_[k] = o->name;
    }
    for (const auto &f : flakes) {
        if (!f.is_string()) throw Error(what + ": flakes must be a list of pipeline/profile/case/mode" + fix);
        check_key(f.get<std::string>(), what);
        b.flakes_.insert(f.get<std::string>());
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
