// aot-harness: the command table (harness/cli_options.h) dispatched to its handlers.
#include "harness/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>

#include "cli/cli_commands.h"
#include "run/bless.h"
#include "variant/buffers.h"
#include "run/teardown_triage.h"
#include "cli/cli_options.h"
#include "report/environment.h"
#include "base/error.h"
#include "base/files.h"
#include "base/json_stdout.h"
#include "golden/golden.h"
#include "golden/golden_transaction.h"
#include "report/junit.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "spec/shape_query.h"
#include "report/report.h"
#include "report/results.h"
#include "matrix/executor.h"
#include "run/interrupt.h"
#include "matrix/run_matrix.h"
#include "run/child_protocol.h"
#include "run/runner.h"
#include "devices/runtime_hooks.h"
#include "devices/device_personality.h"
#include "base/version.h"

namespace harness {

namespace {

// Checks up front that `path` can be written (so a long run does not end in a lost result).
void check_writable(const std::string &path, const char *what) {
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    int err = make_dirs(dir);
    if (err == 0 && access(dir.c_str(), W_OK) != 0) err = errno;
    if (err != 0) {
        throw Error(std::string("cannot write ") + what + " " + path + ": " + std::strerror(err) +
                    "; choose a writable path");
    }
}

std::string golden_dir_of(const Args &args) {
    const std::string dir = args.get("golden-dir", default_golden_dir());
    check_golden_dir(dir);
    return dir;
}

// Under ctest (cmake/HarnessWriteCaseTests.cmake's guard): marks that this run tested something, or that it
// was skipped and why, in the directory AOT_HARNESS_CTEST_GUARD names, one file per process, so that the
// invocation's last test can fail when every harness test was a skip. Best effort: a marker that cannot be
// written only weakens that check, it never changes this run's outcome.
void mark_for_ctest_guard(const std::vector<RunRecord> &runs, int code) {
    const char *dir = std::getenv("AOT_HARNESS_CTEST_GUARD");
    if (!dir || !*dir) return;
    const bool skipped = code == outcome_exit_code(Outcome::Skip);
    std::string why;  // a skipped run's marker holds one skip's reason
    if (skipped) {
        const auto skip =
            std::find_if(runs.begin(), runs.end(), [](const RunRecord &r) { return r.outcome == Outcome::Skip; });
        why = (skip == runs.end() ? std::string("no run") : skip->id() + ": " + skip->message) + "\n";
    }
    const std::string path = std::string(dir) + "/" + std::to_string(getpid()) + (skipped ? ".skipped" : ".ran");
    try {
        if (make_dirs(dir) == 0) write_file_atomic(path, why);
    } catch (const std::exception &) {}
}

int cmd_run(const Args &args) {
    const RunOptions opts = run_options(args);
    const std::vector<RunTask> tasks = plan_runs(opts);
    const bool json_stdout = opts.json == "-";
    FILE *console = json_stdout ? stderr : stdout;  // with --json -, stdout holds only the JSON
    if (!opts.json.empty() && !json_stdout) check_writable(opts.json, "the results file");
    if (!opts.junit.empty()) check_writable(opts.junit, "the JUnit file");
    const std::string started = utc_now("%Y-%m-%dT%H:%M:%S+00:00");  // ISO 8601 UTC
    if (!opts.baseline_out.empty()) check_writable(opts.baseline_out, "the baseline");
    install_interrupt_cleanup();  // Ctrl-C kills the running children's process groups, removes the temp dir
    const MatrixContext ctx = make_context(opts, tasks);
    RunResults results;
    results.runs = run_matrix(ctx, tasks, [console](const RunRecord &r, const MatrixProgress &p) {
        std::fprintf(
            console, "%s %-14s %-50s %8.1f ms  %s\n", progress_prefix(p.done, p.total, p.elapsed_s).c_str(),
            outcome_name(r.outcome),
            (r.id() + (r.mode == "host" ? "" : "/" + r.mode) + (r.fallback_for.empty() ? "" : " (fallback)")).c_str(),
            r.duration_ms, r.message.c_str());
        std::fflush(console);
    });
    release_context(ctx);
    const RunSummary summary = results.summary();
    const int code = run_exit_code(results.runs, opts.strict_xfail);
    std::fprintf(console, "%d runs: %s; worst %s (exit %d)\n", summary.total, summary.counts_text().c_str(),
                 summary.worst.c_str(), code);
    mark_for_ctest_guard(results.runs, code);
    // ctest runs every buffer mode of a GPU profile; say when this run did fewer.
    bool gpu = false;
    for (const auto &t : tasks)
        gpu |= find_profile(t.profile).runtime != "none";
    if (gpu && opts.modes.size() < all_buffer_modes().size()) {
        std::string left;
        for (BufferMode m : all_buffer_modes()) {
            if (std::find(opts.modes.begin(), opts.modes.end(), buffer_mode_name(m)) == opts.modes.end())
                left += std::string(left.empty() ? "" : ", ") + buffer_mode_name(m);
        }
        std::fprintf(console, "modes: left out %s (ctest runs them for GPU profiles; --mode all runs them here)\n",
                     left.c_str());
    }
    if (!opts.repro_bundles.empty()) attach_repro_bundles(results.runs, opts.repro_bundles, ctx.golden_dir);
    results.environment = environment_info(ctx.runtimes);
    results.environment["started"] = started;  // when the run began (history ingest dates the run by it)
    if (opts.shard) results.environment["shard"] = opts.shard->text();  // scripts/merge checks the set
    if (!opts.baseline_out.empty()) {
        write_file_atomic(opts.baseline_out, Baseline::from_records(results.runs).to_json());
        std::fprintf(console, "baseline: %s\n", opts.baseline_out.c_str());
    }
    // Goldens whose generator changed since they were blessed: the provenance a user reads is stale.
    try {
        results.environment["stale_golden_provenance"] =
            stale_generator_provenance(Manifest::load(ctx.golden_dir, true));
    } catch (const Error &e) {
        results.environment["stale_golden_provenance"] = {e.what()};
    }
    for (const auto &line : results.environment["stale_golden_provenance"]) {
        std::fprintf(console, "note: %s\n", line.get<std::string>().c_str());
    }
    if (json_stdout) {
        write_json_stdout(results.to_json().dump(2) + "\n");
    } else if (!opts.json.empty()) {
        write_file_atomic(opts.json, results.to_json().dump(2) + "\n");
        std::printf("results: %s\n", opts.json.c_str());
    }
    if (!opts.junit.empty()) {
        write_file_atomic(opts.junit, junit_xml(results.to_json()));
        std::fprintf(console, "junit:   %s\n", opts.junit.c_str());
    }
    if (!opts.report.empty()) {
        write_html_report(results, opts.report);
        std::fprintf(console, "report: %s/index.html\n", opts.report.c_str());
    }
    return code;
}

// The child side of `run` (run/child_protocol.h): its cases in order, each announced by a start marker
// (a batch: PREFIX.<i>.start, the output's byte offset) and recorded before the next; then the device
// runtime released (unless --no-device-release) as a careful application does (device_release.h). A batch
// stops after a case that does not PASS, which `run` re-runs alone, unless it is the first: the first case
// runs in a fresh process as a lone child's does, so its record is its verdict and the batch goes on.
int cmd_child(const Args &args) {
    install_halide_error_handler();
    const ChildCall call = read_child_call(args);
    if (!call.device.empty()) activate_device_personality(&find_device_personality(call.device));
    const std::string golden_dir = golden_dir_of(args);
    std::vector<std::pair<RunRecord, std::string>> recorded;  // each record and its file
    for (size_t i = 0; i < call.cases.size(); i++) {
        RunRequest req = call.cases[i];
        req.golden_dir = golden_dir;
        std::fflush(stdout);
        std::fflush(stderr);
        if (call.batch) {
            const off_t offset = lseek(STDERR_FILENO, 0, SEEK_CUR);
            write_file_atomic(batch_start_file(call.record, i), std::to_string(offset < 0 ? 0 : offset));
        }
        RunRecord r = run_case(req);
        std::fflush(stdout);
        std::fflush(stderr);
        const std::string file = call.batch ? batch_record_file(call.record, i) : call.record;
        write_file_atomic(file, r.to_json().dump() + "\n");
        recorded.emplace_back(r, file);
        if (!call.batch) {
            release_after_record(r, file, call.release_device);
            return outcome_exit_code(r.outcome);
        }
        if (r.outcome != Outcome::Pass && i > 0) break;
    }
    release_after_records(recorded, call.release_device);  // a batch's cases share one device group: one release
    return 0;
}

int cmd_bless(const Args &args) {
    const Registry &reg = Registry::instance();
    const std::vector<std::string> pipes = args.has("all") ? reg.pipelines() : select_pipelines(args.get("pipeline"));
    const bool platform_hash = args.has("platform-hash");
    const BlessResult r = bless(golden_dir_of(args), pipes, args.get("case"), args.number("wait"), platform_hash);
    if (platform_hash && r.written.empty() && r.failed.empty()) {
        std::fprintf(stderr, "aot-harness: error: bless --platform-hash: the selected cases have no unstored (nightly) "
                             "goldens; select nightly cases (aot-harness list shows them)\n");
        return 2;
    }
    for (const auto &line : r.written)
        std::printf("blessed %s\n", line.c_str());
    for (const auto &line : r.failed)
        std::fprintf(stderr, "aot-harness: not blessed: %s\n", line.c_str());
    if (!r.failed.empty()) {
        std::fprintf(stderr, "aot-harness: error: %zu case(s) could not be blessed (above); %zu golden(s) written\n",
                     r.failed.size(), r.written.size());
        return 2;
    }
    return 0;
}

int cmd_golden(const Args &args) {
    const std::string dir = golden_dir_of(args);
    if (args.positional()[0] == "recover") {
        const std::string what = recover_goldens(dir);
        std::printf("%s\n", what.empty() ? ("nothing to recover in " + dir).c_str() : what.c_str());
        return 0;
    }
    const Manifest manifest = Manifest::load(dir, true);  // an unreadable manifest is bad input: exit 2
    auto problems = verify_goldens(dir);
    for (const auto &line : stale_generator_provenance(manifest))
        problems.push_back(line);
    for (const auto &p : problems)
        std::printf("%s\n", p.c_str());
    if (const std::string note = interrupted_bless_note(dir); !note.empty() && golden_lock_holder(dir) == 0) {
        std::printf("%s\n", note.c_str());
    }
    const size_t n = manifest.entries().size();
    std::printf("%zu goldens in %s: %s\n", n, dir.c_str(),
                problems.empty() ? "all match the manifest" : "PROBLEMS above");
    return problems.empty() ? 0 : 1;
}

int cmd_report(const Args &args) {
    write_html_report(RunResults::load(args.get("results")), args.get("out"));
    std::printf("report: %s/index.html\n", args.get("out").c_str());
    return 0;
}

int cmd_outcomes(const Args &args) {
    if (args.has("json")) {
        write_json_stdout(outcome_table_json().dump(2) + "\n");
        return 0;
    }
    std::printf("%-15s %-5s %-8s %s\n", "outcome", "exit", "colour", "meaning (least severe first)");
    for (const auto &o : outcome_table())
        std::printf("%-15s %-5d %-8s %s\n", o.name, o.exit_code, o.colour, o.description);
    return 0;
}

using Handler = int (*)(const Args &);

// The handler of each command of the table; cli_main checks that every command has one.
const std::map<std::string, Handler> &handlers() {
    static const std::map<std::string, Handler> h{
        {"list", cmd_list},       {"describe", cmd_describe}, {"env", cmd_env},     {"run", cmd_run},
        {"__run-one", cmd_child}, {"__run-batch", cmd_child}, {"bless", cmd_bless}, {"golden", cmd_golden},
        {"report", cmd_report},   {"outcomes", cmd_outcomes}, {"repro", cmd_repro}, {"bisect", cmd_bisect},
        {"machine", cmd_machine}};
    return h;
}

// A command whose stdout is one JSON document: a `--json` flag (list, describe, env, outcomes) or
// `--json -` (run). Its stdout is reserved for that document before anything can print.
bool prints_json(const CommandSpec &command, const Args &args) {
    for (const auto &o : command.options) {
        if (o.name == "json" && args.has("json")) return o.value.empty() || args.get("json") == "-";
    }
    return false;
}

bool wants_help(const std::vector<std::string> &args) {
    for (const auto &a : args) {
        if (a == "--help" || a == "-h") return true;
    }
    return false;
}

}  // namespace

void start_up(const CommandSpec &command, const Args *args) {
    if (command.name == "outcomes") return;  // a table: no pipeline
    // A child of run reads its parent's settled shapes before deriving a spec would settle them again.
    if (args && args->has("shape-cache") && command.hidden) set_shape_cache_dir(args->get("shape-cache"));
    for (const auto &p : profiles()) {  // validate the embedded profiles.json, and the devices it names
        if (!p.device.empty()) find_device_personality(p.device);
    }
    Registry::instance().validate();
    Registry::instance().set_case_trial(try_case_on_cpu);
}

bool cli_has_handler(const std::string &command) {
    return handlers().count(command) > 0 || run_passthrough_exists(command);
}

int cli_main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(usage_text().c_str(), args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "version") {
        std::fputs(version_text().c_str(), stdout);
        return 0;
    }
    const std::string name = args[0];
    args.erase(args.begin());
    try {
        const CommandSpec &command = find_command(name);
        if (command.passthrough) return run_passthrough(command, args);  // cli_tools.cpp
        if (!command.hidden && wants_help(args)) {
            std::fputs(help_text(command).c_str(), stdout);
            return 0;
        }
        const auto handler = handlers().find(name);
        if (handler == handlers().end())
            throw Error("internal error: command '" + name + "' has no handler; fix cli.cpp");
        const Args parsed = parse_command_args(name, args);
        if (prints_json(command, parsed)) reserve_stdout_for_json();
        start_up(command, &parsed);
        return handler->second(parsed);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "aot-harness: error: %s\n", e.what());
        return 2;
    }
}

}  // namespace harness
