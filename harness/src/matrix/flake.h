// Flaky runs, the way Mesa's deqp-runner handles them: a run that fails unexpectedly is run again
// (`run --flake-retries N`, default 1); if a retry passes, the run is FLAKE, not PASS and not FAIL.
#pragma once
#include <functional>
#include <vector>

#include "base/outcome.h"

namespace harness {

// FAIL, TEARDOWN_FAULT, TIMEOUT, CRASH, ERROR: what a retry may turn out to be a flake.
bool is_unexpected_failure(Outcome o);

// `first` settled by up to `retries` re-runs (`rerun` runs the same pipeline x profile x case x mode
// again). Not an unexpected failure, or no retries: `first` unchanged. The first retry that PASSes
// gives its record with outcome FLAKE, a message naming the failure and the retry, and
// metrics.flake = {"failed": [{outcome, message, duration_ms}, ...], "passed_on_retry": k, "retries": N}.
// Every retry failing: `first`, its message ending in what the retries gave, metrics.flake.failed
// listing them.
// On the cpu profile, whose variant makes the goldens, a retry whose outputs differ from the first
// run's (metrics.output_sha256) proves that variant non-deterministic: the retry's record with outcome
// NONDET (not FLAKE, not FAIL), saying so, metrics.nondeterministic set.
RunRecord settle_flakes(RunRecord first, int retries, const std::function<RunRecord()> &rerun);

// A case whose cpu run is NONDET has no exact golden: its PASS, FAIL and FLAKE runs on the other
// profiles become NONDET too, each message saying why and what the run gave. Returns their indices.
std::vector<size_t> mark_nondeterministic_cases(std::vector<RunRecord> &records);

}  // namespace harness
