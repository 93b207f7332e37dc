// Results documents and their summary (results.h).
#include "report/results.h"

#include <algorithm>

#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

nlohmann::json RunSummary::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto &[name, n] : counts)
        j[name] = n;
    j["total"] = total;
    j["worst"] = worst;
    return j;
}

std::string RunSummary::counts_text() const {
    std::string s;
    for (const auto &[name, n] : counts)
        s += (s.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    return s;
}

RunSummary summarize(const std::vector<RunRecord> &runs) {
    RunSummary s;
    for (const auto &o : outcome_table()) {
        const int n = static_cast<int>(
            std::count_if(runs.begin(), runs.end(), [&](const RunRecord &r) { return r.outcome == o.outcome; }));
        if (n > 0) s.counts.emplace_back(o.name, n);
    }
    s.total = static_cast<int>(runs.size());
    s.worst = outcome_name(worst_outcome(runs));
    return s;
}

nlohmann::json RunResults::to_json() const {
    nlohmann::json runs_json = nlohmann::json::array();
    for (const auto &r : runs)
        runs_json.push_back(r.to_json());
    return {{"environment", environment}, {"runs", runs_json}, {"summary", summary().to_json()}};
}

RunResults RunResults::from_json(const nlohmann::json &doc, const std::string &path) {
    const JsonAt top(doc, path, "pass the file `aot-harness run --json` wrote");
    top.object();
    if (!top.has("runs")) top.fail("not a results file (no \"runs\" list)");
    RunResults r;
    if (top.has("environment")) r.environment = top.get("environment").object().json();
    for (const JsonAt &run : top.get("runs").items()) {
        try {
            r.runs.push_back(RunRecord::from_json(run.json()));
        } catch (const Error &e) {
            run.fail(e.what());
        }
    }
    return r;
}

RunResults RunResults::load(const std::string &path) {
    return from_json(parse_json(read_file(path), path, "pass the file `aot-harness run --json` wrote"), path);
}

int run_exit_code(const std::vector<RunRecord> &runs, bool strict_xfail) {
    const bool xpass =
        std::any_of(runs.begin(), runs.end(), [](const RunRecord &r) { return r.outcome == Outcome::XPass; });
    const int code = outcome_exit_code(worst_outcome(runs));
    return strict_xfail && xpass && code == 0 ? 1 : code;
}

}  // namespace harness
