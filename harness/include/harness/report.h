// Human-readable reports of a results file (the JSON `aot-harness run --json` writes).
//
// results.json: {"environment": {...}, "runs": [RunRecord::to_json(), ...], "summary": {...}}
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

// Writes `dir`/index.html: a self-contained page (inline CSS, no external assets) with the summary
// counts, the pipeline x profile grid (one cell per case, coloured by outcome, worst outcome first),
// a table of every run with its message, metrics and stderr tail, and the environment. Creates `dir`
// if needed; throws Error naming the directory if it cannot be written.
void write_html_report(const nlohmann::json &results, const std::string &dir);

// Summary counts by outcome name, e.g. {"PASS": 10, "SKIP": 2, "total": 12, "worst": "SKIP"}.
nlohmann::json summarize(const nlohmann::json &runs);

}  // namespace harness
