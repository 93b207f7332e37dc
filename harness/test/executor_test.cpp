// Unit tests of the worker threads (matrix/executor.h): every task once, group limits, order, errors.
#include "matrix/executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace harness {
namespace {

void nap(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

TEST(Executor, EveryTaskRunsOnceAndSlotsAreNeverShared) {
    std::vector<ParallelTask> tasks(40, ParallelTask{"cpu", 4});
    std::mutex m;
    std::map<size_t, int> runs;
    std::set<int> busy;
    std::atomic<int> clashes{0}, peak{0}, now{0};
    run_parallel(tasks, 4, [&](size_t i, int slot) {
        {
            std::lock_guard<std::mutex> l(m);
            runs[i]++;
            if (!busy.insert(slot).second) clashes++;
            EXPECT_GE(slot, 0);
            EXPECT_LT(slot, 4);
        }
        const int n = ++now;
        for (int p = peak; n > p && !peak.compare_exchange_weak(p, n);) {}
        nap(5);
        --now;
        std::lock_guard<std::mutex> l(m);
        busy.erase(slot);
    });
    ASSERT_EQ(runs.size(), tasks.size());
    for (const auto &[i, k] : runs)
        EXPECT_EQ(k, 1) << i;
    EXPECT_EQ(clashes, 0);
    EXPECT_GT(peak, 1) << "4 jobs never ran two tasks at once";
    EXPECT_LE(peak, 4);
}

TEST(Executor, AGroupNeverExceedsItsLimit) {
    std::vector<ParallelTask> tasks;
    for (int i = 0; i < 30; i++)
        tasks.push_back(i % 3 == 0 ? ParallelTask{"gpu:0", 1} : ParallelTask{"cpu", 8});
    std::atomic<int> gpu{0}, gpu_peak{0}, all{0}, all_peak{0};
    run_parallel(tasks, 6, [&](size_t i, int) {
        const bool g = tasks[i].group == "gpu:0";
        const int a = ++all;
        if (a > all_peak) all_peak = a;
        if (g) {
            const int n = ++gpu;
            if (n > gpu_peak) gpu_peak = n;
        }
        nap(4);
        if (g) --gpu;
        --all;
    });
    EXPECT_EQ(gpu_peak, 1);
    EXPECT_GT(all_peak, 2);
}

TEST(Executor, OneJobRunsInOrderOnThisThread) {
    std::vector<size_t> order;
    const auto self = std::this_thread::get_id();
    run_parallel(std::vector<ParallelTask>(7, ParallelTask{"cpu", 1}), 1, [&](size_t i, int slot) {
        EXPECT_EQ(slot, 0);
        EXPECT_EQ(std::this_thread::get_id(), self);
        order.push_back(i);
    });
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(Executor, AThrowingTaskStopsNewOnesAndIsRethrown) {
    std::atomic<int> started{0};
    EXPECT_THROW(run_parallel(std::vector<ParallelTask>(100, ParallelTask{"cpu", 2}), 2,
                              [&](size_t i, int) {
                                  started++;
                                  if (i == 3) throw std::runtime_error("boom");
                                  nap(2);
                              }),
                 std::runtime_error);
    EXPECT_LT(started, 100);
}

TEST(Executor, ProgressPrefix) {
    EXPECT_EQ(progress_prefix(7, 30, 3.24), "[ 7/30   3.2s]");
    EXPECT_EQ(progress_prefix(30, 30, 125.0), "[30/30  2m05s]");
    EXPECT_EQ(progress_prefix(1, 1, 0), "[1/1   0.0s]");
    EXPECT_GE(default_jobs(), 1);
}

}  // namespace
}  // namespace harness
