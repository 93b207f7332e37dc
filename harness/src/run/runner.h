// Running one case of one compiled variant in this process: inputs -> call -> read back -> verify.
// The CLI runs this inside a supervised child process (supervisor.h); bless and the benchmarks use
// Invocation directly.
#pragma once
#include <string>
#include <vector>

#include "variant/invocation.h"
#include "base/outcome.h"
#include "harness/registry.h"

namespace harness {

struct RunRequest {
    std::string pipeline, profile, case_name, mode = "host";
    std::string golden_dir;
    std::string artifacts_dir;  // where outputs and PNGs of failed runs are saved ("" = nowhere)
    int repeats = 1;            // calls that must be bit-identical (a run's child: --repeats, child_protocol.h)
    int guard = 64;             // guard elements on each side of dimension 0
};

// Runs the request: `repeats` calls with different canaries, each checked for guard writes, then
// inputs checked unchanged, canaries gone, repeats bit-identical, and the first result compared with
// the golden. Never throws: every problem is a record (ERROR for configuration, golden or Halide
// errors; FAIL for a wrong result, naming which check failed).
RunRecord run_case(const RunRequest &req);

// Whether a Halide error code says the same call fails the same way every time (a bounds, type or
// constraint violation), so that re-running it as a possible flake is pointless.
bool is_deterministic_halide_error(int err);

// The case trial of derived specs (Registry::set_case_trial): runs `c` on the cpu variant in a child
// process; "" for a meaningful output, else why not (degenerate_outputs(), or the error).
std::string try_case_on_cpu(const Variant &cpu, const CaseSpec &c);

}  // namespace harness
