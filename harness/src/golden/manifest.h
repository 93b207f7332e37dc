// golden/MANIFEST.json: {"format": 1, "goldens": [entry...]} with entries sorted by file. One typed
// entry (GoldenEntry) is what bless writes and what every reader parses.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// Bless's transaction directories inside the golden dir (golden_transaction.h): readers read a committed
// but not yet applied bless through kBlessCommitDir.
constexpr const char *kBlessStagingDir = ".bless-staging";
constexpr const char *kBlessCommitDir = ".bless-commit";

// One golden: where it is, what it holds, and where it came from.
struct GoldenEntry {
    std::string file;  // relative to the golden dir, e.g. "blur3x3/small.npy"
    std::string pipeline, case_name, output;
    std::string dtype;           // "uint8", "float32", ...
    std::vector<int64_t> shape;  // Halide order
    std::string sha256;          // of the .npy bytes
    // Nightly-size cases are not stored: the repository keeps their sha256, dtype and shape but not
    // the bytes, which the cpu variant reproduces (bit for bit) when the case runs.
    bool stored = true;
    // A golden that is not stored, reproduced on another platform whose cpu variant's float results
    // legitimately differ in bits (another instruction set contracts or orders float operations
    // differently): that cpu target's sha256, keyed by the target (e.g. "arm-64-linux-no_runtime"). `sha256`
    // stays the one of `target`, where the golden was blessed. Only `bless --platform-hash`, run on that
    // platform after its result passed the reference check, writes one; a bless that changes `sha256`
    // drops them (they were hashes of the old result).
    std::map<std::string, std::string> platform_sha256;
    // Provenance ("" / null when absent).
    std::string profile, target, halide_version, generator_sha256, input_recipe;
    nlohmann::json reference_check;  // {"tolerance", "passed", "max_abs_error"}
    // "" unless the cpu variant gave different outputs for the case's inputs when bless ran it more than
    // once ("3 distinct outputs in 3 runs"): then the golden is one answer of several, and runs against
    // it are NONDET, not judged.
    std::string nondeterministic;

    // The sha256 the cpu variant of `cpu_target` must reproduce: its platform hash if the entry has one,
    // else `sha256`.
    const std::string &sha256_for(const std::string &cpu_target) const;
    nlohmann::json to_json() const;
    // Checks and converts one entry; `path` names the manifest in errors. Throws Error naming the
    // entry and the field: a missing or mistyped field, a shape that is not a list of extents, a
    // "file" outside the golden dir (absolute or with "..").
    static GoldenEntry from_json(const nlohmann::json &j, const std::string &path);
};

class Manifest {
public:
    // Loads dir/MANIFEST.json (see parse); a missing file is an empty manifest when `allow_missing`.
    // Reads only: a bless that was committed but not applied (golden_transaction.h) is read through,
    // so readers see the complete new set. Throws Error naming the file for malformed JSON or entries.
    static Manifest load(const std::string &dir, bool allow_missing = false);
    // Parses and validates a manifest's JSON text; `path` names it in errors. Throws Error for
    // malformed JSON, no "goldens" array, a bad entry (GoldenEntry::from_json) or a "file" listed twice.
    static Manifest parse(const std::string &json_text, const std::string &path);
    // The manifest's JSON text (entries sorted by file).
    std::string text() const;

    const GoldenEntry *find(const std::string &relpath) const;
    void upsert(const GoldenEntry &entry);
    const std::vector<GoldenEntry> &entries() const { return goldens_; }

private:
    std::vector<GoldenEntry> goldens_;
};

// Reads `rel` (a path relative to the golden dir) the way every reader does: from a committed but
// not yet applied bless if it holds the file, else from the golden dir. Returns false when neither
// exists; throws Error for any other read failure.
bool read_golden_file(const std::string &dir, const std::string &rel, std::string *bytes);

}  // namespace harness
