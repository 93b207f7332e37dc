// The run matrix's worker threads (executor.h): tasks in order, per-group limits for GPU devices, slots.
#include "matrix/executor.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace harness {

void run_chunked(const std::vector<ParallelTask> &tasks, int jobs, const std::vector<size_t> &order,
                 const std::function<size_t(const std::string &group, const std::deque<size_t> &pending)> &chunk,
                 const std::function<void(const std::vector<size_t> &chunk, int slot)> &run) {
    std::map<std::string, std::deque<size_t>> pending;  // group -> its tasks not started, in start order
    std::map<std::string, int> limit, running;
    std::vector<size_t> rank(tasks.size());  // position in the start order
    for (size_t k = 0; k < tasks.size(); k++) {
        const size_t i = order.empty() ? k : order.at(k);
        rank.at(i) = k;
        pending[tasks[i].group].push_back(i);
        limit[tasks[i].group] = std::max(1, tasks[i].group_limit);
    }
    std::mutex m;
    std::condition_variable cv;
    size_t left = tasks.size();  // not started
    std::exception_ptr failure;
    // The group with room whose first pending task comes first and that takes a chunk now ("" if none).
    const auto pick = [&](std::vector<size_t> *taken) {
        std::vector<std::pair<size_t, std::string>> firsts;
        for (const auto &[g, q] : pending) {
            if (!q.empty() && running[g] < limit[g]) firsts.emplace_back(rank[q.front()], g);
        }
        std::sort(firsts.begin(), firsts.end());
        for (const auto &[first, g] : firsts) {
            std::deque<size_t> &q = pending[g];
            const size_t n = std::min(q.size(), chunk(g, q));
            if (n == 0) continue;
            taken->assign(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(n));
            q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(n));
            return g;
        }
        return std::string();
    };
    const auto worker = [&](int slot) {
        std::unique_lock<std::mutex> lock(m);
        for (;;) {
            if (left == 0 || failure) return;
            std::vector<size_t> taken;
            const std::string g = pick(&taken);
            if (taken.empty()) {  // everything left waits for a busy group
                cv.wait(lock);
                continue;
            }
            left -= taken.size();
            running[g]++;
            lock.unlock();
            try {
                run(taken, slot);
            } catch (...) {
                lock.lock();
                if (!failure) failure = std::current_exception();
                running[g]--;
                cv.notify_all();
                return;
            }
            lock.lock();
            running[g]--;
            cv.notify_all();
        }
    };
    const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(std::max(1, jobs)), tasks.size()));
    std::vector<std::thread> threads;
    for (int s = 1; s < n; s++)
        threads.emplace_back(worker, s);
    if (n > 0) worker(0);
    for (auto &t : threads)
        t.join();
    if (failure) std::rethrow_exception(failure);
}

void run_parallel(const std::vector<ParallelTask> &tasks, int jobs,
                  const std::function<void(size_t index, int slot)> &run) {
    run_chunked(
        tasks, jobs, {}, [](const std::string &, const std::deque<size_t> &) { return size_t{1}; },
        [&](const std::vector<size_t> &chunk, int slot) { run(chunk[0], slot); });
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
