// Flake re-runs (flake.h): which failures are retried, and FLAKE when a retry passes.
#include "matrix/flake.h"

#include <nlohmann/json.hpp>

namespace harness {

bool is_unexpected_failure(Outcome o) {
    return o == Outcome::Fail || o == Outcome::TeardownFault || o == Outcome::Timeout || o == Outcome::Crash ||
           o == Outcome::Error;
}

namespace {

nlohmann::json attempt(const RunRecord &r) {
    return {{"outcome", outcome_name(r.outcome)}, {"message", r.message}, {"duration_ms", r.duration_ms}};
}

std::string output_digest(const RunRecord &r) {
    return r.metrics.is_object() ? r.metrics.value("output_sha256", std::string()) : std::string();
}

}  // namespace

RunRecord settle_flakes(RunRecord first, int retries, const std::function<RunRecord()> &rerun) {
    if (!is_unexpected_failure(first.outcome) || retries <= 0) return first;
    // A compile stub, a case that could not be made or a constraint violation fails the same way
    // every time: no retries (runner.cpp marks them).
    if (first.metrics.is_object() && first.metrics.value("deterministic", false)) return first;
    nlohmann::json failed = nlohmann::json::array({attempt(first)});
    std::string again;
    for (int k = 1; k <= retries; k++) {
        RunRecord r = rerun();
        const std::string d0 = output_digest(first), dk = output_digest(r);
        if (first.profile == "cpu" && !d0.empty() && !dk.empty() && d0 != dk) {
            const std::string why = "the cpu variant gave different outputs for the same inputs in two runs of "
                                    "their own (" +
                                    std::string(outcome_name(first.outcome)) + " (" + first.message + "), then retry " +
                                    std::to_string(k) + ": " + outcome_name(r.outcome) + " (" + r.message + "))";
            r.outcome = Outcome::Nondeterministic;
            r.message = "not judged: " + why + ", so its golden is one answer of several";
            r.metrics["nondeterministic"] = why;
            failed.push_back(attempt(r));
            r.metrics["flake"] = {{"failed", failed}, {"passed_on_retry", nullptr}, {"retries", retries}};
            return r;
        }
        if (r.outcome == Outcome::Pass) {
            r.outcome = Outcome::Flake;
            r.message = std::string(outcome_name(first.outcome)) + " (" + first.message + "), then passed on retry " +
                        std::to_string(k) + " of " + std::to_string(retries);
            r.metrics["flake"] = {{"failed", failed}, {"passed_on_retry", k}, {"retries", retries}};
            return r;
        }
        failed.push_back(attempt(r));
        again += std::string(again.empty() ? "" : ", ") + outcome_name(r.outcome);
    }
    first.message += "; " + std::to_string(retries) + (retries == 1 ? " retry: " : " retries: ") + again;
    first.metrics["flake"] = {{"failed", failed}, {"passed_on_retry", nullptr}, {"retries", retries}};
    return first;
}

std::vector<size_t> mark_nondeterministic_cases(std::vector<RunRecord> &records) {
    std::vector<size_t> changed;
    for (const auto &cpu : records) {
        if (cpu.profile != "cpu" || cpu.outcome != Outcome::Nondeterministic || !cpu.fallback_for.empty()) continue;
        for (size_t i = 0; i < records.size(); i++) {
            RunRecord &r = records[i];
            if (r.pipeline != cpu.pipeline || r.case_name != cpu.case_name || r.profile == "cpu") continue;
            if (r.outcome != Outcome::Pass && r.outcome != Outcome::Fail && r.outcome != Outcome::Flake) continue;
            const std::string gave = std::string(outcome_name(r.outcome)) + " (" + r.message + ")";
            r.outcome = Outcome::Nondeterministic;
            r.metrics["nondeterministic"] = "the cpu run of this case found its cpu variant non-deterministic";
            r.message = "not judged: the cpu run of this case found its cpu variant, which makes the golden, "
                        "non-deterministic; this run gave " +
                        gave;
            changed.push_back(i);
        }
    }
    return changed;
}

}  // namespace harness
