// run_batch: several tasks in one child, every verdict the one a child of its own gives (run_matrix.h).
#include "matrix/run_batch.h"
#include "matrix/device_choice.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "run/batch_supervisor.h"
#include "base/files.h"

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

std::string task_id(const RunTask &t) {
    return t.pipeline + "/" + t.profile + "/" + t.case_name;
}

void remove_batch_files(const std::string &prefix, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unlink(batch_start_file(prefix, i).c_str());
        unlink(batch_record_file(prefix, i).c_str());
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
        BatchCommand cmd;
        cmd.argv = child_argv(
            ctx, child_call(ctx, std::vector<RunTask>(tasks.begin() + long(begin), tasks.end()), prefix, tasks_path));
        cmd.record_prefix = prefix;
        cmd.output_path = prefix + ".txt";
        cmd.timeout_s = ctx.opts.timeout;
        cmd.cases = n;
        const double t0 = wall_seconds();
        BatchEnd end = supervise_batch(cmd);
        static const char *const kinds[] = {"finished", "stopped", "died-at-exit", "crashed", "timed-out", "no-start"};
        const size_t k_at = end.kind == BatchEnd::Stopped ? end.records.size() - 1 : end.records.size();
        const bool has_at =
            end.kind == BatchEnd::Stopped || end.kind == BatchEnd::Crashed || end.kind == BatchEnd::TimedOut;
        log_child(tasks[begin], has_at ? &tasks[begin + k_at] : nullptr, n, kinds[end.kind], end.records.size(), t0,
                  wall_seconds());
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
    return std::clamp(jobs / 2, 1, 2);
}

double wall_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

namespace {

void append_log_line(const std::string &line) {
    const char *path = std::getenv("HARNESS_BATCH_LOG");
    if (!path || !*path) return;
    const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) return;
    (void)!write(fd, line.data(), line.size());  // one write: lines of parallel children do not interleave
    close(fd);
}

}  // namespace

void log_matrix_start(size_t tasks, int jobs, int gpu_jobs) {
    char line[128];
    std::snprintf(line, sizeof line, "matrix tasks=%zu jobs=%d gpu_jobs=%d t0=%.3f\n", tasks, jobs, gpu_jobs,
                  wall_seconds());
    append_log_line(line);
}

void log_child(const RunTask &first, const RunTask *at, size_t cases, const char *end, size_t records, double t0,
               double t1) {
    char times[64];
    std::snprintf(times, sizeof times, " t0=%.3f t1=%.3f\n", t0, t1);
    const std::string line = "cases=" + std::to_string(cases) + " end=" + end + " records=" + std::to_string(records) +
                             " first=" + task_id(first) + (at ? " at=" + task_id(*at) : std::string()) + times;
    append_log_line(line);
}

}  // namespace harness
