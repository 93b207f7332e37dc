// The spinning pool behind --halide_spin_pool (spin_pool.h).
#include "spin_pool.h"

#include <HalideRuntime.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "bench/timing.h"

namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

// One halide_do_par_for call: tasks min .. min + size - 1, taken one at a time by whoever is free.
struct Job {
    halide_task_t f;
    void *user_context;
    uint8_t *closure;
    int min, size;
    std::atomic<int> next{0}, done{0}, result{0};

    void run() {
        for (int i; (i = next.fetch_add(1)) < size;) {
            if (const int r = f(user_context, min + i, closure); r != 0) result.store(r);
            done.fetch_add(1);
        }
    }
};

thread_local bool t_in_task = false;  // a parallel loop inside a task runs serially

class SpinPool {
public:
    SpinPool(int threads, int spin_us) : spin_(std::chrono::microseconds(spin_us)) {
        for (int i = 1; i < threads; i++)
            workers_.emplace_back([this] { work(); });
    }
    ~SpinPool() {
        stop_.store(true);
        generation_.fetch_add(1);
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
        for (auto &t : workers_)
            t.join();
    }

    int par_for(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
        Job job;
        job.f = f, job.user_context = uc, job.closure = closure, job.min = min, job.size = size;
        if (t_in_task || workers_.empty() || size <= 1) {
            job.run();
            return job.result.load();
        }
        job_.store(&job);
        generation_.fetch_add(1);
        if (sleepers_.load() > 0) {
            { std::lock_guard<std::mutex> lock(mutex_); }
            wake_.notify_all();
        }
        t_in_task = true;
        job.run();
        t_in_task = false;
        while (job.done.load() < size) {}
        job_.store(nullptr);
        while (active_.load() > 0) {}
        return job.result.load();
    }

private:
    void work() {
        t_in_task = true;
        uint64_t seen = generation_.load();
        auto idle_since = Clock::now();
        while (!stop_.load()) {
            const uint64_t g = generation_.load();
            if (g != seen) {
                seen = g;
                active_.fetch_add(1);
                if (Job *j = job_.load()) j->run();
                active_.fetch_sub(1);
                idle_since = Clock::now();
                continue;
            }
            if (Clock::now() - idle_since < spin_) {
                std::this_thread::yield();
                continue;
            }
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1);
            wake_.wait(lock, [&] { return generation_.load() != seen; });
            sleepers_.fetch_sub(1);
            idle_since = Clock::now();
        }
    }

    std::chrono::microseconds spin_;
    std::vector<std::thread> workers_;
    std::atomic<uint64_t> generation_{0};
    std::atomic<Job *> job_{nullptr};
    std::atomic<int> active_{0}, sleepers_{0};
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

SpinPool *g_pool = nullptr;

int spin_do_par_for(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
    return g_pool->par_for(uc, f, min, size, closure);
}

}  // namespace

void install_halide_spin_pool(int spin_us) {
    if (g_pool) return;
    g_pool = new SpinPool(harness::perf::all_threads(), spin_us);  // lives until exit: workers never join
    halide_set_custom_do_par_for(spin_do_par_for);
}

}  // namespace bench
