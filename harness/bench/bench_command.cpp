// `aot-harness bench`, the parent side (bench_command.h): plans the benchmarks, runs each profile's in
// a supervised child (`__bench-one`, its output shown as it comes), classifies the child as `run`
// does, and merges the children's Google Benchmark JSON into one file of Google's schema.
//
// A driver that crashes at exit cannot lose results or fail a finished run: the child writes and
// closes its JSON, then its record, then exits; a crash after the record is a TEARDOWN_FAULT whose
// results are complete and kept, and it does not change the exit code (a note says what happened).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "bench_command.h"
#include "bench_plan.h"
#include "harness/bench.h"
#include "harness/cli.h"
#include "cli/cli_options.h"
#include "base/error.h"
#include "base/files.h"
#include "base/json_reader.h"
#include "base/temp_dir.h"
#include "run/interrupt.h"
#include "devices/machine_state.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "matrix/run_matrix.h"
#include "run/supervisor.h"
#include "bench/func_times.h"
#include "bench/kernel_times.h"

namespace harness::perf {

namespace {

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// Copies what the child appends to `path` to stdout until `done` (the child's output, live).
void follow(const std::string &path, const std::atomic<bool> &done) {
    std::ifstream f;
    std::streamoff at = 0;
    char buf[8192];
    for (bool last = false; !last;) {
        last = done.load();
        if (!f.is_open()) f.open(path, std::ios::binary);
        if (f.is_open()) {
            f.clear();
            f.seekg(at);
            while (f.read(buf, sizeof buf) || f.gcount() > 0) {
                std::fwrite(buf, 1, static_cast<size_t>(f.gcount()), stdout);
                at += f.gcount();
            }
            std::fflush(stdout);
        }
        if (!last) usleep(100 * 1000);
    }
}

// One line per benchmark of the merged JSON: the median of the repetitions (or the one run).
void print_summary(const nlohmann::json &doc) {
    std::map<std::string, nlohmann::json> rows;  // run name -> the entry shown
    std::vector<std::string> order;
    const nlohmann::json benchmarks = doc.value("benchmarks", nlohmann::json::array());
    for (const auto &b : benchmarks) {
        const std::string run = b.value("run_name", b.value("name", ""));
        const std::string type = b.value("run_type", "iteration");
        if (type == "aggregate" && b.value("aggregate_name", "") != "median") continue;
        if (!rows.count(run)) order.push_back(run);
        if (!rows.count(run) || type == "aggregate") rows[run] = b;
    }
    if (order.empty()) return;
    std::printf("\n%-60s %12s %12s %10s %10s\n", "benchmark (median)", "time ms", "Mpix/s", "GB/s", "% of copy");
    for (const auto &run : order) {
        const auto &b = rows[run];
        std::string shown = run;  // without Google Benchmark's /iterations:N and /manual_time
        for (const std::string suffix : {"/manual_time", "/real_time"}) {
            if (shown.size() > suffix.size() && shown.compare(shown.size() - suffix.size(), suffix.size(), suffix) == 0)
                shown.resize(shown.size() - suffix.size());
        }
        if (const size_t at = shown.find("/iterations:"); at != std::string::npos) shown.resize(at);
        if (b.value("error_occurred", false)) {
            std::printf("%-60s ERROR %s\n", shown.c_str(), b.value("error_message", "").c_str());
            continue;
        }
        std::printf("%-60s %12.4f %12.1f %10.2f %10.1f\n", shown.c_str(), b.value("real_time", 0.0),
                    b.value("pixels_per_second", 0.0) / 1e6, b.value("bytes_per_second", 0.0) / 1e9,
                    b.value("pct_of_copy_bw", 0.0));
    }
}

// Google Benchmark checks its own flags: an unknown or malformed one is an error before anything runs.
void check_google_flags(const std::vector<std::string> &flags) {
    const std::vector<std::string> unknown = google_initialize(flags);
    if (!unknown.empty()) {
        throw Error("unknown Google Benchmark flag '" + unknown[0] +
                    "'; see Google Benchmark's --help (flags start with --benchmark_)");
    }
}

}  // namespace

std::vector<std::string> google_initialize(const std::vector<std::string> &flags) {
    static std::deque<std::string> kept;  // argv[0] stays referenced by Google Benchmark
    std::vector<char *> argv{kept.emplace_back("aot-harness bench").data()};
    for (const auto &f : flags)
        argv.push_back(kept.emplace_back(f).data());
    int argc = static_cast<int>(argv.size());
    argv.push_back(nullptr);
    benchmark::Initialize(&argc, argv.data());
    return std::vector<std::string>(argv.begin() + 1, argv.begin() + argc);
}

BenchArgs split_bench_args(const std::vector<std::string> &words) {
    BenchArgs a;
    bool rest = false;
    for (const auto &w : words) {
        if (!rest && w == "--") {
            rest = true;
            continue;
        }
        if (rest || starts_with(w, "--benchmark_")) {
            if (starts_with(w, "--benchmark_out=") || starts_with(w, "--benchmark_out_format")) {
                throw Error("bench writes Google Benchmark's JSON itself: use --json FILE instead of " + w);
            }
            a.google.push_back(w);
        } else {
            a.harness.push_back(w);
        }
    }
    return a;
}

int bench_main(const std::vector<std::string> &words) {
    for (const auto &w : words) {
        if (w == "--help" || w == "-h") {
            std::fputs(help_text(find_command("bench")).c_str(), stdout);
            return 0;
        }
        if (w == "--") break;
    }
    const BenchArgs split = split_bench_args(words);
    const Args args = parse_command_args("bench", split.harness);
    const BenchOptions o = bench_options(args);
    BenchPlan plan;
    plan_bench(o, plan);
    check_google_flags(split.google);
    if (!o.json.empty()) {
        const std::string dir = o.json.find('/') == std::string::npos ? "." : o.json.substr(0, o.json.rfind('/'));
        if (make_dirs(dir) != 0 || access(dir.c_str(), W_OK) != 0)
            throw Error("cannot write the benchmark file " + o.json + "; choose a writable path");
    }
    for (const auto &n : plan.notes)
        std::printf("note: %s\n", n.c_str());

    // Which profiles run here; each runnable profile's benchmarks run in one child.
    const Availability avail = check_availability();
    const Registry &reg = Registry::instance();
    std::vector<std::string> order;
    std::map<std::string, int> runnable;
    nlohmann::json skipped = nlohmann::json::object();
    for (const auto &t : plan.tasks) {
        if (std::find(order.begin(), order.end(), t.profile) == order.end()) order.push_back(t.profile);
        std::string why = compile_error_message(*reg.find(t.pipeline, t.profile));
        if (why.empty()) why = pipeline_unavailable_reason(avail, reg.spec(t.pipeline), t.profile);
        const std::string key = t.pipeline + "/" + t.profile;
        if (why.empty()) {
            runnable[t.profile]++;
        } else if (!skipped.contains("skipped." + key)) {
            skipped["skipped." + key] = why;
            std::printf("SKIP %s: %s\n", key.c_str(), why.c_str());
        }
    }
    std::fflush(stdout);

    const std::string exe = self_exe_path();
    if (exe.empty()) throw Error("cannot resolve /proc/self/exe; run aot-harness on Linux with /proc mounted");
    install_interrupt_cleanup();           // kills the running child and removes the temp dir on SIGINT/SIGTERM
    TempDir tmp_dir("aot-harness-bench");  // under $TMPDIR, removed on every way out
    const std::string tmp = tmp_dir.path();

    nlohmann::json merged, machine = nlohmann::json::object();  // machine.<profile>: MachineSampler + calibration
    int worst = -1;                                             // severity of the worst outcome that counts
    Outcome worst_outcome = Outcome::Skip;
    std::vector<std::string> lines;
    for (const auto &prof : order) {
        if (!runnable[prof]) continue;
        const std::string json = tmp + "/bench-" + prof + ".json", out = tmp + "/output-" + prof + ".txt";
        ChildCommand cmd;
        cmd.argv = {exe,      "__bench-one", "--profile", prof,
                    "--json", json,          "--record",  tmp + "/record-" + prof + ".json"};
        for (const char *opt :
             {"pipeline", "case", "size", "mode", "repetitions", "min-time", "halide-pool", "golden-dir"}) {
            if (args.has(opt)) cmd.argv.insert(cmd.argv.end(), {std::string("--") + opt, args.get(opt)});
        }
        if (o.quick) cmd.argv.push_back("--quick");
        if (o.kernels) cmd.argv.push_back("--kernels");
        cmd.argv.insert(cmd.argv.end(), split.google.begin(), split.google.end());
        cmd.timeout_s = o.timeout;
        cmd.record_path = tmp + "/record-" + prof + ".json";
        cmd.stderr_path = out;
        RunRecord id;
        id.pipeline = "*";
        id.profile = prof;
        id.case_name = "*";
        id.mode = "bench";
        std::printf("\n== bench %s: %d benchmark(s) ==\n", prof.c_str(), runnable[prof]);
        std::fflush(stdout);
        std::atomic<bool> done{false};
        std::thread follower(follow, out, std::cref(done));
        MachineSampler sampler;  // what the machine was doing around and during this profile's block
        sampler.start();
        const RunRecord r = supervise(id, cmd);
        nlohmann::json block = sampler.stop();
        done = true;
        follower.join();
        block["profiles"] = {prof};
        block["calibration"] = r.metrics.value("calibration", nlohmann::json::object());
        // the child's own threads' wait for a CPU (its schedstat): with the samples, what the machine did
        block["during"]["wait_share"] = block["calibration"].value("wait_share", nlohmann::json());
        block["calibration"].erase("wait_share");
        std::printf("\nmachine during %s:\n", prof.c_str());
        std::string text = describe_machine_block(block);
        for (size_t at = 0; at < text.size();) {
            const size_t nl = text.find('\n', at);
            std::printf("  %s\n", text.substr(at, nl - at).c_str());
            at = nl == std::string::npos ? text.size() : nl + 1;
        }
        std::fflush(stdout);
        machine["machine." + prof] = block.dump();

        nlohmann::json doc;
        try {
            doc = parse_json(read_file(json), json, "");
        } catch (const std::exception &) {
            doc = nullptr;  // none, or cut short by a crash: nothing of this profile is kept
        }
        Outcome counted = r.outcome;
        std::string line = prof + ": " + outcome_name(r.outcome) + ": " + r.message;
        if (r.outcome == Outcome::TeardownFault && doc.is_object()) {
            counted = outcome_from_name(r.result_outcome);  // the results are complete: the crash came after them
            line += " (the benchmark results were complete before the exit and are kept; the exit fault does not "
                    "fail this run)";
        }
        if (doc.is_object() && o.kernels) {
            try {  // the child's per-kernel breakdowns, by benchmark name
                const nlohmann::json kernels = parse_json(read_file(json + ".kernels"), json + ".kernels", "");
                for (const auto &[name, k] : kernels.items())
                    doc["kernels"][name] = k;
            } catch (const std::exception &e) {
                line += "; no per-kernel times (" + std::string(e.what()) + ")";
            }
            unlink((json + ".kernels").c_str());
        }
        if (doc.is_object()) {
            if (merged.is_null()) {
                merged = doc;
            } else {
                const nlohmann::json context = doc.value("context", nlohmann::json::object());
                const nlohmann::json benchmarks = doc.value("benchmarks", nlohmann::json::array());
                for (const auto &[k, v] : context.items()) {
                    if (!merged["context"].contains(k)) merged["context"][k] = v;
                }
                for (const auto &b : benchmarks)
                    merged["benchmarks"].push_back(b);
                const nlohmann::json kernels = doc.value("kernels", nlohmann::json::object());
                for (const auto &[name, k] : kernels.items())
                    merged["kernels"][name] = k;
            }
        }
        lines.push_back(line);
        if (outcome_severity(counted) > worst) {
            worst = outcome_severity(counted);
            worst_outcome = counted;
        }
        unlink(json.c_str());
        unlink(out.c_str());
        unlink(cmd.record_path.c_str());
    }
    tmp_dir.remove();

    if (!merged.is_null()) {
        for (auto &[k, v] : skipped.items())
            merged["context"][k] = v;
        for (auto &[k, v] : machine.items())
            merged["context"][k] = v;
        print_summary(merged);
        if (merged.contains("kernels"))
            std::printf("\nper-kernel device time (GPU), per-Func time (CPU) (--kernels):\n");
        const nlohmann::json kernels = merged.value("kernels", nlohmann::json::object());
        for (const auto &[name, k] : kernels.items()) {
            if (k.contains("no_twin")) continue;  // one line for all of them, below
            const bool cpu = k.contains("funcs") || k.contains("variant") || !k.contains("calls");
            std::printf("%s", (cpu ? func_breakdown_text(name, k) : kernel_breakdown_text(name, k)).c_str());
        }
        std::printf("%s", missing_twins_text(kernels).c_str());
    }
    std::printf("\n");
    for (const auto &l : lines)
        std::printf("bench %s\n", l.c_str());
    if (!o.json.empty()) {
        if (merged.is_null()) {
            merged = {{"context", skipped}, {"benchmarks", nlohmann::json::array()}};
            for (auto &[k, v] : machine.items())
                merged["context"][k] = v;
        }
        write_file_atomic(o.json, merged.dump(2) + "\n");
        std::printf("bench: %s\n", o.json.c_str());
    }
    if (worst < 0) {
        std::printf("bench: no profile can run here (every selected benchmark SKIPs)\n");
        return outcome_exit_code(Outcome::Skip);
    }
    return outcome_exit_code(worst_outcome);
}

}  // namespace harness::perf

namespace harness {

void enable_bench() {
    set_command_hook("bench", perf::bench_main);
    set_command_hook("__bench-one", perf::bench_child_main);
}

}  // namespace harness
