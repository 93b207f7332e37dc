// harness::ParallelPool (parallel_pool.h): one job at a time, tasks taken with an atomic add, idle
// workers spinning for a bounded time before they sleep.
#include "harness/parallel_pool.h"

#include <HalideRuntime.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace harness {

namespace {

using Clock = std::chrono::steady_clock;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// One halide_do_par_for call: tasks min .. min + size - 1, each taken by whoever is free.
struct Job {
    halide_task_t f = nullptr;
    void *user_context = nullptr;
    uint8_t *closure = nullptr;
    int min = 0, size = 0;
    alignas(64) std::atomic<int> next{0};
    alignas(64) std::atomic<int> done{0};
    std::atomic<int> result{0};

    // Runs tasks until none is left; returns how many this thread ran.
    int run() {
        int ran = 0;
        for (int i; (i = next.fetch_add(1, std::memory_order_relaxed)) < size;) {
            if (result.load(std::memory_order_relaxed) == 0) {
                int r;
                try {
                    r = f(user_context, min + i, closure);
                } catch (...) {
                    r = halide_error_code_generic_error;
                }
                if (r != 0) {
                    int expected = 0;
                    result.compare_exchange_strong(expected, r);
                }
                ran++;
            }
            done.fetch_add(1, std::memory_order_release);
        }
        return ran;
    }
};

thread_local bool t_in_task = false;  // a parallel loop inside a task runs on its thread

int threads_from_environment() {
    if (const char *s = std::getenv("HL_NUM_THREADS")) {
        const int n = std::atoi(s);
        if (n > 0) return n;
    }
    const unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? static_cast<int>(hw) : 1;
}

}  // namespace

class ParallelPool::Impl {
public:
    Impl(int threads, int spin_us) : threads_(threads), spin_(std::chrono::microseconds(spin_us)) {
        for (int i = 1; i < threads; i++)
            workers_.emplace_back([this] { work(); });
    }

    ~Impl() {
        stop_.store(true);
        generation_.fetch_add(1);
        { std::lock_guard<std::mutex> lock(mutex_); }
        wake_.notify_all();
        for (auto &t : workers_)
            t.join();
    }

    int par_for(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
        if (size <= 0) return 0;
        Job job;
        job.f = f, job.user_context = uc, job.closure = closure, job.min = min, job.size = size;
        Job *idle = nullptr;
        if (t_in_task || workers_.empty() || size == 1 || !job_.compare_exchange_strong(idle, &job)) {
            const bool was = t_in_task;  // nested, single-task or concurrent: on this thread, in order
            t_in_task = true;
            job.run();
            t_in_task = was;
            return job.result.load();
        }
        generation_.fetch_add(1);
        if (sleepers_.load() > 0) {
            { std::lock_guard<std::mutex> lock(mutex_); }
            wake_.notify_all();
        }
        t_in_task = true;
        job.run();
        t_in_task = false;
        // The other tasks are running: wait for them (a bounded wait, not an idle spin).
        for (int spins = 0; job.done.load(std::memory_order_acquire) < size; spins++) {
            if (spins < 4096)
                cpu_relax();
            else
                std::this_thread::yield();
        }
        job_.store(nullptr);
        while (active_.load() > 0)  // a worker that took the job's address is leaving it
            cpu_relax();
        return job.result.load();
    }

    const int threads_;
    const std::chrono::microseconds spin_;
    std::atomic<uint64_t> by_workers_{0};

private:
    void work() {
        t_in_task = true;
        // 0, the generation before any job: a worker that starts late (a loaded machine) must still see the
        // first job's generation as new (parallel-pool-test caught workers that read it as already seen).
        uint64_t seen = 0;
        while (!stop_.load(std::memory_order_relaxed)) {
            if (generation_.load() != seen || wait_for_work(seen)) {
                seen = generation_.load();
                active_.fetch_add(1);
                if (Job *j = job_.load()) by_workers_.fetch_add(j->run(), std::memory_order_relaxed);
                active_.fetch_sub(1);
            }
        }
    }

    // Spins up to spin_ for a new generation, then sleeps until one comes. True when one came.
    bool wait_for_work(uint64_t seen) {
        const auto until = Clock::now() + spin_;
        for (int i = 0;; i++) {
            if (generation_.load(std::memory_order_relaxed) != seen) return true;
            if ((i & 63) == 63) {
                if (Clock::now() >= until) break;
                std::this_thread::yield();  // another runnable thread on this CPU goes first
            }
            cpu_relax();
        }
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, [&] { return generation_.load() != seen; });
        sleepers_.fetch_sub(1);
        return true;
    }

    std::vector<std::thread> workers_;
    alignas(64) std::atomic<uint64_t> generation_{0};
    alignas(64) std::atomic<Job *> job_{nullptr};
    alignas(64) std::atomic<int> active_{0};
    std::atomic<int> sleepers_{0};
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

namespace {

std::atomic<ParallelPool::Impl *> g_pool{nullptr};

int pool_do_par_for(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
    return g_pool.load(std::memory_order_acquire)->par_for(uc, f, min, size, closure);
}

halide_do_par_for_t g_previous = nullptr;

}  // namespace

ParallelPool::ParallelPool(ParallelPoolOptions options) {
    const int threads = options.threads > 0 ? options.threads : threads_from_environment();
    impl_ = new Impl(threads, options.spin_us > 0 ? options.spin_us : 0);
    Impl *none = nullptr;
    if (!g_pool.compare_exchange_strong(none, impl_)) {
        delete impl_;
        throw std::logic_error("harness::ParallelPool: a pool is already installed; destroy it first");
    }
    halide_set_num_threads(threads);
    g_previous = halide_set_custom_do_par_for(pool_do_par_for);
}

ParallelPool::~ParallelPool() {
    halide_set_custom_do_par_for(g_previous);
    g_pool.store(nullptr);
    delete impl_;
}

int ParallelPool::threads() const {
    return impl_->threads_;
}

int ParallelPool::spin_us() const {
    return static_cast<int>(impl_->spin_.count());
}

uint64_t ParallelPool::tasks_run_by_workers() const {
    return impl_->by_workers_.load();
}

namespace {

// -1: Halide's own pool; else the spin of "harness[:<spin_us>]" (the default for plain "harness").
int parse_pool_name(const std::string &name) {
    if (name.empty() || name == "halide") return -1;
    if (name == "harness") return ParallelPoolOptions().spin_us;
    const std::string spin = name.size() > 8 && name.compare(0, 8, "harness:") == 0 ? name.substr(8) : "";
    char *end = nullptr;
    const long us = spin.empty() ? -1 : std::strtol(spin.c_str(), &end, 10);
    if (spin.empty() || *end != '\0' || us < 0 || us > 1000000) {
        throw std::invalid_argument("halide pool '" + name +
                                    "' is not one; use halide, harness or harness:<spin microseconds, 0-1000000>");
    }
    return static_cast<int>(us);
}

}  // namespace

void check_pool_name(const std::string &name) {
    parse_pool_name(name);
}

std::unique_ptr<ParallelPool> make_pool_by_name(const std::string &name, std::string *description) {
    const int spin_us = parse_pool_name(name);
    if (spin_us < 0) {
        *description = "halide (Halide 21's own thread pool)";
        return nullptr;
    }
    ParallelPoolOptions o;
    o.spin_us = spin_us;
    auto pool = std::make_unique<ParallelPool>(o);
    *description = "harness (harness::ParallelPool, " + std::to_string(pool->threads()) + " threads, spin " +
                   std::to_string(pool->spin_us()) + " us)";
    return pool;
}

}  // namespace harness
