// Outcome classes of a run, their table (order, exit code, colour, description) and the record a run
// produces. The table below is the only place an outcome is defined: the console and results.json
// summaries, the HTML report, `aot-harness outcomes --json` and, through it,
// scripts/harnesslib/outcomes.json (the Python side and the dashboard) all read it.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// One row per outcome, least severe first: the row order is the "worst outcome" order.
// X(enumerator, name, exit code, background colour, text colour, description).
// Adding an outcome is one row here (then regenerate scripts/harnesslib/outcomes.json, which the
// outcomes/* tests check).
#define HARNESS_OUTCOME_TABLE(X)                                                                                   \
    X(Pass, "PASS", 0, "#2e7d32", "#fff", "matches the golden within the tolerance, every check passed")           \
    X(XFail, "XFAIL", 0, "#00897b", "#fff", "a known failure listed in golden/xfail.json failed as expected")      \
    X(Flake, "FLAKE", 0, "#c0ca33", "#222", "failed, then passed when re-run (--flake-retries); or a known flake") \
    X(Skip, "SKIP", 77, "#9e9e9e", "#fff", "cannot run here (no driver, device, extension or buffer mode)")        \
    X(XPass, "XPASS", 0, "#f9a825", "#222", "listed in golden/xfail.json but passed (exit 1 with --strict-xfail)") \
    X(Nondeterministic, "NONDET", 6, "#3949ab", "#fff",                                                            \
      "not judged: the cpu variant, which makes the golden, gives different outputs for the same inputs")          \
    X(Infra, "INFRA", 7, "#5d4037", "#fff",                                                                        \
      "not run: the device farm failed (a LAVA job ended Incomplete or Canceled, retried); no test result")        \
    X(Fail, "FAIL", 1, "#d32f2f", "#fff", "ran, but a result or check is wrong")                                   \
    X(TeardownFault, "TEARDOWN_FAULT", 4, "#ef6c00", "#fff", "recorded its result, then died or failed at exit")   \
    X(Timeout, "TIMEOUT", 5, "#6a1b9a", "#fff", "did not finish within --timeout; its process group was killed")   \
    X(Crash, "CRASH", 3, "#111", "#ff5252", "died on a signal before recording a result")                          \
    X(Error, "ERROR", 2, "#a0135f", "#fff", "could not run: configuration, golden, compile or Halide error")

enum class Outcome {
#define HARNESS_OUTCOME_ENUM(e, ...) e,
    HARNESS_OUTCOME_TABLE(HARNESS_OUTCOME_ENUM)
#undef HARNESS_OUTCOME_ENUM
};

struct OutcomeInfo {
    Outcome outcome;
    const char *name;
    int exit_code;
    const char *colour, *text_colour;  // report and dashboard: badge background and text
    const char *description;
    int severity;  // position in the table: 0 = PASS
};

// Every outcome, in severity order.
const std::vector<OutcomeInfo> &outcome_table();
const OutcomeInfo &outcome_info(Outcome o);
// The row named `name`, or nullptr.
const OutcomeInfo *find_outcome(const std::string &name);

// "PASS", "FAIL", ...: the table's name.
const char *outcome_name(Outcome o);
// Inverse of outcome_name; throws Error for an unknown name, listing the known ones.
Outcome outcome_from_name(const std::string &name);
// Process exit code of an outcome (the table's).
int outcome_exit_code(Outcome o);
// Severity for "worst outcome": the table's order.
int outcome_severity(Outcome o);
// Severity of an outcome name; a name that is not in the table is worse than every outcome.
int outcome_name_severity(const std::string &name);
// The worse of two outcome names (the first on a tie).
const std::string &worse_outcome_name(const std::string &a, const std::string &b);
// The table as JSON: [{"name", "exit_code", "colour", "text_colour", "description", "severity"}, ...].
nlohmann::json outcome_table_json();

// One run of one pipeline x profile x case x buffer mode.
struct RunRecord {
    std::string pipeline, profile, case_name, mode = "host";
    Outcome outcome = Outcome::Error;
    std::string message;                                // one line
    nlohmann::json metrics = nlohmann::json::object();  // compare metrics, timings, device
    double duration_ms = 0;
    std::string target;                                   // Halide target string of the variant
    std::string stderr_tail;                              // last lines the child wrote to stderr
    std::string result_outcome;                           // for TEARDOWN_FAULT: what the child had recorded
    std::string fallback_for;                             // a cpu fallback record: the GPU profile it stands in for
    std::string xfail_reason;                             // XFAIL/XPASS: the golden/xfail.json entry's reason
    nlohmann::json artifacts = nlohmann::json::object();  // file paths (output .npy, ...)

    nlohmann::json to_json() const;
    static RunRecord from_json(const nlohmann::json &j);
    std::string id() const { return pipeline + "/" + profile + "/" + case_name; }
};

// The most severe outcome of `runs` (Pass for none): the one worst-of, behind the summary's "worst"
// and run's exit code (results.h); scripts/harnesslib/data.py worst() is its Python twin.
Outcome worst_outcome(const std::vector<RunRecord> &runs);

}  // namespace harness
