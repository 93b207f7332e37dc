// The run matrix: which pipeline x profile x case x mode runs `run` selects, whether each can run
// here, and running them, each in a supervised child process (supervisor.h), into records.
// cli.cpp only parses options and writes what this returns (results.h).
#pragma once
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matrix/baseline.h"
#include "matrix/run_options.h"
#include "run/child_protocol.h"
#include "base/outcome.h"
#include "harness/spec.h"
#include "spec/xfail.h"
#include "base/temp_dir.h"

namespace harness {

// Which profiles can run here, and the device each OpenCL or Vulkan profile would use.
struct Availability {
    std::map<std::string, std::string> reason;           // profile -> why it cannot run ("" = it can)
    nlohmann::json selected = nlohmann::json::object();  // profile -> chosen OpenCL platform/device or Vulkan device
};
// Probes the GPU runtimes named in `runtimes` (of "opencl", "cuda", "vulkan"; by default all three) once each
// (runtime_availability.h). A profile whose runtime was not probed cannot run ("not probed"): `run` probes only
// the runtimes its tasks use, so that a cpu run starts no driver (each probe starts one: ~20 ms of CPU for PoCL
// or lavapipe, in a child).
Availability check_availability(const std::set<std::string> &runtimes = {"opencl", "cuda", "vulkan"});
// Why `pipeline` cannot run on `profile` here ("" if it can): the profile's runtime is missing, the
// selected OpenCL device lacks an extension the spec requires, or the selected Vulkan device a feature
// the variant's target needs.
// With a device personality (`personality`, "" = none) the OpenCL extensions are the device's: one it lacks
// (cl_khr_fp64 on a Mali) SKIPs as on the device; one it has that this driver lacks (cl_khr_fp16 on a driver
// without it) cannot be emulated and SKIPs saying so.
std::string pipeline_unavailable_reason(const Availability &a, const PipelineSpec &spec, const std::string &profile,
                                        const std::string &personality = "");

// The pipelines a --pipeline value selects (comma-separated names and globs; "" = all), in registry order.
// Throws Error for a plain name the registry does not know (its message lists the pipelines) and for a
// pattern that matches none. run (plan_runs) and bless select with it.
std::vector<std::string> select_pipelines(const std::string &filter);

// One run of the matrix.
struct RunTask {
    std::string pipeline, profile, case_name, mode;
};
// The runs the options select, in matrix order (pipeline, profile, case, mode); with --shard i/n only
// those of shard i (shard.h; may be none). Throws Error naming an unknown pipeline, profile or case, or
// when nothing matches the filters.
std::vector<RunTask> plan_runs(const RunOptions &opts);

// What every run of one `run` shares: the options, the golden dir, the executable, a temp dir.
struct MatrixContext {
    RunOptions opts;
    std::string golden_dir;            // opts.golden_dir or the default
    std::string artifacts;             // absolute, "" = none
    std::string exe;                   // this executable (the child is `exe __run-one ...`)
    std::string tmp;                   // the child's record and stderr files live here: tmp_dir's path
    std::string shape_cache;           // the settled shapes the children read (shape_query.h)
    std::shared_ptr<TempDir> tmp_dir;  // under $TMPDIR; removed with the last copy, or on SIGINT/SIGTERM
    XfailList xfail;                   // --xfail, or <golden-dir>/xfail.json
    Baseline baseline;                 // --baseline ("" = empty)
    int jobs = 1;                      // --jobs, or one per core
    std::set<std::string> runtimes;    // the GPU runtimes probed: those the tasks use
    Availability avail;
};
// The GPU runtimes the tasks' profiles use ("none" is not one).
std::set<std::string> runtimes_of(const std::vector<RunTask> &tasks);
// Resolves the golden dir and artifacts dir, loads the xfail list, finds this executable, makes a temp dir and probes
// the devices the tasks use. Throws Error naming what cannot be used and the fix.
MatrixContext make_context(const RunOptions &opts, const std::vector<RunTask> &tasks);
// Removes the context's temp dir (the last copy of the context would, too).
void release_context(const MatrixContext &ctx);

// Fills `r` with the task's identity (pipeline, profile, case, mode, target) and, when no child is
// needed, its verdict: ERROR for a variant whose generator failed, SKIP (with the reason) for a
// profile, device extension or buffer mode that cannot run here. Returns whether it decided.
bool resolve_without_child(const MatrixContext &ctx, const RunTask &task, RunRecord *r);
// What a child is asked for `tasks` (one: __run-one, several: __run-batch; run/child_protocol.h), from the
// run's context: the golden dir, --repeats, --artifacts, the shape cache and the device personality.
ChildCall child_call(const MatrixContext &ctx, const std::vector<RunTask> &tasks, const std::string &record,
                     const std::string &tasks_file = "");
// Its command line: [HARNESS_EXEC_WRAPPER...] exe child_words(call).
std::vector<std::string> child_argv(const MatrixContext &ctx, const ChildCall &call);
// Adds the device the profile selected to a child's record (metrics.device).
void add_device(const MatrixContext &ctx, RunRecord *r);

// Runs one task in a supervised child (or decides without one: a compile error is ERROR, a profile
// or mode that cannot run here SKIP with the reason). `slot` (executor.h) names the child's record and
// stderr files, so that runs at once do not share them.
RunRecord run_task(const MatrixContext &ctx, const RunTask &task, int slot = 0);

// How far a run of the matrix is when a record is made: tasks finished, of how many, seconds since the start.
struct MatrixProgress {
    size_t done = 0, total = 0;
    double elapsed_s = 0;
};

// Runs every task, --jobs at once (GPU profiles --gpu-jobs at once per device), in batches of
// cases per child where that keeps every verdict (run_batch.h), applies
// golden/xfail.json (--xfail), re-runs unexpected failures (--flake-retries: FLAKE, flake.h), applies
// the baseline (--baseline) and adds a cpu fallback record after a GPU run that did not PASS
// (--fallback cpu). Calls `on_record` for each record as its task finishes (the console line), one
// at a time; returns them all in task order, as a sequential run would.
std::vector<RunRecord> run_matrix(const MatrixContext &ctx, const std::vector<RunTask> &tasks,
                                  const std::function<void(const RunRecord &, const MatrixProgress &)> &on_record);

}  // namespace harness
