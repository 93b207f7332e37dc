// Goldens: golden/<pipeline>/<case>.npy (or <case>.<output>.npy for several outputs) and
// golden/MANIFEST.json. Only bless() writes them, atomically; everything else reads and verifies.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/array.h"
#include "harness/spec.h"

namespace harness {

// The golden directory: --golden-dir if given, else $HARNESS_GOLDEN_DIR, else the source tree's
// golden/ found next to the executable (<exe>/../../golden), else the configure-time source path.
std::string default_golden_dir();

// Relative path of a golden file inside the golden dir.
std::string golden_relpath(const std::string &pipeline, const std::string &case_name, const std::string &output,
                           size_t num_outputs);

// golden/MANIFEST.json: {"format": 1, "goldens": [entry...]} with entries sorted by file.
// Entry: {"file", "pipeline", "case", "output", "dtype", "shape" (Halide order), "sha256",
//         "profile", "target", "halide_version", "generator_sha256", "input_recipe", "reference_check"}
class Manifest {
public:
    // Loads dir/MANIFEST.json (see parse); a missing file is an empty manifest when `allow_missing`.
    // Throws Error naming the file for malformed JSON or entries.
    static Manifest load(const std::string &dir, bool allow_missing = false);
    // Parses and validates a manifest's JSON text; `path` names it in errors.
    // Throws Error for malformed JSON, no "goldens" array, or an entry that lacks a field, has one of
    // the wrong type (strings; "shape" a list of extents; "stored" true or false), a "file" outside
    // the golden dir (absolute or with ".."), or a "file" listed twice.
    static Manifest parse(const std::string &json_text, const std::string &path);
    // The manifest's JSON text (entries sorted by file).
    std::string text() const;

    const nlohmann::json *find(const std::string &relpath) const;
    void upsert(const nlohmann::json &entry);
    const nlohmann::json &entries() const { return goldens_; }

private:
    nlohmann::json goldens_ = nlohmann::json::array();
};

// Writes golden files (relative path -> bytes) and the manifest as one transaction:
//   1. everything is written to <dir>/.bless-staging/ (any earlier staging is discarded);
//   2. the staging directory is renamed to <dir>/.bless-commit/  (the commit point);
//   3. each file is renamed into place, the manifest last, and .bless-commit/ is removed.
// A kill before 2 leaves the old set; after 2, recover_interrupted_bless() completes the new one.
// Throws Error naming the file that could not be written (the old set is then left untouched).
void commit_goldens(const std::string &dir, const std::vector<std::pair<std::string, std::string>> &files,
                    const Manifest &manifest);

// Completes a bless that was killed after its commit point, or discards one killed before it.
// Called by Manifest::load, so every command sees a complete set. Returns what it did ("" = nothing).
std::string recover_interrupted_bless(const std::string &dir);

// Entries of nightly-size cases carry "stored": false: the repository keeps their sha256, dtype and
// shape but not the bytes, which the cpu variant reproduces when the case runs (and must reproduce
// bit for bit). This keeps the repository small; the check is as strong.
bool golden_is_stored(const nlohmann::json &entry);

// Loads a golden and checks it against its manifest entry (sha256, dtype, shape); for an entry that
// is not stored, `reproduced` holds the cpu variant's .npy bytes to check instead. Throws Error
// naming the file and how to restore (git checkout) or re-bless it.
Array load_verified_golden(const std::string &dir, const Manifest &manifest, const std::string &relpath,
                           const std::string *reproduced = nullptr);

// Checks every manifest entry and every .npy under dir. Returns one line per problem (empty: all good).
std::vector<std::string> verify_goldens(const std::string &dir);

}  // namespace harness
