// The run matrix's batching policy: which tasks share a child (batch_plan.h, from the tasks' devices,
// pipelines, costs and expected failures), in which order the children start, and how what the
// children showed at exit changes that (a device whose batch child died at exit gets a child per case).
#pragma once
#include <atomic>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "matrix/batch_plan.h"
#include "matrix/executor.h"
#include "matrix/run_matrix.h"

namespace harness {

// A task's expected cost, for the start order: the bytes of its case's inputs and outputs, divided by
// 16 unless the profile runs the portable single-threaded schedule (the cpu profile's 1920x1080 cases
// take seconds). Heavy (at least 4 MiB after the division): a CPU task that runs alone, since batching
// saves it nothing.
double task_cost(const RunTask &task);
bool is_heavy(double cost);

// Whether golden/xfail.json (or --xfail, or the JSON specs' entries) or the --baseline expects this task
// to fail on the device its profile selected, before its child's exit: it leads a child (batch_plan.h),
// where its run is a lone child's, instead of stopping a batch and running again alone.
bool expected_to_fail(const MatrixContext &ctx, const RunTask &task);

class BatchPolicy {
public:
    BatchPolicy(const MatrixContext &ctx, const std::vector<RunTask> &tasks, const std::vector<ParallelTask> &groups);
    // The order in which the tasks start (plan_start_order).
    const std::vector<size_t> &order() const { return order_; }
    // How many of a group's pending tasks the next child takes: 1 with --batch 1, --fail-on-output
    // (output is matched per child) or --no-device-release (the teardown check is per child), and
    // after a child of the group died at exit; else plan_chunk's whole units up to plan_target.
    size_t chunk(const std::string &group, const std::deque<size_t> &pending);
    // The first records of a chunk's tasks: those that need no child resolved here, the rest alone
    // (one) or as one batch; what the batch showed updates the group's state.
    std::vector<RunRecord> first_records(const std::string &group, const std::vector<RunTask> &tasks, int slot);

private:
    enum State { Batches, Singles };
    const MatrixContext &ctx_;
    std::vector<PlanTask> plan_;
    std::vector<size_t> order_;
    std::map<std::string, int> limit_;
    std::map<std::string, std::atomic<int>> state_;
};

}  // namespace harness
