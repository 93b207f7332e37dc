// Running the run matrix's tasks on several worker threads (`run --jobs N`): every task, or chunk of
// tasks, is one supervised child at a time (supervisor.h, batch_supervisor.h), so the threads only
// wait for children. A task belongs to a group (the CPU, or one GPU device) that admits at most its
// limit of tasks (or chunks) at once: GPU profiles --gpu-jobs per device. Tasks start in index order as
// slots free up.
#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace harness {

struct ParallelTask {
    std::string group;    // tasks of one group share its limit, e.g. "cpu" or "opencl:<device>"
    int group_limit = 1;  // at most this many of the group at once (>= 1)
};

// Calls run(index, slot) for every task, on up to `jobs` threads (>= 1; 1 runs them in order on this
// thread). `slot` is in [0, jobs) and no two tasks running at once share one (a per-slot temp file).
// Returns when every task has finished. If a run throws, no new task starts and the first exception
// is rethrown once the running ones have finished.
void run_parallel(const std::vector<ParallelTask> &tasks, int jobs,
                  const std::function<void(size_t index, int slot)> &run);

// The same with several tasks of one group per call, started in the order `order` (a permutation of
// the task indices; empty = index order): `chunk(group, pending)` says how many of the group's tasks not
// yet started (`pending`, in that order) the next call takes; 0 = none now (wait until a running call
// ends). It is called under the scheduler's lock, one call at a time. run(chunk, slot) gets the
// indices; the group's limit counts calls running at once, not tasks.
void run_chunked(const std::vector<ParallelTask> &tasks, int jobs, const std::vector<size_t> &order,
                 const std::function<size_t(const std::string &group, const std::deque<size_t> &pending)> &chunk,
                 const std::function<void(const std::vector<size_t> &chunk, int slot)> &run);

// Default --jobs: the number of online CPUs (at least 1).
int default_jobs();

// The `[n/N elapsed]` prefix of the console line of a finished run: "[ 7/30   3.2s]".
std::string progress_prefix(size_t done, size_t total, double elapsed_s);

}  // namespace harness
