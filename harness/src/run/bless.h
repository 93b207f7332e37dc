// bless: the only writer of golden/ (with `golden recover`). Runs the cpu variant, checks it against
// the spec's plain C++ reference, then writes the goldens and their manifest entries (manifest.h) as
// one transaction under the golden directory's lock (golden_transaction.h).
#pragma once
#include <string>
#include <vector>

#include "golden/manifest.h"

namespace harness {

struct BlessResult {
    std::vector<std::string> written;  // one line per golden written
    std::vector<std::string> failed;   // "<pipeline>/<case>: why", per case that could not be blessed
};

// Blesses the goldens of `pipelines` (all cases, or `case_name`), case by case: a case that cannot be
// blessed (its cpu result disagrees with the reference, the cpu variant fails or did not build, no
// case could be made) is named in `failed` and the others are still written, together, in one
// transaction. Takes the golden dir's lock (waiting up to `wait_s` seconds for another bless) only
// when something is to be written, and completes or discards a bless interrupted earlier. Throws
// Error for an unknown case or a held lock.
// `platform_hash`: only the goldens that are not stored (nightly cases), on a platform other than the
// one each was blessed on: the cpu result, checked against the reference as always, is recorded as this
// cpu target's hash in the entry (GoldenEntry::platform_sha256); the entry's own hash and every file stay.
BlessResult bless(const std::string &golden_dir, const std::vector<std::string> &pipelines,
                  const std::string &case_name = "", double wait_s = 0, bool platform_hash = false);

// Pipelines of this build whose goldens record a generator_sha256 other than the built generator's
// (the generator source changed after the last bless): one line each, naming the pipeline, both
// hashes and the fix (`aot-harness bless --pipeline P`, which leaves the bytes alone when the cpu
// result did not change and refreshes the provenance). Empty when all follow.
std::vector<std::string> stale_generator_provenance(const Manifest &manifest);

// `aot-harness golden recover`: under the lock, completes or discards an interrupted bless. Returns
// what it did ("" = nothing to do).
std::string recover_goldens(const std::string &golden_dir, double wait_s = 0);

}  // namespace harness
