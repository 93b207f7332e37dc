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

}  // namespace harness
