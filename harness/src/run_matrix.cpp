// The run matrix (run_matrix.h).
#include "harness/run_matrix.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "harness/buffers.h"
#include "harness/error.h"
#include "harness/files.h"
#include "harness/golden.h"
#include "harness/opencl_info.h"
#include "harness/profile.h"
#include "harness/registry.h"
#include "harness/supervisor.h"
#include "harness/vulkan_info.h"
#include "harness/xfail.h"

namespace harness {

namespace {

// `name` looked up in $PATH (execv does not search); throws Error if it is not there.
std::string find_in_path(const std::string &name) {
    const char *path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/bin:/bin");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const std::string candidate = dir + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    throw Error("HARNESS_EXEC_WRAPPER names '" + name + "', which is not in PATH; install it or give its full path");
}

// Cross builds under user-mode emulation: the child must be started through the emulator too
// (e.g. HARNESS_EXEC_WRAPPER="qemu-aarch64 -L /usr/aarch64-linux-gnu").
std::vector<std::string> exec_wrapper() {
    std::vector<std::string> prefix;
    if (const char *wrapper = std::getenv("HARNESS_EXEC_WRAPPER"); wrapper && *wrapper) {
        std::istringstream words(wrapper);
        for (std::string w; words >> w;) prefix.push_back(w);
        if (!prefix.empty() && prefix[0].find('/') == std::string::npos) prefix[0] = find_in_path(prefix[0]);
    }
    return prefix;
}

}  // namespace

Availability check_availability() {
    Availability a;
    const nlohmann::json opencl = probe_opencl(), cuda = probe_cuda();
    for (const auto &p : profiles()) {
        nlohmann::json sel;
        a.reason[p.name] = runtime_unavailable_reason(p.runtime, opencl, cuda, &sel);
        if (!sel.is_null()) a.selected[p.name] = sel;
    }
    return a;
}

std::string pipeline_unavailable_reason(const Availability &a, const PipelineSpec &spec, const std::string &profile) {
    const std::string &why = a.reason.at(profile);
    if (!why.empty()) return why;
    if (!a.selected.contains(profile)) return "";
    if (find_profile(profile).runtime == "vulkan") {
        return missing_vulkan_features_reason(Registry::instance().find(spec.name, profile)->metadata->target,
                                              a.selected.at(profile));
    }
    if (find_profile(profile).runtime != "opencl") return "";
    return missing_extensions_reason(spec.required_extensions, a.selected[profile]);
}

std::vector<RunTask> plan_runs(const RunOptions &opts) {
    const Registry &reg = Registry::instance();
    std::vector<std::string> pipes = reg.pipelines();
    if (!opts.pipeline.empty()) pipes = {reg.spec(opts.pipeline).name};
    if (!opts.profile.empty()) find_profile(opts.profile);
    if (!opts.case_name.empty()) {
        bool any = false;
        for (const auto &p : pipes) {
            for (const auto &c : reg.spec(p).cases) any |= c.name == opts.case_name;
        }
        if (!any) reg.spec(pipes.at(0)).find_case(opts.case_name);  // throws listing known cases
    }
    std::vector<RunTask> tasks;
    for (const auto &p : pipes) {
        for (const auto &prof : reg.profiles_of(p)) {
            if (!opts.profile.empty() && prof != opts.profile) continue;
            for (const auto &c : reg.spec(p).cases) {
                if (!opts.case_name.empty() && c.name != opts.case_name) continue;
                for (const auto &mode : opts.modes) tasks.push_back({p, prof, c.name, mode});
            }
        }
    }
    if (tasks.empty()) throw Error("no pipeline x profile x case matches the filters; see aot-harness list");
    return tasks;
}

MatrixContext make_context(const RunOptions &opts) {
    MatrixContext ctx;
    ctx.opts = opts;
    ctx.golden_dir = opts.golden_dir.empty() ? default_golden_dir() : opts.golden_dir;
    if (!opts.artifacts.empty()) {
        // Absolute, so that the report (elsewhere) can show the pictures.
        if (const int e = make_dirs(opts.artifacts)) {
            throw Error("cannot create --artifacts " + opts.artifacts + ": " + std::strerror(e) +
                        "; choose a writable directory");
        }
        char resolved[PATH_MAX];
        ctx.artifacts = realpath(opts.artifacts.c_str(), resolved) ? resolved : opts.artifacts;
    }
    ctx.xfail = XfailList::load(opts.xfail.empty() ? ctx.golden_dir + "/xfail.json" : opts.xfail);
    ctx.exe = self_exe_path();
    if (ctx.exe.empty()) throw Error("cannot resolve /proc/self/exe; run aot-harness on Linux with /proc mounted");
    ctx.avail = check_availability();
    char tmpl[] = "/tmp/aot-harness.XXXXXX";
    const char *tmp = mkdtemp(tmpl);
    if (!tmp) throw Error("cannot create a temporary directory under /tmp; free space or set TMPDIR");
    ctx.tmp = tmp;
    return ctx;
}

void release_context(const MatrixContext &ctx) {
    unlink((ctx.tmp + "/record.json").c_str());
    unlink((ctx.tmp + "/stderr.txt").c_str());
    rmdir(ctx.tmp.c_str());
}

RunRecord run_task(const MatrixContext &ctx, const RunTask &t) {
    const Registry &reg = Registry::instance();
    RunRecord id;
    id.pipeline = t.pipeline;
    id.profile = t.profile;
    id.case_name = t.case_name;
    id.mode = t.mode;
    const Variant *variant = reg.find(t.pipeline, t.profile);
    id.target = variant->metadata->target;
    RunRecord r = id;
    if (!variant->compile_error.empty()) {
        // A build-time failure is an ERROR wherever it is run, device or not.
        r.outcome = Outcome::Error;
        r.message = compile_error_message(*variant);
        return r;
    }
    std::string why = pipeline_unavailable_reason(ctx.avail, reg.spec(t.pipeline), t.profile);
    if (why.empty()) why = buffer_mode_unavailable_reason(buffer_mode_from_name(t.mode), find_profile(t.profile).runtime);
    if (!why.empty()) {
        r.outcome = Outcome::Skip;
        r.message = why;
        return r;
    }
    ChildCommand cmd;
    cmd.argv = exec_wrapper();
    for (const std::string &w : {ctx.exe, std::string("__run-one"), std::string("--pipeline"), t.pipeline,
                                 std::string("--profile"), t.profile, std::string("--case"), t.case_name,
                                 std::string("--mode"), t.mode, std::string("--golden-dir"), ctx.golden_dir,
                                 std::string("--repeats"), std::to_string(ctx.opts.repeats), std::string("--record"),
                                 ctx.tmp + "/record.json"}) {
        cmd.argv.push_back(w);
    }
    if (!ctx.artifacts.empty()) {
        cmd.argv.push_back("--artifacts");
        cmd.argv.push_back(ctx.artifacts);
    }
    cmd.timeout_s = ctx.opts.timeout;
    cmd.record_path = ctx.tmp + "/record.json";
    cmd.stderr_path = ctx.tmp + "/stderr.txt";
    cmd.fail_on_output = ctx.opts.fail_on_output;
    r = supervise(id, cmd);
    if (ctx.avail.selected.contains(t.profile)) r.metrics["device"] = ctx.avail.selected[t.profile];
    return r;
}

std::vector<RunRecord> run_matrix(const MatrixContext &ctx, const std::vector<RunTask> &tasks,
                                  const std::function<void(const RunRecord &)> &on_record) {
    std::vector<RunRecord> records;
    auto add = [&](RunRecord r) {
        if (r.fallback_for.empty()) ctx.xfail.apply(r, ctx.avail.selected.value(r.profile, nlohmann::json()));
        if (on_record) on_record(r);
        records.push_back(std::move(r));
    };
    for (const auto &t : tasks) {
        const RunRecord r = run_task(ctx, t);
        const Outcome before_xfail = r.outcome;
        add(r);
        if (!ctx.opts.fallback.empty() && find_profile(t.profile).is_gpu() && before_xfail != Outcome::Pass) {
            RunRecord fb = run_task(ctx, {t.pipeline, "cpu", t.case_name, "host"});
            fb.fallback_for = t.profile;
            fb.message = "cpu fallback for " + t.profile + ": " + fb.message;
            add(fb);
        }
    }
    return records;
}

}  // namespace harness
