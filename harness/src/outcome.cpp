#include "harness/outcome.h"

#include "harness/error.h"

namespace harness {

namespace {

struct OutcomeInfo {
    Outcome outcome;
    const char *name;
    int exit_code;
    int severity;
};

// DESIGN.md "Running a case": names, exit codes, and the order used for "worst outcome".
constexpr OutcomeInfo kOutcomes[] = {
    {Outcome::Pass, "PASS", 0, 0},
    {Outcome::Fail, "FAIL", 1, 4},
    {Outcome::Error, "ERROR", 2, 8},
    {Outcome::Crash, "CRASH", 3, 7},
    {Outcome::TeardownFault, "TEARDOWN_FAULT", 4, 5},
    {Outcome::Timeout, "TIMEOUT", 5, 6},
    {Outcome::Skip, "SKIP", 77, 2},
    // golden/xfail.json: an expected failure, and an expected failure that passed (XPASS is exit 1
    // with --strict-xfail; the CLI handles that).
    {Outcome::XFail, "XFAIL", 0, 1},
    {Outcome::XPass, "XPASS", 0, 3},
};

const OutcomeInfo &info(Outcome o) {
    for (const auto &i : kOutcomes) {
        if (i.outcome == o) return i;
    }
    throw Error("internal error: outcome value " + std::to_string(static_cast<int>(o)) + " has no name; fix outcome.cpp");
}

// The record's value at `key`, which must exist and be a string.
std::string required_string(const nlohmann::json &j, const char *key) {
    const auto it = j.find(key);
    if (it == j.end()) throw Error(std::string("run record is missing required key \"") + key + "\"; regenerate the record");
    if (!it->is_string()) throw Error(std::string("run record key \"") + key + "\" must be a string, got " + it->dump());
    return it->get<std::string>();
}

// The record's value at `key` if present (and not null); throws naming the key if it has the wrong type.
std::string optional_string(const nlohmann::json &j, const char *key, const std::string &fallback = "") {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_string()) throw Error(std::string("run record key \"") + key + "\" must be a string, got " + it->dump());
    return it->get<std::string>();
}

nlohmann::json optional_object(const nlohmann::json &j, const char *key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nlohmann::json::object();
    if (!it->is_object()) throw Error(std::string("run record key \"") + key + "\" must be an object, got " + it->dump());
    return *it;
}

}  // namespace

const char *outcome_name(Outcome o) { return info(o).name; }

Outcome outcome_from_name(const std::string &name) {
    for (const auto &i : kOutcomes) {
        if (name == i.name) return i.outcome;
    }
    throw Error("unknown outcome \"" + name +
                "\"; expected one of PASS, FAIL, ERROR, CRASH, TEARDOWN_FAULT, TIMEOUT, SKIP");
}

int outcome_exit_code(Outcome o) { return info(o).exit_code; }

int outcome_severity(Outcome o) { return info(o).severity; }

nlohmann::json RunRecord::to_json() const {
    nlohmann::json j{{"pipeline", pipeline},
                     {"profile", profile},
                     {"case", case_name},
                     {"mode", mode},
                     {"outcome", outcome_name(outcome)},
                     {"message", message},
                     {"metrics", metrics.is_null() ? nlohmann::json::object() : metrics},
                     {"duration_ms", duration_ms},
                     {"target", target}};
    if (!stderr_tail.empty()) j["stderr_tail"] = stderr_tail;
    if (!result_outcome.empty()) j["result_outcome"] = result_outcome;
    if (!fallback_for.empty()) j["fallback_for"] = fallback_for;
    if (!xfail_reason.empty()) j["xfail_reason"] = xfail_reason;
    if (artifacts.is_object() && !artifacts.empty()) j["artifacts"] = artifacts;
    return j;
}

RunRecord RunRecord::from_json(const nlohmann::json &j) {
    if (!j.is_object()) throw Error("run record must be a JSON object, got " + std::string(j.type_name()));
    RunRecord r;
    r.pipeline = required_string(j, "pipeline");
    r.profile = required_string(j, "profile");
    r.case_name = required_string(j, "case");
    const std::string outcome = required_string(j, "outcome");
    try {
        r.outcome = outcome_from_name(outcome);
    } catch (const Error &e) {
        throw Error(std::string("run record key \"outcome\": ") + e.what());
    }
    r.mode = optional_string(j, "mode", "host");
    r.message = optional_string(j, "message");
    r.metrics = optional_object(j, "metrics");
    if (const auto it = j.find("duration_ms"); it != j.end() && !it->is_null()) {
        if (!it->is_number()) throw Error("run record key \"duration_ms\" must be a number, got " + it->dump());
        r.duration_ms = it->get<double>();
    }
    r.target = optional_string(j, "target");
    r.stderr_tail = optional_string(j, "stderr_tail");
    r.result_outcome = optional_string(j, "result_outcome");
    r.fallback_for = optional_string(j, "fallback_for");
    r.xfail_reason = optional_string(j, "xfail_reason");
    r.artifacts = optional_object(j, "artifacts");
    return r;
}

}  // namespace harness
