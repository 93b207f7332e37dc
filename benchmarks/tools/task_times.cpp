// task-times: what each task of a host pipeline's parallel loops costs, measured alone. A diagnostic for
// strip schedules: every halide_do_par_for call of the pipeline runs its tasks one after
// another on the calling thread, each timed, so that one expensive task (a guarded tail strip on a slow
// path) shows up even though on many cores it only lengthens the critical path.
//   task-times <pipeline> <profile> <W>x<H> [threads] [calls]
// `threads` (default HL_NUM_THREADS, else the CPUs) is what halide_get_num_threads() answers, so the
// strips are those a pool of that size would get. Prints per loop (in call order): the task count, the
// median, the slowest task (index and time) and the sum, in microseconds, medians over `calls` calls.
#include <HalideRuntime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/registry.h"
#include "variant/invocation.h"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::vector<double>> g_loops;  // one call: per parallel loop, every task's seconds

int timed_serial_par_for(void *uc, halide_task_t f, int min, int size, uint8_t *closure) {
    std::vector<double> t(static_cast<size_t>(std::max(size, 0)));
    for (int i = 0; i < size; i++) {
        const auto t0 = Clock::now();
        if (const int r = f(uc, min + i, closure); r != 0) return r;
        t[i] = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    g_loops.push_back(std::move(t));
    return 0;
}

double median(std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: task-times <pipeline> <profile> <W>x<H> [threads] [calls]\n");
        return 2;
    }
    int w = 0, h = 0;
    if (std::sscanf(argv[3], "%dx%d", &w, &h) != 2) {
        std::fprintf(stderr, "task-times: error: size '%s' is not WxH\n", argv[3]);
        return 2;
    }
    const int calls = argc > 5 ? std::atoi(argv[5]) : 20;
    try {
        harness::Registry &reg = harness::Registry::instance();
        const harness::Variant *v = reg.find(argv[1], argv[2]);
        const harness::PipelineSpec &spec = reg.spec(argv[1]);
        if (!v || !spec.make_case) {
            std::fprintf(stderr, "task-times: error: no variant %s/%s with make_case\n", argv[1], argv[2]);
            return 2;
        }
        if (argc > 4) halide_set_num_threads(std::atoi(argv[4]));
        const harness::CaseSpec c = spec.make_case(w, h);
        std::vector<harness::Array> inputs = harness::case_inputs(c);
        harness::Invocation inv(*v, c, inputs);
        halide_set_custom_do_par_for(timed_serial_par_for);
        std::vector<std::vector<std::vector<double>>> per_call;  // call, loop, task
        for (int k = 0; k < calls + 1; k++) {
            g_loops.clear();
            if (inv.call_resident() != 0) {
                std::fprintf(stderr, "task-times: error: the pipeline failed\n");
                return 1;
            }
            if (k > 0) per_call.push_back(g_loops);  // the first call warms up
        }
        std::printf("%s/%s %dx%d, halide_get_num_threads() = %d, %d calls, tasks run serially:\n", argv[1], argv[2], w,
                    h, halide_get_num_threads(), calls);
        for (size_t l = 0; l < per_call[0].size(); l++) {
            const size_t n = per_call[0][l].size();
            std::vector<double> task(n), sums;
            std::vector<std::vector<double>> by_task(n);
            for (const auto &call : per_call) {
                double s = 0;
                for (size_t i = 0; i < n && l < call.size() && i < call[l].size(); i++) {
                    by_task[i].push_back(call[l][i]);
                    s += call[l][i];
                }
                sums.push_back(s);
            }
            for (size_t i = 0; i < n; i++)
                task[i] = median(by_task[i]);
            const size_t worst = static_cast<size_t>(std::max_element(task.begin(), task.end()) - task.begin());
            std::printf("  loop %zu: %zu tasks, median %.1f us, slowest #%zu %.1f us, last %.1f us, sum %.1f us\n", l,
                        n, median(task) * 1e6, worst, task[worst] * 1e6, task[n - 1] * 1e6, median(sums) * 1e6);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "task-times: error: %s\n", e.what());
        return 2;
    }
    return 0;
}
