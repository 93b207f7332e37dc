// Unit tests of harness::ParallelPool (parallel_pool.h): raw halide_do_par_for calls (every task once,
// really in parallel, nested loops, errors and exceptions as the loop's result, concurrent callers) and an
// AOT pipeline with a nested parallel loop and a require() in its tasks, whose output must be the same
// bytes on Halide's pool and on this one, and equal to the formula computed here; and a multi-scale
// filter whose pyramid levels are parallel loops from full-size rows down to a few rows, the same bytes on
// both pools.
#include <HalideBuffer.h>
#include <HalideRuntime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "harness/parallel_pool.h"
#include "parallel_pool_pyramid.h"
#include "parallel_pool_test_pipeline.h"

namespace {

using harness::ParallelPool;
using harness::ParallelPoolOptions;
using Image = Halide::Runtime::Buffer<int32_t>;

std::mutex g_error_mutex;
std::string g_last_error;

void capture_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(g_error_mutex);
    g_last_error = msg;
}

Image test_input(int w, int h) {
    Image in(w, h);
    in.for_each_element([&](int x, int y) { in(x, y) = (x * 7 + y * 13) % 1000 - 500; });
    return in;
}

// Runs the pipeline; the expected output is the generator's formula, computed here.
int run_pipeline(Image in, int poison,
                 Image &out) {  // by value: a Buffer converts to halide_buffer_t * only when not const
    out = Image(in.width(), in.height());
    return parallel_pool_test_pipeline(in, poison, out);
}

void expect_formula(const Image &in, const Image &out) {
    int wrong = 0;
    out.for_each_element([&](int x, int y) { wrong += out(x, y) != (in(x, y) * 3 + y) * 2 + x; });
    EXPECT_EQ(wrong, 0);
}

constexpr int kNoPoison = 1 << 30;

TEST(ParallelPool, PipelineOutputIsHalidePoolsAndTheFormula) {
    halide_set_error_handler(capture_error);
    const Image in = test_input(333, 201);  // 51 strips of 4 rows (the last guarded), 21 column chunks each
    Image on_halide, on_pool;
    ASSERT_EQ(run_pipeline(in, kNoPoison, on_halide), 0);
    expect_formula(in, on_halide);
    ParallelPool pool({4, 2000});
    for (int i = 0; i < 20; i++) {
        ASSERT_EQ(run_pipeline(in, kNoPoison, on_pool), 0);
        ASSERT_EQ(std::memcmp(on_pool.data(), on_halide.data(), on_halide.size_in_bytes()), 0) << "call " << i;
    }
}

// The pyramid filter (8 levels: 14 parallel loops per call) on an odd-sized image: the same bytes on
// Halide's pool and on this one, with tasks really taken by the pool's workers.
TEST(ParallelPool, PyramidFilterSameBytesOnBothPools) {
    halide_set_error_handler(capture_error);
    Halide::Runtime::Buffer<uint16_t> in(611, 397, 3);
    in.for_each_element([&](int x, int y, int c) { in(x, y, c) = (x * 977 + y * 331 + c * 7919 + x * y) % 65536; });
    Halide::Runtime::Buffer<uint16_t> on_halide(611, 397, 3), on_pool(611, 397, 3);
    ASSERT_EQ(parallel_pool_pyramid(in, 1.5f, on_halide), 0) << g_last_error;
    int changed = 0;  // the filter did something: not a copy of the input, not a constant
    on_halide.for_each_element([&](int x, int y, int c) { changed += on_halide(x, y, c) != in(x, y, c); });
    EXPECT_GT(changed, 1000);
    ParallelPool pool({4, 2000});
    for (int i = 0; i < 3; i++) {
        on_pool.fill(0);
        ASSERT_EQ(parallel_pool_pyramid(in, 1.5f, on_pool), 0) << g_last_error;
        ASSERT_EQ(std::memcmp(on_pool.data(), on_halide.data(), on_halide.size_in_bytes()), 0) << "call " << i;
    }
    EXPECT_GT(pool.tasks_run_by_workers(), 0u);
}

TEST(ParallelPool, RequireFailingInATaskIsThePipelinesError) {
    halide_set_error_handler(capture_error);
    const Image in = test_input(100, 90);
    ParallelPool pool({4, 2000});
    Image out;
    g_last_error.clear();
    EXPECT_EQ(run_pipeline(in, in(37, 61), out), halide_error_code_requirement_failed);
    EXPECT_NE(g_last_error.find("poison at"), std::string::npos) << g_last_error;
    ASSERT_EQ(run_pipeline(in, kNoPoison, out), 0);  // the pool is usable after a failed loop
    expect_formula(in, out);
}

struct Counts {
    std::vector<std::atomic<int>> n;
    explicit Counts(size_t size) : n(size) {}
};

int count_task(void *, int i, uint8_t *closure) {
    reinterpret_cast<Counts *>(closure)->n[i].fetch_add(1);
    return 0;
}

TEST(ParallelPool, MoreTasksThanThreadsEachRunOnce) {
    ParallelPool pool({3, 2000});
    Counts counts(10005);
    ASSERT_EQ(halide_do_par_for(nullptr, count_task, 5, 10000, reinterpret_cast<uint8_t *>(&counts)), 0);
    for (int i = 0; i < 10005; i++)
        ASSERT_EQ(counts.n[i].load(), i >= 5 ? 1 : 0) << "task " << i;
    EXPECT_EQ(halide_do_par_for(nullptr, count_task, 0, 0, reinterpret_cast<uint8_t *>(&counts)), 0);
}

// Each task waits (at most 10 s) until tasks have run on two different threads at the same time.
struct Meeting {
    std::mutex m;
    std::set<std::thread::id> ids;
};

int meet_task(void *, int, uint8_t *closure) {
    auto *meeting = reinterpret_cast<Meeting *>(closure);
    {
        std::lock_guard<std::mutex> lock(meeting->m);
        meeting->ids.insert(std::this_thread::get_id());
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
        std::lock_guard<std::mutex> lock(meeting->m);
        if (meeting->ids.size() >= 2) return 0;
    }
    return -100;  // no second thread came
}

TEST(ParallelPool, TasksRunInParallelAfterTheWorkersSlept) {
    for (const int spin_us : {2000, 0}) {
        ParallelPool pool({4, spin_us});
        for (int round = 0; round < 3; round++) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // past the spin: workers asleep
            Meeting meeting;
            ASSERT_EQ(halide_do_par_for(nullptr, meet_task, 0, 4, reinterpret_cast<uint8_t *>(&meeting)), 0)
                << "spin_us " << spin_us;
        }
        EXPECT_GT(pool.tasks_run_by_workers(), 0u);
        EXPECT_EQ(pool.threads(), 4);
        EXPECT_EQ(halide_get_num_threads(), 4);  // schedules that read the pool's size see this one's
    }
}

int outer_task(void *, int, uint8_t *closure) {
    return halide_do_par_for(nullptr, count_task, 0, 100, closure);
}

TEST(ParallelPool, NestedLoopsRunEveryInnerTask) {
    ParallelPool pool({4, 2000});
    Counts counts(100);
    ASSERT_EQ(halide_do_par_for(nullptr, outer_task, 0, 8, reinterpret_cast<uint8_t *>(&counts)), 0);
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(counts.n[i].load(), 8) << "inner task " << i;
}

int failing_task(void *, int i, uint8_t *) {
    return i == 123 ? -7 : 0;
}

int throwing_task(void *, int i, uint8_t *) {
    if (i == 17) throw std::runtime_error("task 17");
    return 0;
}

TEST(ParallelPool, ErrorsAndExceptionsAreTheLoopsResult) {
    ParallelPool pool({4, 2000});
    EXPECT_EQ(halide_do_par_for(nullptr, failing_task, 0, 1000, nullptr), -7);
    EXPECT_EQ(halide_do_par_for(nullptr, failing_task, 0, 100, nullptr), 0);
    EXPECT_EQ(halide_do_par_for(nullptr, throwing_task, 0, 1000, nullptr), halide_error_code_generic_error);
    Counts counts(16);
    EXPECT_EQ(halide_do_par_for(nullptr, count_task, 0, 16, reinterpret_cast<uint8_t *>(&counts)), 0);
}

TEST(ParallelPool, ConcurrentCallersGetTheirOwnResults) {
    halide_set_error_handler(capture_error);
    ParallelPool pool({4, 2000});
    const Image in = test_input(130, 77);
    std::atomic<int> bad{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 3; t++) {
        callers.emplace_back([&] {
            for (int i = 0; i < 30; i++) {
                Image out;
                if (run_pipeline(in, kNoPoison, out) != 0) bad++;
                out.for_each_element([&](int x, int y) { bad += out(x, y) != (in(x, y) * 3 + y) * 2 + x; });
            }
        });
    }
    for (auto &t : callers)
        t.join();
    EXPECT_EQ(bad.load(), 0);
}

TEST(ParallelPool, OnePoolAtATimeAndHalidesPoolAfterIt) {
    {
        ParallelPool pool({2, 0});
        EXPECT_THROW(ParallelPool second({2, 0}), std::logic_error);
    }
    Counts counts(64);  // Halide's own pool again
    ASSERT_EQ(halide_do_par_for(nullptr, count_task, 0, 64, reinterpret_cast<uint8_t *>(&counts)), 0);
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(counts.n[i].load(), 1);
    ParallelPool again({2, 0});
    EXPECT_EQ(again.threads(), 2);
}

TEST(ParallelPool, PoolByNameForTheBenchmarksOptions) {
    std::string what;
    EXPECT_EQ(harness::make_pool_by_name("halide", &what), nullptr);
    EXPECT_NE(what.find("Halide 21's own"), std::string::npos) << what;
    {
        const auto pool = harness::make_pool_by_name("harness:150", &what);
        ASSERT_NE(pool, nullptr);
        EXPECT_EQ(pool->spin_us(), 150);
        EXPECT_NE(what.find("spin 150 us"), std::string::npos) << what;
    }
    for (const char *bad : {"harness:", "harness:abc", "harness:-1", "harness:2000000", "tbb", "harness2"})
        EXPECT_THROW(harness::check_pool_name(bad), std::invalid_argument) << bad;
    EXPECT_NO_THROW(harness::check_pool_name("harness"));
}

}  // namespace
