// The run matrix's batching policy (batch_policy.h).
#include "matrix/batch_policy.h"

#include <algorithm>

#include "base/profile.h"
#include "harness/registry.h"
#include "matrix/run_batch.h"
#include "spec/xfail.h"

namespace harness {

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

// A GPU child's kernel compilation in task_cost's unit: more than a light CPU unit (so device work,
// the longer part of a run, starts first), less than a heavy CPU task.
const double kGpuSetupCost = 2.0 * 1024 * 1024;

bool is_heavy(double cost) {
    return cost >= 4.0 * 1024 * 1024;
}

bool expected_to_fail(const MatrixContext &ctx, const RunTask &t) {
    const Profile &p = find_profile(t.profile);
    const nlohmann::json device = ctx.avail.selected.value(t.profile, nlohmann::json());
    // The failures a lone child can give before its exit; a fault at exit (TEARDOWN_FAULT) is found by
    // the batch's own exit and re-run alone.
    for (Outcome o : {Outcome::Fail, Outcome::Error, Outcome::Crash, Outcome::Timeout}) {
        RunRecord r;
        r.pipeline = t.pipeline;
        r.profile = t.profile;
        r.case_name = t.case_name;
        r.mode = t.mode;
        r.outcome = o;
        r.metrics["device_release"] = p.is_gpu() && !ctx.opts.no_device_release ? "released" : "";
        if (ctx.baseline.expects(r)) return true;
        ctx.xfail.apply(r, device);
        if (r.outcome == Outcome::XFail) return true;
    }
    return false;
}

BatchPolicy::BatchPolicy(const MatrixContext &ctx, const std::vector<RunTask> &tasks,
                         const std::vector<ParallelTask> &groups)
    : ctx_(ctx) {
    for (size_t i = 0; i < tasks.size(); i++) {
        const RunTask &t = tasks[i];
        PlanTask p;
        p.group = groups.at(i).group;
        p.unit = t.pipeline + "/" + t.profile;
        p.cost = task_cost(t);
        const bool gpu = find_profile(t.profile).is_gpu();
        p.setup = gpu ? kGpuSetupCost : 0;
        p.alone = !gpu && is_heavy(p.cost);  // a GPU task shares its unit's kernel compilation
        p.lead = !p.alone && expected_to_fail(ctx, t);
        plan_.push_back(p);
    }
    order_ = plan_start_order(plan_);
    for (const auto &g : groups)
        limit_[g.group] = std::max(1, g.group_limit);
    for (const auto &[g, limit] : limit_)
        state_[g] = Batches;
}

size_t BatchPolicy::chunk(const std::string &group, const std::deque<size_t> &queue) {
    const size_t max_batch = static_cast<size_t>(std::max(1, ctx_.opts.batch));
    // Output matching is per child; so is the teardown check (--no-device-release: each child's exit).
    if (max_batch == 1 || !ctx_.opts.fail_on_output.empty() || ctx_.opts.no_device_release) return 1;
    if (state_.at(group).load() == Singles) return 1;
    // A group is one device or the CPU: its first pending task says whether its children set up a device.
    const bool device_setup = !queue.empty() && plan_.at(queue.front()).setup > 0;
    const size_t target = plan_target(queue.size(), static_cast<size_t>(limit_.at(group)), max_batch, device_setup);
    return plan_chunk(plan_, queue, target, max_batch);
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
    // A child of this device died at exit: its batches would all be re-run alone, so a child per case
    // from now on (the batches running now are re-run alone as they end).
    if (exits.died) state_.at(group) = Singles;
    return out;
}

}  // namespace harness
