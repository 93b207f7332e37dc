// RunOptions: what `aot-harness run` was asked to do, checked (the CLI parses and checks them:
// cli_options.h run_options()); the run matrix (run_matrix.h) takes them as they are. Defaults and ranges
// are those of the options' rows in the command table (cli/cli_table.cpp), not restated here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "matrix/shard.h"

namespace harness {

// `run`'s options, checked.
struct RunOptions {
    std::string pipeline, profile,
        case_name;                   // --pipeline, --profile, --case: names and globs, comma-separated ("" = all)
    std::string golden_dir;          // --golden-dir ("" = default_golden_dir())
    std::string artifacts;           // --artifacts ("" = keep nothing)
    std::string xfail;               // --xfail ("" = <golden-dir>/xfail.json)
    std::string json;                // --json results file ("" = none, "-" = stdout)
    std::string junit;               // --junit JUnit XML file ("" = none)
    std::string report;              // --report directory ("" = none)
    double timeout = 0;              // --timeout, seconds
    int repeats = 0;                 // --repeats: calls that must be bit-identical
    std::string fail_on_output;      // --fail-on-output, a valid POSIX ERE ("" = none)
    std::vector<std::string> modes;  // --mode: one buffer mode, or every mode for "all"
    std::string fallback;            // --fallback: "" or "cpu"
    bool strict_xfail = false;       // --strict-xfail
    int jobs = 0;                    // --jobs: runs at once (0 = one per core; executor.h)
    int gpu_jobs = 0;                // --gpu-jobs: runs at once per GPU device (0 = default_gpu_jobs, run_batch.h)
    int batch = 0;                   // --batch: cases per child process at most (1 = a child per case; run_batch.h)
    std::optional<Shard> shard;      // --shard i/n, parsed (none = the whole matrix; shard.h)
    int flake_retries = 0;           // --flake-retries: re-runs of an unexpected failure (flake.h)
    std::string baseline;            // --baseline FILE: expected failures and flakes (baseline.h)
    std::string baseline_out;        // --baseline-out FILE: write this run's
    bool no_device_release = false;  // --no-device-release: children exit with the GPU runtime live
    std::string repro_bundles;       // --repro-bundles DIR: a repro bundle of each failure ("" = none)
    std::string device;              // --device NAME: the personality OpenCL/Vulkan runs emulate ("" = the profile's)
    std::string expect_device;       // --expect-device GLOB (or $AOT_HARNESS_EXPECT_DEVICE): the device runs must use
    std::string expect_driver;       // --expect-driver GLOB (or $AOT_HARNESS_EXPECT_DRIVER): the driver version
};

}  // namespace harness
