// The run's reproduced goldens (reproduced_cache.h).
#include "run/reproduced_cache.h"

#include <exception>

#include <unistd.h>

#include "base/files.h"
#include "golden/golden.h"
#include "spec/shape_query.h"

namespace harness {

namespace {

std::string entry_path(const std::string &sha256) {
    const std::string dir = shape_cache_dir();
    if (dir.empty() || sha256.size() != 64) return "";
    return dir + "/goldens/" + sha256 + ".npy";
}

// The manifest's hash of each unstored golden of a case on this platform ("" for a stored one).
std::vector<std::string> unstored_hashes(const PipelineSpec &spec, const CaseSpec &c, const Manifest &manifest,
                                         const std::string &cpu_target) {
    std::vector<std::string> hashes;
    for (const auto &o : c.outputs) {
        const GoldenEntry *e = manifest.find(golden_relpath(spec.name, c.name, o.name, c.outputs.size()));
        hashes.push_back(e && !e->stored ? e->sha256_for(cpu_target) : "");
    }
    return hashes;
}

// The kept bytes of the golden whose sha256 is `sha256` (hex), or false when there is no cache folder or
// no such entry.
bool read_reproduced(const std::string &sha256, std::string *bytes) {
    const std::string path = entry_path(sha256);
    return !path.empty() && read_file_if_exists(path, bytes);
}

// Keeps bytes already verified to hash to `sha256` unless an entry is there; a cache that cannot be
// written is skipped (it only saves time).
void keep_reproduced(const std::string &sha256, const std::string &bytes) {
    const std::string path = entry_path(sha256);
    if (path.empty() || access(path.c_str(), F_OK) == 0) return;
    try {
        make_dirs(shape_cache_dir() + "/goldens");
        write_file_atomic(path, bytes);
    } catch (const std::exception &) {
        // the cache only saves time
    }
}

}  // namespace

bool read_kept_outputs(const PipelineSpec &spec, const CaseSpec &c, const Manifest &manifest,
                       const std::string &cpu_target, std::vector<std::string> *bytes) {
    std::vector<std::string> got;
    for (const std::string &sha : unstored_hashes(spec, c, manifest, cpu_target)) {
        got.emplace_back();
        if (!sha.empty() && !read_reproduced(sha, &got.back())) return false;
    }
    *bytes = std::move(got);
    return true;
}

void keep_verified_outputs(const PipelineSpec &spec, const CaseSpec &c, const Manifest &manifest,
                           const std::string &cpu_target, const std::vector<std::string> &reproduced) {
    if (reproduced.empty()) return;
    const std::vector<std::string> hashes = unstored_hashes(spec, c, manifest, cpu_target);
    for (size_t i = 0; i < hashes.size() && i < reproduced.size(); i++)
        if (!hashes[i].empty()) keep_reproduced(hashes[i], reproduced[i]);
}

}  // namespace harness
