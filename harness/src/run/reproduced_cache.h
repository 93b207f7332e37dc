// The run's reproduced goldens: an unstored (nightly-size) golden is the cpu variant's result, reproduced
// at run time, and every profile's child of a case needs it. The first child whose reproduction matched
// the manifest keeps the bytes in the run's cache folder (the folder of the settled shapes,
// shape_cache_dir(): a run's temp dir, or the one ctest's runs share), named by their sha256; a later
// child of the same case reads them there instead of running the single-threaded cpu variant again
// (matmul's 1024^3 takes 2 s on an H200's Xeon, once per GPU profile). The name is the content's hash, so
// an entry can never be stale: a reader checks the bytes against the manifest as it checks a reproduction
// (load_verified_golden), and runs the cpu variant instead where they do not match.
#pragma once
#include <string>
#include <vector>

#include "golden/manifest.h"
#include "harness/spec.h"

namespace harness {

// A case's unstored goldens on the platform of the cpu variant `cpu_target`, all read from the cache
// (bytes[i] for output i, "" for a stored one), or false when one is missing. Not verified here: the
// caller checks them against the manifest as it checks a reproduction, and reproduces a damaged one.
bool read_kept_outputs(const PipelineSpec &spec, const CaseSpec &c, const Manifest &manifest,
                       const std::string &cpu_target, std::vector<std::string> *bytes);
// Keeps a case's reproduced outputs (bytes[i] for output i) once load_verified_golden accepted them.
void keep_verified_outputs(const PipelineSpec &spec, const CaseSpec &c, const Manifest &manifest,
                           const std::string &cpu_target, const std::vector<std::string> &reproduced);

}  // namespace harness
