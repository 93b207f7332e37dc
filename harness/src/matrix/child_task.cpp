// A task's child (run_matrix.h): its protocol call (run/child_protocol.h), its command line under
// $HARNESS_EXEC_WRAPPER, and run_task, which supervises it alone.
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "base/error.h"
#include "base/profile.h"
#include "matrix/device_choice.h"
#include "matrix/run_batch.h"
#include "matrix/run_matrix.h"
#include "run/supervisor.h"
#include "run/teardown_triage.h"

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
        for (std::string w; words >> w;)
            prefix.push_back(w);
        if (!prefix.empty() && prefix[0].find('/') == std::string::npos) prefix[0] = find_in_path(prefix[0]);
    }
    return prefix;
}

std::string slot_file(const MatrixContext &ctx, const char *name, int slot) {
    return ctx.tmp + "/" + name + "-" + std::to_string(slot) + (name[0] == 'r' ? ".json" : ".txt");
}

}  // namespace

ChildCall child_call(const MatrixContext &ctx, const std::vector<RunTask> &tasks, const std::string &record,
                     const std::string &tasks_file) {
    ChildCall call;
    call.batch = tasks.size() > 1;
    for (const RunTask &t : tasks) {
        RunRequest r;
        r.pipeline = t.pipeline;
        r.profile = t.profile;
        r.case_name = t.case_name;
        r.mode = t.mode;
        r.golden_dir = ctx.golden_dir;
        r.artifacts_dir = ctx.artifacts;
        r.repeats = ctx.opts.repeats;
        call.cases.push_back(r);
    }
    call.record = record;
    call.tasks_file = tasks_file;
    call.device = personality_of(ctx.opts.device, tasks.at(0).profile);  // a batch is one device group
    call.shape_cache = ctx.shape_cache;
    call.release_device = !ctx.opts.no_device_release;
    return call;
}

std::vector<std::string> child_argv(const MatrixContext &ctx, const ChildCall &call) {
    std::vector<std::string> argv = exec_wrapper();
    argv.push_back(ctx.exe);
    for (const auto &w : child_words(call))
        argv.push_back(w);
    return argv;
}

void add_device(const MatrixContext &ctx, RunRecord *r) {
    if (ctx.avail.selected.contains(r->profile)) r->metrics["device"] = ctx.avail.selected[r->profile];
    if (const std::string p = personality_of(ctx.opts.device, r->profile); !p.empty()) {
        r->metrics["device_personality"] = personality_record(p, find_profile(r->profile).runtime,
                                                              ctx.avail.selected.value(r->profile, nlohmann::json()));
    }
}

RunRecord run_task(const MatrixContext &ctx, const RunTask &t, int slot) {
    RunRecord id;
    if (resolve_without_child(ctx, t, &id)) return id;
    ChildCall call = child_call(ctx, {t}, slot_file(ctx, "record", slot));
    ChildCommand cmd;
    cmd.argv = child_argv(ctx, call);
    cmd.timeout_s = ctx.opts.timeout;
    cmd.record_path = slot_file(ctx, "record", slot);
    cmd.stderr_path = slot_file(ctx, "stderr", slot);
    cmd.fail_on_output = ctx.opts.fail_on_output;
    ChildCommand released = cmd;  // the teardown triage's re-run releases the device before exit
    call.release_device = true;
    released.argv = child_argv(ctx, call);
    const double t0 = wall_seconds();
    RunRecord r =
        triage_teardown(supervise(id, cmd), find_profile(t.profile).runtime, [&] { return supervise(id, released); });
    log_child(t, nullptr, 1, "alone", 1, t0, wall_seconds());
    add_device(ctx, &r);
    return r;
}

}  // namespace harness
