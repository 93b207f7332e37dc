// Whether the cpu variant, which makes the goldens, gives the same outputs for the same inputs. A race
// or a read of memory nobody wrote can give one answer in every call of a process and another in the
// next process, so this looks across processes: every run records the digest of its outputs (the
// matrix compares a cpu run's attempts, flake.h), and bless runs a derived case in children of its own
// before it calls any pipeline itself. A golden made by a non-deterministic cpu variant is flagged in
// the manifest (GoldenEntry::nondeterministic) and runs against it are NONDET: one answer of several
// is no exact golden.
#pragma once
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/registry.h"

namespace harness {

// sha256 over every output's type, shape and bytes, in order.
std::string outputs_digest(const std::vector<Array> &outputs);

// The digest of `c`'s cpu outputs computed in a forked child (inputs from `input_dir`; outputs updated
// in place start from seeded values when `in_place`). "" with *error set when the child could not run
// it, or did not finish within `seconds` (then *error is trial_out_of_time's text: is_trial_out_of_time). Fork only
// from a process that has not called a pipeline yet: Halide's thread pool does not survive a fork.
inline constexpr int kCpuChildSeconds = 300;
std::string cpu_digest_in_child(const Variant &cpu, const CaseSpec &c, const std::string &input_dir, bool in_place,
                                std::string *error, int seconds = kCpuChildSeconds);

// "3 distinct outputs in 4 runs of the cpu variant (2 in this process, 2 in processes of their own)",
// or "" when every digest is the same. Empty digests (runs that failed) are left out.
std::string nondeterminism_of(const std::vector<std::string> &in_process, const std::vector<std::string> &children);

}  // namespace harness
