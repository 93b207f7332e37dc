// Goldens: golden/<pipeline>/<case>.npy (or <case>.<output>.npy for several outputs) and
// golden/MANIFEST.json (manifest.h). Only bless (bless.h) and `golden recover` write them, through
// golden_transaction.h; everything here reads and verifies, and never writes.
#pragma once
#include <string>
#include <vector>

#include "harness/array.h"
#include "golden/manifest.h"

namespace harness {

// The golden directory: --golden-dir if given, else $AOT_HARNESS_GOLDEN_DIR, else the source tree's
// golden/ found next to the executable (<exe>/../../golden), else the configure-time source path.
std::string default_golden_dir();
// Throws Error when `dir` exists but is not a directory (a file given as --golden-dir). A directory that
// does not exist yet is fine: bless makes it, and runs say which golden is missing.
void check_golden_dir(const std::string &dir);

// Relative path of a golden file inside the golden dir.
std::string golden_relpath(const std::string &pipeline, const std::string &case_name, const std::string &output,
                           size_t num_outputs);

// Loads a golden and checks it against its manifest entry (sha256, dtype, shape); for an entry that
// is not stored, `reproduced` holds the .npy bytes of the cpu variant of target `cpu_target` to check
// instead, against that target's hash (GoldenEntry::sha256_for). Throws Error naming the file and how
// to restore (git checkout) or re-bless it.
Array load_verified_golden(const std::string &dir, const Manifest &manifest, const std::string &relpath,
                           const std::string *reproduced = nullptr, const std::string &cpu_target = "");

// Checks every manifest entry and every .npy under dir (bless's own dot directories excluded).
// Returns one line per problem (empty: all good). A bless that commits meanwhile is read again.
std::vector<std::string> verify_goldens(const std::string &dir);

}  // namespace harness
