// Which tasks of the run matrix share a child process, and in which order the children start: pure
// functions of the tasks' groups, units and costs (run_batch.h turns RunTasks into them), so that the
// rules are unit-tested without children.
//   - A unit is the tasks whose device code one child compiles once (one pipeline on one profile):
//     a chunk holds whole units, so a variant's kernels are built in one child, not in one per chunk.
//   - A task that runs alone (heavy CPU work) is a unit of its own.
//   - A task that leads (a failure golden/xfail.json expects) is the first of a child: a child's first
//     case runs as a lone child's does, so its record is its verdict and the child goes on with whole
//     units of others (run_batch.h); one such task per child, each before one of its group's units.
//   - Units start longest first (their summed cost), each group's in that order: the work that would
//     otherwise end last starts first.
#pragma once
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

namespace harness {

struct PlanTask {
    std::string group;   // the device group (executor.h ParallelTask::group)
    std::string unit;    // tasks that share compiled device code: "pipeline/profile"
    double cost = 0;     // expected cost (task_cost, batch_policy.h)
    double setup = 0;    // what a child pays once per unit (a GPU variant's kernel compilation)
    bool alone = false;  // a child of its own
    bool lead = false;   // the first case of a child, one per child
};

// The start order: a permutation of the task indices, units by cost (their tasks' costs plus one
// setup; most expensive first, ties in task order), each unit's tasks together in task order; a task
// that leads just before the next unit of its group (in its own cost order), those left over at the end.
std::vector<size_t> plan_start_order(const std::vector<PlanTask> &tasks);

// How many of `pending` (a group's tasks not started, in start order) the next child takes: 1 for a
// task that runs alone; else a task that leads, if it is first, and whole units, one at least, adding
// units while their count stays within `target` (a unit larger than `max_batch` is cut at max_batch),
// never a task that runs alone or a second one that leads.
size_t plan_chunk(const std::vector<PlanTask> &tasks, const std::deque<size_t> &pending, size_t target,
                  size_t max_batch);

// The chunk size a group aims at. A GPU device's group (`device_setup`: its children start a driver context
// and build kernels, 0.4-1 s a child on the measured drivers, more than most of its cases) fills each child
// up to max_batch: fewer children end sooner, the balance left to the last chunks (the whole matrix on an
// H200 went from 11.6-13.4 s to 8.7-9.4 s). A CPU group's children start in milliseconds, so it keeps its
// `limit` slots busy to the end with chunks of about pending / (2 x limit), 1 to max_batch; all pending (up
// to max_batch) when the group has one slot.
size_t plan_target(size_t pending, size_t limit, size_t max_batch, bool device_setup);

}  // namespace harness
