// Batches of the run matrix: several cases of one device group in one child process (`__run-batch`,
// batch_supervisor.h), with every verdict the one a child of its own would give:
//   - a case whose record is not PASS (the child stops there) is re-run alone, and its lone record is
//     the verdict; the batch goes on after it in a new child;
//   - a crash during a case re-runs that case alone (a CRASH, or what it gives by itself), then goes on;
//   - a case past the time limit is TIMEOUT (the limit counts from its own start), then goes on;
//   - a child that dies at exit (signal, exit code, hang) after its records re-runs each of them alone
//     (a TEARDOWN_FAULT belongs to one case), and the group's remaining cases run one child each.
// The first batch of each group is small (a probe): a device whose every child dies at exit (NVIDIA's
// Vulkan driver with children that did not release the device, docs/evidence/h100/vulkan-2026-11-24;
// batch children release it since issue 25) then costs one wasted batch, not one per slot.
#pragma once
#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "matrix/executor.h"
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

// Default --gpu-jobs: half the jobs, at least 1 and at most 8 (NVIDIA's H100: 16 cores, 8 children at
// once; a 2-core machine: 1, as before).
int default_gpu_jobs(int jobs);

// A task's expected cost, for the start order: the bytes of its case's inputs and outputs, divided by
// 16 unless the profile runs the portable single-threaded schedule (the cpu profile's 1920x1080 cases
// take seconds; matmul's 1024^3 at 5.5 s a call is the matrix's longest run). Heavy (at least 4 MiB
// after the division): started first and alone, since batching saves them nothing.
double task_cost(const RunTask &task);
bool is_heavy(double cost);
// The start order: heavy tasks first, most expensive first; the rest in task order.
std::vector<size_t> start_order(const std::vector<RunTask> &tasks);

// How many tasks of a group the next chunk takes (run_chunked, executor.h), and their first records.
class BatchPolicy {
public:
    BatchPolicy(const MatrixContext &ctx, const std::vector<RunTask> &tasks, const std::vector<ParallelTask> &groups);
    // 1 with --batch 1 or --fail-on-output (output is matched per child); 2 for a group's probe (0 =
    // wait while it runs); 1 after a child of the group died at exit; else about pending / (2 x the
    // group's limit) (all pending for a limit of 1), at most --batch (default 16), so that the group's
    // slots stay busy to the end. A heavy
    // task runs alone, and a chunk ends before one.
    size_t chunk(const std::string &group, const std::deque<size_t> &pending);
    // The first records of a chunk's tasks: those that need no child resolved here, the rest alone
    // (one) or as one batch; what the batch showed updates the group's state.
    std::vector<RunRecord> first_records(const std::string &group, const std::vector<RunTask> &tasks, int slot);

private:
    enum State { Unprobed, Probing, Batches, Singles };
    const MatrixContext &ctx_;
    std::vector<bool> heavy_;
    std::map<std::string, int> limit_;
    std::map<std::string, std::atomic<int>> state_;
};

}  // namespace harness
