// Running one case of one compiled variant in this process: inputs -> call -> copy back -> compare.
// The CLI runs this inside a supervised child process (supervisor.h); bless and the benchmarks use
// invoke() directly.
#pragma once
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/outcome.h"
#include "harness/registry.h"

namespace harness {

// The inputs of a case, in CaseSpec::inputs order (deterministic, see inputs.h).
std::vector<Array> case_inputs(const CaseSpec &c);

// Host buffers bound to a variant's arguments by name, ready to call repeatedly.
class Invocation {
public:
    // Checks every argument of the variant's metadata against the case (names, types, dimensions)
    // and allocates the outputs. Throws Error naming the argument and the mismatch.
    Invocation(const Variant &variant, const CaseSpec &c, std::vector<Array> &inputs);

    // Calls the pipeline once (host mode: Halide copies inputs to the device), then copies every
    // output back to the host and frees device allocations. Returns Halide's error code (0 = ok);
    // on error, `error` receives Halide's message.
    int call(std::string *error);
    // Calls the pipeline without copying back (for benchmarks); sync waits for the device.
    int call_resident();
    int device_sync();
    // Marks inputs host-dirty so the next call copies them again.
    void touch_inputs();

    std::vector<Array> &outputs() { return outputs_; }

private:
    const Variant &variant_;
    std::vector<Array> outputs_;
    std::vector<Halide::Runtime::Buffer<void>> input_views_, output_views_;
    std::vector<std::vector<uint8_t>> scalars_;
    std::vector<void *> args_;
};

struct RunRequest {
    std::string pipeline, profile, case_name, mode = "host";
    std::string golden_dir;
    std::string artifacts_dir;  // where outputs of failed runs are saved ("" = nowhere)
};

// Runs the request and compares with the golden. Never throws: every problem is a record
// (ERROR for configuration, golden or Halide errors; FAIL for a wrong result).
RunRecord run_case(const RunRequest &req);

// Blesses the goldens of `pipeline` (all cases, or `case_name`): runs the cpu variant, checks it
// against the spec's reference under the spec's tolerance, then writes each .npy and the manifest
// atomically. Throws Error (and writes nothing) if any selected case disagrees with the reference.
// Returns one line per golden written.
std::vector<std::string> bless(const std::string &golden_dir, const std::string &pipeline,
                               const std::string &case_name);

}  // namespace harness
