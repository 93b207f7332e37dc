// run_batch: several tasks in one child, every verdict the one a child of its own gives (run_matrix.h).
#include "matrix/run_batch.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "run/batch_supervisor.h"
#include "base/files.h"
#include "base/profile.h"
#include "harness/registry.h"

namespace harness {

namespace {

// The record a lone child gives when the time limit kills it before it wrote a result (supervisor.cpp).
RunRecord timeout_record(const MatrixContext &ctx, const RunTask &t, const BatchEnd &end) {
    RunRecord r;
    resolve_without_child(ctx, t, &r);
    r.outcome = Outcome::Timeout;
    r.message = "killed after the " + std::to_string(static_cast<int>(ctx.opts.timeout)) + " s time limit";
    r.stderr_tail = end.output_tail;
    r.duration_ms = end.elapsed_ms;
    add_device(ctx, &r);
    return r;
}

// $HARNESS_BATCH_LOG: one line per batch child (for tests and for tuning): its size and how it ended.
void log_batch(const RunTask &first, size_t cases, const BatchEnd &end) {
    const char *path = std::getenv("HARNESS_BATCH_LOG");
    if (!path || !*path) return;
    static const char *const kinds[] = {"finished", "stopped", "died-at-exit", "crashed", "timed-out", "no-start"};
    const std::string line = "cases=" + std::to_string(cases) + " end=" + kinds[end.kind] +
                             " records=" + std::to_string(end.records.size()) + " first=" + first.pipeline + "/" +
                             first.profile + "/" + first.case_name + "\n";
    const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    (void)!write(fd, line.data(), line.size());  // one write: lines of parallel batches do not interleave
    close(fd);
}

void remove_batch_files(const std::string &prefix, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unlink((prefix + "." + std::to_string(i) + ".start").c_str());
        unlink((prefix + "." + std::to_string(i) + ".json").c_str());
    }
}

}  // namespace

std::vector<RunRecord> run_batch(const MatrixContext &ctx, const std::vector<RunTask> &tasks, int slot,
                                 BatchExits *exits) {
    std::vector<RunRecord> out(tasks.size());
    const std::string prefix = ctx.tmp + "/batch-" + std::to_string(slot);
    const std::string tasks_path = ctx.tmp + "/tasks-" + std::to_string(slot) + ".json";
    size_t begin = 0;
    while (begin < tasks.size()) {
        const size_t n = tasks.size() - begin;
        if (n == 1) {
            out[begin] = run_task(ctx, tasks[begin], slot);
            break;
        }
        nlohmann::json list = nlohmann::json::array();
        for (size_t i = begin; i < tasks.size(); i++)
            list.push_back({tasks[i].pipeline, tasks[i].profile, tasks[i].case_name, tasks[i].mode});
        write_file_atomic(tasks_path, list.dump());
        BatchCommand cmd;
        cmd.argv = child_argv(ctx, "__run-batch", {"--tasks", tasks_path, "--record", prefix});
        cmd.record_prefix = prefix;
        cmd.output_path = prefix + ".txt";
        cmd.timeout_s = ctx.opts.timeout;
        cmd.cases = n;
        BatchEnd end = supervise_batch(cmd);
        log_batch(tasks[begin], n, end);
        remove_batch_files(prefix, n);
        unlink(tasks_path.c_str());
        unlink(cmd.output_path.c_str());
        const size_t k = end.records.size();
        const auto keep = [&](size_t count) {  // the batch's first `count` records stand
            for (size_t i = 0; i < count; i++) {
                out[begin + i] = end.records[i];
                add_device(ctx, &out[begin + i]);
            }
        };
        const auto alone = [&](size_t from, size_t to) {  // re-run [from, to) of the batch one by one
            for (size_t i = from; i < to; i++)
                out[begin + i] = run_task(ctx, tasks[begin + i], slot);
        };
        if (end.kind == BatchEnd::Finished || end.kind == BatchEnd::Stopped) exits->clean = true;
        if (end.kind == BatchEnd::DiedAtExit || end.kind == BatchEnd::NoStart) exits->died = true;
        switch (end.kind) {
        case BatchEnd::Finished:
            keep(n);
            begin += n;
            break;
        case BatchEnd::Stopped:  // a FAIL or ERROR: the verdict of a child of its own
            keep(k - 1);
            alone(k - 1, k);
            begin += k;
            break;
        case BatchEnd::DiedAtExit:  // which case's teardown? each alone says
            alone(0, k);
            begin += k;
            break;
        case BatchEnd::Crashed:  // the crashing case alone: a CRASH, or whatever it gives by itself
            keep(k);
            alone(k, k + 1);
            begin += k + 1;
            break;
        case BatchEnd::TimedOut:
            keep(k);
            out[begin + k] = timeout_record(ctx, tasks[begin + k], end);
            begin += k + 1;
            break;
        case BatchEnd::NoStart:
            alone(0, n);
            begin += n;
            break;
        }
    }
    return out;
}

int default_gpu_jobs(int jobs) {
    return std::clamp(jobs / 2, 1, 8);
}

double task_cost(const RunTask &t) {
    const CaseSpec &c = Registry::instance().spec(t.pipeline).find_case(t.case_name);
    double bytes = 0;
    for (const auto *list : {&c.inputs, &c.outputs}) {
        for (const auto &b : *list) {
            double n = b.type.bytes();
            for (int d : b.shape)
                n *= d;
            bytes += n;
        }
    }
    return find_profile(t.profile).schedule == "portable" ? bytes : bytes / 16;
}

bool is_heavy(double cost) {
    return cost >= 4.0 * 1024 * 1024;
}

std::vector<size_t> start_order(const std::vector<RunTask> &tasks) {
    std::vector<double> cost;
    std::vector<size_t> order;
    for (size_t i = 0; i < tasks.size(); i++) {
        cost.push_back(task_cost(tasks[i]));
        order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const bool ha = is_heavy(cost[a]), hb = is_heavy(cost[b]);
        if (ha != hb) return ha;
        return ha && cost[a] > cost[b];
    });
    return order;
}

BatchPolicy::BatchPolicy(const MatrixContext &ctx, const std::vector<RunTask> &tasks,
                         const std::vector<ParallelTask> &groups)
    : ctx_(ctx) {
    for (const auto &t : tasks)
        heavy_.push_back(is_heavy(task_cost(t)));
    for (const auto &g : groups)
        limit_[g.group] = std::max(1, g.group_limit);
    for (const auto &[g, limit] : limit_)
        state_[g] = Unprobed;
}

size_t BatchPolicy::chunk(const std::string &group, const std::deque<size_t> &queue) {
    const size_t max_batch = static_cast<size_t>(std::max(1, ctx_.opts.batch));
    // Output matching is per child; so is the teardown check (--no-device-release: each child's exit).
    if (max_batch == 1 || !ctx_.opts.fail_on_output.empty() || ctx_.opts.no_device_release) return 1;
    if (heavy_.at(queue.front())) return 1;
    size_t pending = 0;  // the light tasks up to the next heavy one
    while (pending < queue.size() && !heavy_.at(queue[pending]))
        pending++;
    std::atomic<int> &state = state_.at(group);
    int s = state.load();
    if (s == Unprobed && state.compare_exchange_strong(s, Probing)) return std::min<size_t>(pending, 2);
    if (s == Probing) return 0;  // one small batch first: does this device's child exit cleanly?
    if (s == Singles) return 1;
    const size_t limit = static_cast<size_t>(limit_.at(group));
    if (limit == 1) return std::min(pending, max_batch);  // one slot: nothing to balance
    return std::clamp<size_t>((pending + 2 * limit - 1) / (2 * limit), 1, max_batch);
}

std::vector<RunRecord> BatchPolicy::first_records(const std::string &group, const std::vector<RunTask> &tasks,
                                                  int slot) {
    std::vector<RunRecord> out(tasks.size());
    std::vector<RunTask> children;
    std::vector<size_t> where;
    for (size_t i = 0; i < tasks.size(); i++) {
        if (!resolve_without_child(ctx_, tasks[i], &out[i])) {
            children.push_back(tasks[i]);
            where.push_back(i);
        }
    }
    BatchExits exits;
    if (children.size() == 1) {
        out[where[0]] = run_task(ctx_, children[0], slot);
    } else if (!children.empty()) {
        const std::vector<RunRecord> got = run_batch(ctx_, children, slot, &exits);
        for (size_t j = 0; j < got.size(); j++)
            out[where[j]] = got[j];
    }
    std::atomic<int> &state = state_.at(group);
    int probing = Probing;
    if (exits.died) {
        state = Singles;  // a child of this device dies at exit: batches would all be re-run alone
    } else if (exits.clean) {
        state.compare_exchange_strong(probing, Batches);
    } else {
        state.compare_exchange_strong(probing, Unprobed);  // nothing learnt: the next chunk probes again
    }
    return out;
}

}  // namespace harness
