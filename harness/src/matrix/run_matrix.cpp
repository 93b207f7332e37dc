// The run matrix (run_matrix.h).
#include "matrix/run_matrix.h"
#include "spec/shape_query.h"
#include "matrix/device_choice.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <climits>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "variant/buffers.h"
#include "base/error.h"
#include "matrix/executor.h"
#include "base/files.h"
#include "matrix/flake.h"
#include "golden/golden.h"
#include "base/name_filter.h"
#include "devices/opencl_probe.h"
#include "devices/cuda_probe.h"
#include "devices/runtime_availability.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "matrix/batch_policy.h"
#include "matrix/run_batch.h"
#include "matrix/shard.h"
#include "run/supervisor.h"
#include "run/teardown_triage.h"
#include "devices/vulkan_probe.h"
#include "devices/device_personality.h"
#include "spec/xfail.h"

namespace harness {

Availability check_availability(const std::set<std::string> &runtimes) {
    Availability a;
    // The probes' children at once: each starts a driver (~0.1-0.5 s).
    if (runtimes.count("opencl")) start_probe_opencl();
    if (runtimes.count("cuda")) start_probe_cuda();
    if (runtimes.count("vulkan")) start_probe_vulkan();
    const nlohmann::json opencl = runtimes.count("opencl") ? probe_opencl() : nlohmann::json();
    const nlohmann::json cuda = runtimes.count("cuda") ? probe_cuda() : nlohmann::json();
    for (const auto &p : profiles()) {
        if (p.runtime != "none" && !runtimes.count(p.runtime)) {
            a.reason[p.name] = "not probed: no " + p.runtime + " profile was selected";
            continue;
        }
        nlohmann::json sel;
        a.reason[p.name] = runtime_unavailable_reason(p.runtime, opencl, cuda, &sel);
        if (!sel.is_null()) a.selected[p.name] = sel;
    }
    return a;
}

std::set<std::string> runtimes_of(const std::vector<RunTask> &tasks) {
    std::set<std::string> runtimes;
    for (const auto &t : tasks) {
        const std::string &r = find_profile(t.profile).runtime;
        if (r != "none") runtimes.insert(r);
    }
    return runtimes;
}

std::string pipeline_unavailable_reason(const Availability &a, const PipelineSpec &spec, const std::string &profile,
                                        const std::string &personality) {
    const std::string &why = a.reason.at(profile);
    if (!why.empty()) return why;
    if (!a.selected.contains(profile)) return "";
    if (find_profile(profile).runtime == "vulkan") {
        return missing_vulkan_features_reason(Registry::instance().find(spec.name, profile)->metadata->target,
                                              a.selected.at(profile));
    }
    if (find_profile(profile).runtime != "opencl") return "";
    if (personality.empty()) return missing_extensions_reason(spec.required_extensions, a.selected[profile]);
    const DevicePersonality &p = find_device_personality(personality);
    const std::string driver = a.selected[profile].value("extensions", std::string());
    for (const auto &ext : spec.required_extensions) {
        if (ext == "cl_khr_fp64" && !p.fp64) {
            return p.label() + " lacks cl_khr_fp64, which this pipeline needs (as on the device)";
        }
        if (ext == "cl_khr_fp16" && p.fp16 && (" " + driver + " ").find(" cl_khr_fp16 ") == std::string::npos) {
            return "fp16 (cl_khr_fp16) not available on this driver, which " + p.label() +
                   " has: cannot be emulated here";
        }
    }
    return missing_extensions_reason(spec.required_extensions, a.selected[profile]);
}

namespace {

bool is_glob(const std::string &p) {
    return p.find_first_of("*?[") != std::string::npos;
}

}  // namespace

std::vector<std::string> select_pipelines(const std::string &filter) {
    const Registry &reg = Registry::instance();
    const NameFilter pipe_filter("--pipeline", filter);
    for (const auto &p : pipe_filter.patterns()) {
        if (!is_glob(p)) reg.spec(p);  // a plain name: the registry's error, listing the pipelines
    }
    std::vector<std::string> pipes = reg.pipelines();
    pipe_filter.check_each_matches(pipes, "pipeline");
    pipes.erase(
        std::remove_if(pipes.begin(), pipes.end(), [&](const std::string &p) { return !pipe_filter.matches(p); }),
        pipes.end());
    return pipes;
}

std::vector<RunTask> plan_runs(const RunOptions &opts) {
    const Registry &reg = Registry::instance();
    // Comma-separated names and globs; each must match something (a typo is an error, not an empty run).
    const NameFilter prof_filter("--profile", opts.profile), case_filter("--case", opts.case_name);
    const std::vector<std::string> pipes = select_pipelines(opts.pipeline);
    for (const auto &p : prof_filter.patterns()) {
        if (!is_glob(p)) find_profile(p);
    }
    std::vector<std::string> profile_names, case_names;
    for (const auto &p : profiles())
        profile_names.push_back(p.name);
    prof_filter.check_each_matches(profile_names, "profile");
    for (const auto &p : pipes) {
        for (const auto &c : reg.spec(p).cases) {
            if (std::find(case_names.begin(), case_names.end(), c.name) == case_names.end())
                case_names.push_back(c.name);
        }
    }
    for (const auto &c : case_filter.patterns()) {
        if (!is_glob(c) && std::find(case_names.begin(), case_names.end(), c) == case_names.end()) {
            reg.spec(pipes.at(0)).find_case(c);  // throws listing the known cases
        }
    }
    case_filter.check_each_matches(case_names, "case of the selected pipelines");
    std::vector<RunTask> tasks;
    for (const auto &p : pipes) {
        for (const auto &prof : reg.profiles_of(p)) {
            if (!prof_filter.matches(prof)) continue;
            for (const auto &c : reg.spec(p).cases) {
                if (!case_filter.matches(c.name)) continue;
                for (const auto &mode : opts.modes)
                    tasks.push_back({p, prof, c.name, mode});
            }
        }
    }
    if (tasks.empty()) throw Error("no pipeline x profile x case matches the filters; see aot-harness list");
    if (!opts.device.empty() && opts.device != "none") {
        bool emulated = false;
        for (const auto &t : tasks)
            emulated |= !personality_of(opts.device, t.profile).empty();
        if (!emulated) {
            throw Error("--device " + opts.device +
                        " applies to OpenCL and Vulkan profiles, and none is selected; add one to --profile");
        }
    }
    if (opts.shard) {  // every mode of a test goes with the test
        const Shard &shard = *opts.shard;
        std::vector<RunTask> mine;
        for (const auto &t : tasks) {
            if (in_shard(t.pipeline + "/" + t.profile + "/" + t.case_name, shard)) mine.push_back(t);
        }
        tasks.swap(mine);
    }
    return tasks;
}

MatrixContext make_context(const RunOptions &opts, const std::vector<RunTask> &tasks) {
    MatrixContext ctx;
    ctx.opts = opts;
    ctx.golden_dir = opts.golden_dir.empty() ? default_golden_dir() : opts.golden_dir;
    check_golden_dir(ctx.golden_dir);
    if (!opts.artifacts.empty()) {
        // Absolute, so that the report (elsewhere) can show the pictures.
        if (const int e = make_dirs(opts.artifacts)) {
            throw Error("cannot create --artifacts " + opts.artifacts + ": " + std::strerror(e) +
                        "; choose a writable directory");
        }
        char resolved[PATH_MAX];
        ctx.artifacts = realpath(opts.artifacts.c_str(), resolved) ? resolved : opts.artifacts;
    }
    ctx.xfail =
        opts.xfail.empty() ? XfailList::load(ctx.golden_dir + "/xfail.json") : XfailList::load(opts.xfail, true);
    ctx.baseline = Baseline::load(opts.baseline);
    ctx.jobs = opts.jobs > 0 ? opts.jobs : default_jobs();
    ctx.exe = self_exe_path();
    if (ctx.exe.empty()) throw Error("cannot resolve /proc/self/exe; run aot-harness on Linux with /proc mounted");
    ctx.runtimes = runtimes_of(tasks);
    ctx.avail = check_availability(ctx.runtimes);
    check_expected_devices(ctx.avail, tasks, opts.expect_device, opts.expect_driver);
    ctx.tmp_dir = std::make_shared<TempDir>("aot-harness");
    ctx.tmp = ctx.tmp_dir->path();
    // Derived specs settled their cases while planning (GPU variants' bounds queries in a forked child); the
    // children read those shapes from the run's cache (or ctest's, already shared) instead of forking again.
    ctx.shape_cache = shape_cache_dir();
    if (ctx.shape_cache.empty()) {
        ctx.shape_cache = ctx.tmp + "/shapes";
        make_dirs(ctx.shape_cache);
        save_settled_shapes(ctx.shape_cache);
        set_shape_cache_dir(ctx.shape_cache);
    }
    return ctx;
}

void release_context(const MatrixContext &ctx) {
    if (ctx.tmp_dir) ctx.tmp_dir->remove();
}

bool resolve_without_child(const MatrixContext &ctx, const RunTask &t, RunRecord *r) {
    const Registry &reg = Registry::instance();
    *r = RunRecord();
    r->pipeline = t.pipeline;
    r->profile = t.profile;
    r->case_name = t.case_name;
    r->mode = t.mode;
    const Variant *variant = reg.find(t.pipeline, t.profile);
    r->target = variant->metadata->target;
    if (!variant->compile_error.empty()) {
        // A build-time failure is an ERROR wherever it is run, device or not.
        r->outcome = Outcome::Error;
        r->message = compile_error_message(*variant);
        r->metrics["deterministic"] = true;  // a rebuild, not a retry, can change it
        return true;
    }
    std::string why = pipeline_unavailable_reason(ctx.avail, reg.spec(t.pipeline), t.profile,
                                                  personality_of(ctx.opts.device, t.profile));
    if (why.empty())
        why = buffer_mode_unavailable_reason(buffer_mode_from_name(t.mode), find_profile(t.profile).runtime);
    if (!why.empty()) {
        r->outcome = Outcome::Skip;
        r->message = why;
        return true;
    }
    return false;
}

namespace {

// The runs of one task from its first record: xfail, flake re-runs, baseline applied, and its cpu fallback, if any.
std::vector<RunRecord> task_records(const MatrixContext &ctx, const RunTask &t, int slot, RunRecord r) {
    const nlohmann::json device = ctx.avail.selected.value(t.profile, nlohmann::json());
    const auto once = [&]() {
        RunRecord again = run_task(ctx, t, slot);
        ctx.xfail.apply(again, device);
        return again;
    };
    const Outcome first = r.outcome;  // before xfail.json: a GPU run that did not PASS gets its fallback
    ctx.xfail.apply(r, device);
    if (!ctx.baseline.expects(r)) r = settle_flakes(r, ctx.opts.flake_retries, once);
    ctx.baseline.apply(r);
    std::vector<RunRecord> out{r};
    if (!ctx.opts.fallback.empty() && find_profile(t.profile).is_gpu() && first != Outcome::Pass &&
        r.outcome != Outcome::Flake) {
        RunRecord fb = run_task(ctx, {t.pipeline, "cpu", t.case_name, "host"}, slot);
        fb.fallback_for = t.profile;
        fb.message = "cpu fallback for " + t.profile + ": " + fb.message;
        out.push_back(fb);
    }
    return out;
}

}  // namespace

std::vector<RunRecord> run_matrix(const MatrixContext &ctx, const std::vector<RunTask> &tasks,
                                  const std::function<void(const RunRecord &, const MatrixProgress &)> &on_record) {
    // GPU profiles: --gpu-jobs at once per device (the runtime and the device the profile selected);
    // CPU profiles share every job.
    const int gpu_jobs = ctx.opts.gpu_jobs > 0 ? ctx.opts.gpu_jobs : default_gpu_jobs(ctx.jobs);
    std::vector<ParallelTask> groups;
    for (const auto &t : tasks) {
        const Profile &p = find_profile(t.profile);
        if (p.is_gpu()) {
            // A personality's runs share no child with another's (a child emulates one device).
            const std::string personality = personality_of(ctx.opts.device, t.profile);
            groups.push_back({p.runtime + ":" + ctx.avail.selected.value(t.profile, nlohmann::json()).dump() +
                                  (personality.empty() ? "" : "@" + personality),
                              gpu_jobs});
        } else {
            groups.push_back({"cpu", ctx.jobs});
        }
    }
    log_matrix_start(tasks.size(), ctx.jobs, gpu_jobs);
    BatchPolicy policy(ctx, tasks, groups);
    std::vector<std::vector<RunRecord>> done(tasks.size());
    std::mutex m;
    MatrixProgress progress;
    progress.total = tasks.size();
    const auto start = std::chrono::steady_clock::now();
    run_chunked(
        groups, ctx.jobs, policy.order(),
        [&](const std::string &group, const std::deque<size_t> &pending) { return policy.chunk(group, pending); },
        [&](const std::vector<size_t> &chunk, int slot) {
            std::vector<RunTask> mine;
            for (size_t i : chunk)
                mine.push_back(tasks[i]);
            const std::vector<RunRecord> firsts = policy.first_records(groups[chunk[0]].group, mine, slot);
            for (size_t j = 0; j < chunk.size(); j++) {
                std::vector<RunRecord> records = task_records(ctx, mine[j], slot, firsts[j]);
                const std::lock_guard<std::mutex> lock(m);
                progress.done++;
                progress.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                if (on_record) {
                    for (const auto &r : records)
                        on_record(r, progress);
                }
                done[chunk[j]] = std::move(records);
            }
        });
    std::vector<RunRecord> records;
    for (auto &d : done) {
        for (auto &r : d)
            records.push_back(std::move(r));
    }
    // The verdict of a case whose cpu variant turned out non-deterministic changes after its other runs
    // were reported: report them again.
    for (size_t i : mark_nondeterministic_cases(records)) {
        if (on_record) on_record(records[i], progress);
    }
    return records;
}

}  // namespace harness
