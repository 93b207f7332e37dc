// Batches of the run matrix: several cases of one device group in one child process (`__run-batch`,
// batch_supervisor.h), with every verdict the one a child of its own would give:
//   - a case whose record is not PASS (the child stops there) is re-run alone, and its lone record is
//     the verdict; the batch goes on after it in a new child. Not the child's first case: it ran in a
//     fresh process, as a lone child's case does, so its record stands and the child goes on (a case
//     golden/xfail.json expects to fail leads a batch for this reason, batch_plan.h);
//   - a crash during a case re-runs that case alone (a CRASH, or what it gives by itself), then goes on;
//   - a case past the time limit is TIMEOUT (the limit counts from its own start), then goes on;
//   - a child that dies at exit (signal, exit code, hang) after its records re-runs each of them alone
//     (a TEARDOWN_FAULT belongs to one case), and the group's remaining cases run one child each.
// No probe batch first: a device whose every child dies at exit (NVIDIA's Vulkan driver, for children
// that do not release the device) wastes at most one batch per slot before its group runs a child per
// case; waiting for a probe cost every device its first seconds (an H100's OpenCL group 4 s).
#pragma once
#include <string>
#include <vector>

#include "matrix/run_matrix.h"

namespace harness {

// What the batches of one call of run_batch showed about the device's children at exit.
struct BatchExits {
    bool clean = false;  // a batch child exited cleanly after its records
    bool died = false;   // a batch child died at exit (or never started)
};

// The first record of each task (every task needs a child: resolve_without_child returned false), in
// order, run as one batch as described above. `slot` names the batch's files in the context's temp dir.
std::vector<RunRecord> run_batch(const MatrixContext &ctx, const std::vector<RunTask> &tasks, int slot,
                                 BatchExits *exits);

// Default --gpu-jobs: half the jobs, at least 1 and at most 2. More children on one GPU at once cost more
// than they overlap: the H200's whole matrix (16 cores, 343 runs, 2026-11-29) took 11.1-12.7 s with 2,
// 12.6-13.5 s with 3, 13.8-14.9 s with 4 and 13.8-14.3 s with 8 (each child then spends its time in the
// driver: system time 27 s against 38 s with 8); 1 took 17.8 s.
int default_gpu_jobs(int jobs);

// $HARNESS_BATCH_LOG (tests, tuning): one line per child of the run matrix, appended in one write:
// `cases=N end=KIND records=R first=P/PROFILE/CASE [at=P/PROFILE/CASE] t0=S t1=S` (KIND: how a batch
// ended, or `alone` for a child of one case; `at`: the case a batch stopped, crashed or timed out in;
// t0/t1: wall-clock seconds of its start and end). No-op when the variable is unset.
void log_child(const RunTask &first, const RunTask *at, size_t cases, const char *end, size_t records, double t0,
               double t1);
// The log's first line, when the matrix starts (after planning and the device probes):
// `matrix tasks=N jobs=J gpu_jobs=G t0=S`.
void log_matrix_start(size_t tasks, int jobs, int gpu_jobs);
// The wall clock in seconds (the log's t0/t1).
double wall_seconds();

}  // namespace harness
