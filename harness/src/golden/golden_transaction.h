// How bless changes golden/: under an advisory lock on the golden directory, as one transaction.
// Only bless and `aot-harness golden recover` call these; readers never write (manifest.h reads a
// committed but not yet applied transaction through).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "golden/manifest.h"

namespace harness {

// flock(LOCK_EX) on the golden directory itself (no lock file): released when the holder exits or
// dies. Creates the directory if needed.
class GoldenLock {
public:
    // Waits up to `wait_s` seconds for another holder (0: fails at once). Throws Error
    // "bless already running (pid N) on DIR; ..." when the lock stays taken, or naming why the
    // directory cannot be locked.
    GoldenLock(const std::string &dir, double wait_s);
    ~GoldenLock();
    GoldenLock(const GoldenLock &) = delete;
    GoldenLock &operator=(const GoldenLock &) = delete;

private:
    int fd_ = -1;
};

// The pid that holds `dir`'s lock (from /proc/locks), or 0 if none or unknown.
long golden_lock_holder(const std::string &dir);

// Writes golden files (relative path -> bytes) and the manifest as one transaction. The caller
// holds the GoldenLock.
//   1. everything is written to <dir>/.bless-staging/ (an earlier one is discarded first);
//   2. the staging directory is renamed to <dir>/.bless-commit/  (the commit point);
//   3. each file is renamed into place, the manifest last, and .bless-commit/ is removed.
// A kill before 2 leaves the old set; after 2, readers already see the new set, and the next bless
// or `golden recover` completes it. Throws Error naming the file and the cause (the old set is then
// left untouched).
void commit_goldens(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                    const Manifest &manifest);

// Completes a bless that was killed after its commit point, or discards one killed before it. The
// caller holds the GoldenLock. Returns what it did ("" = nothing).
std::string recover_interrupted_bless(const std::string &dir);

// What an interrupted bless left in `dir` ("" = nothing): for `golden verify` to mention.
std::string interrupted_bless_note(const std::string &dir);

}  // namespace harness
