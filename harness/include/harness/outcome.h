// Outcome classes of a run and the record a run produces (DESIGN.md "Running a case").
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

enum class Outcome { Pass, Fail, Error, Crash, TeardownFault, Timeout, Skip, XFail, XPass };

// "PASS", "FAIL", "ERROR", "CRASH", "TEARDOWN_FAULT", "TIMEOUT", "SKIP", "XFAIL", "XPASS".
const char *outcome_name(Outcome o);
// Inverse of outcome_name; throws Error for an unknown name.
Outcome outcome_from_name(const std::string &name);
// Process exit code of an outcome: 0, 1, 2, 3, 4, 5, 77; XFAIL and XPASS 0.
int outcome_exit_code(Outcome o);
// Severity for "worst outcome" summaries:
// PASS < XFAIL < SKIP < XPASS < FAIL < TEARDOWN_FAULT < TIMEOUT < CRASH < ERROR.
int outcome_severity(Outcome o);

// One run of one pipeline x profile x case x buffer mode.
struct RunRecord {
    std::string pipeline, profile, case_name, mode = "host";
    Outcome outcome = Outcome::Error;
    std::string message;                     // one line
    nlohmann::json metrics = nlohmann::json::object();  // compare metrics, timings, device
    double duration_ms = 0;
    std::string target;                      // Halide target string of the variant
    std::string stderr_tail;                 // last lines the child wrote to stderr
    std::string result_outcome;              // for TEARDOWN_FAULT: what the child had recorded
    std::string fallback_for;                // a cpu fallback record: the GPU profile it stands in for
    std::string xfail_reason;                // XFAIL/XPASS: the golden/xfail.json entry's reason
    nlohmann::json artifacts = nlohmann::json::object();  // file paths (output .npy, ...)

    nlohmann::json to_json() const;
    static RunRecord from_json(const nlohmann::json &j);
    std::string id() const { return pipeline + "/" + profile + "/" + case_name; }
};

}  // namespace harness
