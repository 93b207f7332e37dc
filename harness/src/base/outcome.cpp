// The outcome table (outcome.h): lookups by outcome and name, severities, the worst outcome, RunRecord JSON.
#include "base/outcome.h"

#include "base/error.h"
#include "base/json_reader.h"

namespace harness {

namespace {

const std::vector<OutcomeInfo> &table() {
    static const std::vector<OutcomeInfo> t = [] {
        std::vector<OutcomeInfo> rows{
#define HARNESS_OUTCOME_ROW(e, name, code, colour, text, description) \
    {Outcome::e, name, code, colour, text, description, 0},
            HARNESS_OUTCOME_TABLE(HARNESS_OUTCOME_ROW)
#undef HARNESS_OUTCOME_ROW
        };
        for (size_t i = 0; i < rows.size(); i++)
            rows[i].severity = static_cast<int>(i);
        return rows;
    }();
    return t;
}

// The record's value at `key`, which must exist and be a string.
std::string required_string(const nlohmann::json &j, const char *key) {
    const auto it = j.find(key);
    if (it == j.end())
        throw Error(std::string("run record is missing required key \"") + key + "\"; regenerate the record");
    if (!it->is_string())
        throw Error(std::string("run record key \"") + key + "\" must be a string, got " + json_brief(*it));
    return it->get<std::string>();
}

// The record's value at `key` if present (and not null); throws naming the key if it has the wrong type.
std::string optional_string(const nlohmann::json &j, const char *key, const std::string &fallback = "") {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_string())
        throw Error(std::string("run record key \"") + key + "\" must be a string, got " + json_brief(*it));
    return it->get<std::string>();
}

nlohmann::json optional_object(const nlohmann::json &j, const char *key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nlohmann::json::object();
    if (!it->is_object())
        throw Error(std::string("run record key \"") + key + "\" must be an object, got " + json_brief(*it));
    return *it;
}

}  // namespace

const std::vector<OutcomeInfo> &outcome_table() {
    return table();
}

const OutcomeInfo &outcome_info(Outcome o) {
    for (const auto &i : table()) {
        if (i.outcome == o) return i;
    }
    throw Error("internal error: outcome value " + std::to_string(static_cast<int>(o)) + " has no row; fix outcome.h");
}

const OutcomeInfo *find_outcome(const std::string &name) {
    for (const auto &i : table()) {
        if (name == i.name) return &i;
    }
    return nullptr;
}

const char *outcome_name(Outcome o) {
    return outcome_info(o).name;
}

Outcome outcome_from_name(const std::string &name) {
    if (const OutcomeInfo *i = find_outcome(name)) return i->outcome;
    std::string known;
    for (const auto &i : table())
        known += (known.empty() ? "" : ", ") + std::string(i.name);
    throw Error("unknown outcome \"" + name + "\"; expected one of " + known);
}

int outcome_exit_code(Outcome o) {
    return outcome_info(o).exit_code;
}

int outcome_severity(Outcome o) {
    return outcome_info(o).severity;
}

int outcome_name_severity(const std::string &name) {
    const OutcomeInfo *i = find_outcome(name);
    return i ? i->severity : static_cast<int>(table().size());
}

const std::string &worse_outcome_name(const std::string &a, const std::string &b) {
    return outcome_name_severity(b) > outcome_name_severity(a) ? b : a;
}

nlohmann::json outcome_table_json() {
    nlohmann::json t = nlohmann::json::array();
    for (const auto &i : table()) {
        t.push_back({{"name", i.name},
                     {"severity", i.severity},
                     {"exit_code", i.exit_code},
                     {"colour", i.colour},
                     {"text_colour", i.text_colour},
                     {"description", i.description}});
    }
    return t;
}

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
        if (!it->is_number()) throw Error("run record key \"duration_ms\" must be a number, got " + json_brief(*it));
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

Outcome worst_outcome(const std::vector<RunRecord> &runs) {
    Outcome worst = Outcome::Pass;
    for (const auto &r : runs) {
        if (outcome_severity(r.outcome) > outcome_severity(worst)) worst = r.outcome;
    }
    return worst;
}

}  // namespace harness
