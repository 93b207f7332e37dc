// A results document: what `run` produced (environment and records) and its summary. The run matrix
// (run_matrix.h) returns the records; the console summary, results.json (`run --json`) and the HTML
// report (report.h) all take this struct.
//
// results.json: {"environment": {...}, "runs": [RunRecord::to_json(), ...], "summary": {...}}
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/outcome.h"

namespace harness {

// Counts by outcome, in the outcome table's order, and the worst outcome (outcome.h).
struct RunSummary {
    std::vector<std::pair<std::string, int>> counts;  // only outcomes that occurred
    int total = 0;
    std::string worst = "PASS";

    // {"PASS": 10, "SKIP": 2, "total": 12, "worst": "SKIP"}
    nlohmann::json to_json() const;
    // "10 PASS, 2 SKIP"
    std::string counts_text() const;
};
RunSummary summarize(const std::vector<RunRecord> &runs);

struct RunResults {
    nlohmann::json environment = nlohmann::json::object();
    std::vector<RunRecord> runs;

    RunSummary summary() const { return summarize(runs); }
    nlohmann::json to_json() const;
    // Parses a results document; `path` names it in errors. Throws Error naming the run and the field.
    static RunResults from_json(const nlohmann::json &doc, const std::string &path);
    // Reads and parses the results file at `path` (json_reader.h: nesting limit, one-line errors).
    static RunResults load(const std::string &path);
};

// The exit code of `run` for these records: the worst outcome's, except that with `strict_xfail` an
// XPASS turns an otherwise successful run into 1.
int run_exit_code(const std::vector<RunRecord> &runs, bool strict_xfail);

}  // namespace harness
