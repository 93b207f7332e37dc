// The run matrix's worker threads (executor.h): tasks in order, per-group limits for GPU devices, slots.
#include "matrix/executor.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace harness {

void run_parallel(const std::vector<ParallelTask> &tasks, int jobs,
                  const std::function<void(size_t index, int slot)> &run) {
    if (jobs <= 1 || tasks.size() <= 1) {
        for (size_t i = 0; i < tasks.size(); i++)
            run(i, 0);
        return;
    }
    std::mutex m;
    std::condition_variable cv;
    std::vector<bool> started(tasks.size(), false);
    std::map<std::string, int> running;  // group -> tasks of it running now
    size_t next = 0;                     // every task before it has started
    std::exception_ptr failure;
    // The first task, in index order, whose group has room; tasks.size() if none can start now.
    const auto pick = [&]() {
        for (size_t i = next; i < tasks.size(); i++) {
            if (!started[i] && running[tasks[i].group] < std::max(1, tasks[i].group_limit)) return i;
        }
        return tasks.size();
    };
    const auto worker = [&](int slot) {
        std::unique_lock<std::mutex> lock(m);
        for (;;) {
            while (next < tasks.size() && started[next])
                next++;
            if (next >= tasks.size() || failure) return;
            const size_t i = pick();
            if (i == tasks.size()) {  // everything left waits for a busy group
                cv.wait(lock);
                continue;
            }
            started[i] = true;
            running[tasks[i].group]++;
            lock.unlock();
            try {
                run(i, slot);
            } catch (...) {
                lock.lock();
                if (!failure) failure = std::current_exception();
                running[tasks[i].group]--;
                cv.notify_all();
                return;
            }
            lock.lock();
            running[tasks[i].group]--;
            cv.notify_all();
        }
    };
    const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(jobs), tasks.size()));
    std::vector<std::thread> threads;
    for (int s = 1; s < n; s++)
        threads.emplace_back(worker, s);
    worker(0);
    for (auto &t : threads)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

int default_jobs() {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

std::string progress_prefix(size_t done, size_t total, double elapsed_s) {
    const int width = static_cast<int>(std::to_string(total).size());
    char time[32];
    if (elapsed_s < 60) {
        std::snprintf(time, sizeof time, "%.1fs", elapsed_s);
    } else {
        const long s = static_cast<long>(elapsed_s);
        std::snprintf(time, sizeof time, "%ldm%02lds", s / 60, s % 60);
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "[%*zu/%zu %6s]", width, done, total, time);
    return buf;
}

}  // namespace harness
