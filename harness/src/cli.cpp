#include "harness/cli.h"

#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "harness/args.h"
#include "harness/buffers.h"
#include "harness/cli_options.h"
#include "harness/environment.h"
#include "harness/error.h"
#include "harness/files.h"
#include "harness/golden.h"
#include "harness/npy.h"
#include "harness/opencl_info.h"
#include "harness/vulkan_info.h"
#include "harness/profile.h"
#include "harness/registry.h"
#include "harness/report.h"
#include "harness/runner.h"
#include "harness/runtime_hooks.h"
#include "harness/supervisor.h"
#include "harness/xfail.h"

namespace harness {

namespace {

const char *kUsage =
    "usage: aot-harness <command> [options]\n"
    "\n"
    "Runs AOT-compiled Halide pipelines on every target profile, each run in its own process, and\n"
    "compares the results with the goldens in golden/.\n"
    "\n"
    "commands:\n"
    "  list [--json]                 pipelines x profiles x cases, and whether each profile can run here\n"
    "  describe <pipeline> [--json]  inputs, outputs, types, params, profiles, tolerance, cases\n"
    "  env [--json]                  Halide version, host CPU, OpenCL platforms/devices, CUDA driver\n"
    "  run [options]                 run cases in child processes, compare with goldens\n"
    "  bless --pipeline P [--case C] write goldens from the cpu profile (checked against the reference)\n"
    "  golden verify                 check every golden against golden/MANIFEST.json\n"
    "  report --results F --out DIR  write an HTML report of a results file\n"
    "\n"
    "Each command has --help. Exit codes of run: 0 PASS, 1 FAIL, 2 ERROR, 3 CRASH, 4 TEARDOWN_FAULT,\n"
    "5 TIMEOUT, 77 SKIP (the worst outcome wins).\n";

const std::map<std::string, std::string> kHelp = {
    {"list", "usage: aot-harness list [--json]\n  Lists pipelines x profiles x cases and whether each profile can run here\n  (an OpenCL platform and device found, a CUDA driver present, or why not).\n"},
    {"describe", "usage: aot-harness describe <pipeline> [--json]\n  Inputs, outputs, types, scalar params, profiles with their targets, tolerance and cases.\n"},
    {"env", "usage: aot-harness env [--json]\n  Halide version, host CPU and features, OS, compiler, every OpenCL platform and device\n  (version, driver version, extensions, memory sizes) and the CUDA driver.\n"},
    {"run",
     "usage: aot-harness run [--pipeline P] [--profile T] [--case C] [--mode M] [--json FILE]\n"
     "                       [--timeout SECONDS] [--repeats N] [--fallback cpu] [--golden-dir DIR]\n"
     "                       [--artifacts DIR] [--report DIR]\n"
     "  --mode: host (Halide copies; default), device (inputs pre-copied, outputs read back by the\n"
     "  harness), wrapped-host-visible / wrapped-device-only (cl_mem made by the harness with and\n"
     "  without host access), or all. A mode a profile cannot do is SKIP with the reason.\n"
     "  --repeats N (default 3): runs that must be bit-identical, each with its own output canary;\n"
     "  outputs have guard bands and inputs are checksummed. --fallback cpu: when a GPU run does not\n"
     "  PASS, also run the cpu variant as a separate record marked as fallback.\n"
     "  --fail-on-output REGEX (POSIX extended): a PASS or TEARDOWN_FAULT whose child printed a\n"
     "  matching line is FAIL; a run that failed already gets that line added to its message\n"
     "  (e.g. oclgrind's 'Invalid read' reports).\n"
     "  --xfail FILE (default <golden-dir>/xfail.json): known failures of a device or driver; a\n"
     "  matching failure is XFAIL (exit 0), a matching pass XPASS (exit 0, or 1 with --strict-xfail).\n"
     "  Runs every selected pipeline x profile x case in its own child process and compares the\n"
     "  outputs with the goldens. Filters take one name each (default: all). --timeout is per run\n"
     "  (default 60). --json writes {environment, runs, summary}; --report writes an HTML report;\n"
     "  --artifacts keeps outputs of failed runs. Prints one line per run and a summary; exits\n"
     "  with the code of the worst outcome (0 PASS, 1 FAIL, 2 ERROR, 3 CRASH, 4 TEARDOWN_FAULT,\n"
     "  5 TIMEOUT, 77 SKIP).\n"},
    {"bless",
     "usage: aot-harness bless (--pipeline P | --all) [--case C] [--golden-dir DIR]\n"
     "  Runs the cpu profile, checks each result against the spec's plain C++ reference and only\n"
     "  then writes golden/<p>/<case>.npy and golden/MANIFEST.json, each atomically.\n"},
    {"golden", "usage: aot-harness golden verify [--golden-dir DIR]\n  Checks every golden's sha256, dtype and shape against golden/MANIFEST.json and\n  reports files without entries. Exit 0 if all good, 1 otherwise.\n"},
    {"report", "usage: aot-harness report --results FILE --out DIR\n  Writes DIR/index.html from a results file written by `run --json`.\n"},
};

bool wants_help(const std::vector<std::string> &args) {
    for (const auto &a : args) {
        if (a == "--help" || a == "-h") return true;
    }
    return false;
}

struct Availability {
    std::map<std::string, std::string> reason;  // profile -> why it cannot run ("" = it can)
    nlohmann::json selected = nlohmann::json::object();  // profile -> chosen OpenCL platform/device
};

// Why `pipeline` cannot run on `profile` here ("" if it can): the profile's runtime is missing, or
// the selected OpenCL device lacks an extension the spec requires.
std::string pipeline_unavailable_reason(const Availability &a, const PipelineSpec &spec, const std::string &profile) {
    const std::string &why = a.reason.at(profile);
    if (!why.empty()) return why;
    if (!a.selected.contains(profile)) return "";
    if (find_profile(profile).runtime == "vulkan") {
        return missing_vulkan_features_reason(Registry::instance().find(spec.name, profile)->metadata->target, a.selected[profile]);
    }
    if (find_profile(profile).runtime != "opencl") return "";
    return missing_extensions_reason(spec.required_extensions, a.selected[profile]);
}

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

std::string self_exe() {
    const std::string path = self_exe_path();
    if (path.empty()) throw Error("cannot resolve /proc/self/exe; run aot-harness on Linux with /proc mounted");
    return path;
}

int cmd_list(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("list", argv);
    const Registry &reg = Registry::instance();
    const Availability avail = check_availability();
    nlohmann::json out{{"platform", build_platform()}, {"pipelines", nlohmann::json::array()}};
    for (const auto &p : profiles()) {
        out["profiles"].push_back({{"name", p.name}, {"runtime", p.runtime}, {"target", p.target},
                                   {"runnable", avail.reason.at(p.name).empty()}, {"reason", avail.reason.at(p.name)},
                                   {"device", avail.selected.value(p.name, nlohmann::json())}});
    }
    for (const auto &name : reg.pipelines()) {
        const PipelineSpec &spec = reg.spec(name);
        nlohmann::json pj{{"name", name}, {"summary", spec.summary}, {"tolerance", spec.tolerance.name()}};
        for (const auto &prof : reg.profiles_of(name)) {
            const Variant *v = reg.find(name, prof);
            const std::string why = !v->compile_error.empty() ? compile_error_message(*v)
                                                              : pipeline_unavailable_reason(avail, spec, prof);
            pj["profiles"].push_back({{"name", prof}, {"runtime", find_profile(prof).runtime},
                                      {"target", v->metadata->target}, {"runnable", why.empty()}, {"reason", why}});
        }
        for (const auto &c : spec.cases) pj["cases"].push_back({{"name", c.name}, {"nightly", c.nightly}});
        out["pipelines"].push_back(pj);
    }
    if (args.has("json")) {
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("profiles (platform %s):\n", build_platform().c_str());
    for (const auto &p : out["profiles"]) {
        std::printf("  %-12s %-8s %s\n", p["name"].get<std::string>().c_str(),
                    p["runnable"].get<bool>() ? "runnable" : "SKIP", p["runnable"].get<bool>()
                        ? (p["device"].is_null() ? "" : (p["device"]["platform"].get<std::string>() + " / " + p["device"]["device"].get<std::string>()).c_str())
                        : p["reason"].get<std::string>().c_str());
    }
    std::printf("pipelines:\n");
    for (const auto &pj : out["pipelines"]) {
        std::string profs, cases;
        for (const auto &p : pj["profiles"]) profs += (profs.empty() ? "" : " ") + p["name"].get<std::string>();
        for (const auto &c : pj["cases"]) cases += (cases.empty() ? "" : " ") + c["name"].get<std::string>() + (c["nightly"].get<bool>() ? "(nightly)" : "");
        std::printf("  %-12s profiles: %s\n  %-12s cases: %s\n", pj["name"].get<std::string>().c_str(), profs.c_str(), "", cases.c_str());
    }
    return 0;
}

const char *arg_kind(int kind) {
    return kind == halide_argument_kind_input_scalar ? "scalar" : kind == halide_argument_kind_input_buffer ? "input" : "output";
}

int cmd_describe(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("describe", argv);
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(args.positional()[0]);
    const Variant *cpu = reg.find(spec.name, "cpu");
    nlohmann::json out{{"name", spec.name}, {"summary", spec.summary}, {"tolerance", spec.tolerance.to_json()},
                       {"tolerance_reason", spec.tolerance_reason}, {"generator_sha256", spec.generator_sha256},
                       {"required_extensions", spec.required_extensions}};
    for (int i = 0; i < cpu->metadata->num_arguments; i++) {
        const auto &a = cpu->metadata->arguments[i];
        out["arguments"].push_back({{"name", a.name}, {"kind", arg_kind(a.kind)}, {"type", dtype_name(a.type)},
                                    {"dimensions", a.dimensions}});
    }
    for (const auto &prof : reg.profiles_of(spec.name)) {
        const Variant *v = reg.find(spec.name, prof);
        out["profiles"].push_back({{"name", prof}, {"target", v->metadata->target},
                                   {"schedule", find_profile(prof).schedule}, {"compile_error", compile_error_message(*v)}});
    }
    for (const auto &c : spec.cases) {
        nlohmann::json cj{{"name", c.name}, {"nightly", c.nightly}, {"scalars", c.scalars}};
        for (const auto &b : c.inputs) cj["inputs"][b.name] = {{"shape", b.shape}, {"recipe", b.recipe.describe()}};
        for (const auto &b : c.outputs) cj["outputs"][b.name] = {{"shape", b.shape}};
        out["cases"].push_back(cj);
    }
    if (args.has("json")) {
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::printf("%s: %s\n", spec.name.c_str(), spec.summary.c_str());
    std::printf("arguments:\n");
    for (const auto &a : out["arguments"]) {
        std::printf("  %-7s %-10s %-8s %d-D\n", a["kind"].get<std::string>().c_str(), a["name"].get<std::string>().c_str(),
                    a["type"].get<std::string>().c_str(), a["dimensions"].get<int>());
    }
    std::printf("tolerance: %s (%s)\nprofiles:\n", spec.tolerance.name().c_str(), spec.tolerance_reason.c_str());
    for (const auto &p : out["profiles"]) {
        std::printf("  %-12s schedule %-9s target %s\n", p["name"].get<std::string>().c_str(),
                    p["schedule"].get<std::string>().c_str(), p["target"].get<std::string>().c_str());
    }
    std::printf("cases:\n");
    for (const auto &c : spec.cases) {
        std::printf("  %-8s %s%s\n", c.name.c_str(), shape_string(c.outputs.at(0).shape).c_str(), c.nightly ? " (nightly)" : "");
    }
    return 0;
}

int cmd_env(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("env", argv);
    const nlohmann::json env = environment_info();
    if (args.has("json")) {
        std::cout << env.dump(2) << "\n";
        return 0;
    }
    std::printf("Halide %s, platform %s, %s\n", env["halide_version"].get<std::string>().c_str(),
                env["platform"].get<std::string>().c_str(), env.value("compiler", "").c_str());
    std::printf("host CPU: %s, %d cores, features: %s\n", env["host_cpu"].value("model", "?").c_str(),
                env["host_cpu"].value("cores", 0), env["host_cpu"].value("features", nlohmann::json::array()).dump().c_str());
    const auto &cl = env["opencl"];
    if (cl.contains("error")) std::printf("OpenCL: %s\n", cl["error"].get<std::string>().c_str());
    for (const auto &p : cl.value("platforms", nlohmann::json::array())) {
        std::printf("OpenCL platform: %s (%s)\n", p["name"].get<std::string>().c_str(), p["version"].get<std::string>().c_str());
        for (const auto &d : p["devices"]) {
            std::printf("  device: %s [%s], %s, driver %s, %u CUs, %.1f GiB global, %llu KiB local\n    extensions: %s\n",
                        d["name"].get<std::string>().c_str(), d["type"].get<std::string>().c_str(),
                        d["version"].get<std::string>().c_str(), d["driver_version"].get<std::string>().c_str(),
                        d["compute_units"].get<unsigned>(), d["global_mem_bytes"].get<double>() / (1 << 30),
                        static_cast<unsigned long long>(d["local_mem_bytes"].get<uint64_t>() / 1024),
                        d["extensions"].get<std::string>().c_str());
        }
    }
    const auto &cu = env["cuda"];
    if (cu.contains("error")) std::printf("CUDA: %s\n", cu["error"].get<std::string>().c_str());
    for (const auto &d : cu.value("devices", nlohmann::json::array())) {
        std::printf("CUDA device: %s (sm %s), driver %d\n", d["name"].get<std::string>().c_str(),
                    d["compute_capability"].get<std::string>().c_str(), cu.value("driver_version", 0));
    }
    std::printf("%s", vulkan_summary(env["vulkan"]).c_str());
    return 0;
}

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

struct RunSettings {
    std::string golden_dir, artifacts, exe, tmp;
    RunOptions opts;  // --timeout, --repeats, --fail-on-output, --mode, --fallback, --strict-xfail
};

// One supervised child run of pipeline x profile x case x mode.
RunRecord run_one(const RunSettings &st, const std::string &p, const std::string &prof, const std::string &case_name,
                  const std::string &mode, const Availability &avail) {
    const Registry &reg = Registry::instance();
    RunRecord id;
    id.pipeline = p;
    id.profile = prof;
    id.case_name = case_name;
    id.mode = mode;
    id.target = reg.find(p, prof)->metadata->target;
    RunRecord r = id;
    const Variant *variant = reg.find(p, prof);
    if (!variant->compile_error.empty()) {
        // A build-time failure is an ERROR wherever it is run, device or not.
        r.outcome = Outcome::Error;
        r.message = compile_error_message(*variant);
        return r;
    }
    std::string why = pipeline_unavailable_reason(avail, reg.spec(p), prof);
    if (why.empty()) why = buffer_mode_unavailable_reason(buffer_mode_from_name(mode), find_profile(prof).runtime);
    if (!why.empty()) {
        r.outcome = Outcome::Skip;
        r.message = why;
        return r;
    }
    ChildCommand cmd;
    cmd.argv = {st.exe, "__run-one", "--pipeline", p, "--profile", prof, "--case", case_name, "--mode", mode,
                "--golden-dir", st.golden_dir, "--repeats", std::to_string(st.opts.repeats), "--record", st.tmp + "/record.json"};
    if (!st.artifacts.empty()) {
        cmd.argv.push_back("--artifacts");
        cmd.argv.push_back(st.artifacts);
    }
    // Cross builds under user-mode emulation: the child must be started through the emulator too
    // (e.g. HARNESS_EXEC_WRAPPER="qemu-aarch64 -L /usr/aarch64-linux-gnu").
    if (const char *wrapper = std::getenv("HARNESS_EXEC_WRAPPER"); wrapper && *wrapper) {
        std::istringstream words(wrapper);
        std::vector<std::string> prefix;
        for (std::string w; words >> w;) prefix.push_back(w);
        if (!prefix.empty() && prefix[0].find('/') == std::string::npos) prefix[0] = find_in_path(prefix[0]);
        cmd.argv.insert(cmd.argv.begin(), prefix.begin(), prefix.end());
    }
    cmd.timeout_s = st.opts.timeout;
    cmd.record_path = st.tmp + "/record.json";
    cmd.stderr_path = st.tmp + "/stderr.txt";
    cmd.fail_on_output = st.opts.fail_on_output;
    r = supervise(id, cmd);
    if (avail.selected.contains(prof)) r.metrics["device"] = avail.selected[prof];
    return r;
}

int cmd_run(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("run", argv);
    RunSettings st;
    st.opts = run_options(args);
    st.golden_dir = args.get("golden-dir", default_golden_dir());
    st.artifacts = args.get("artifacts");
    if (!st.artifacts.empty()) {
        // Absolute, so that the report (elsewhere) can show the pictures.
        if (const int e = make_dirs(st.artifacts)) {
            throw Error("cannot create --artifacts " + st.artifacts + ": " + std::strerror(e) + "; choose a writable directory");
        }
        char resolved[PATH_MAX];
        if (realpath(st.artifacts.c_str(), resolved)) st.artifacts = resolved;
    }
    const Registry &reg = Registry::instance();
    std::vector<std::string> pipes = reg.pipelines();
    if (args.has("pipeline")) pipes = {reg.spec(args.get("pipeline")).name};
    if (args.has("profile")) find_profile(args.get("profile"));
    if (args.has("case")) {
        bool any = false;
        for (const auto &p : pipes) {
            for (const auto &c : reg.spec(p).cases) any |= c.name == args.get("case");
        }
        if (!any) reg.spec(pipes.at(0)).find_case(args.get("case"));  // throws listing known cases
    }
    if (args.has("json")) check_writable(args.get("json"), "the results file");

    const XfailList xfail = XfailList::load(args.get("xfail", st.golden_dir + "/xfail.json"));
    const Availability avail = check_availability();
    char tmpl[] = "/tmp/aot-harness.XXXXXX";
    const char *tmp = mkdtemp(tmpl);
    if (!tmp) throw Error("cannot create a temporary directory under /tmp; free space or set TMPDIR");
    st.tmp = tmp;
    st.exe = self_exe();

    nlohmann::json runs = nlohmann::json::array();
    Outcome worst_outcome = Outcome::Pass;
    bool xpass_seen = false;
    auto record = [&](RunRecord r) {
        if (r.fallback_for.empty()) xfail.apply(r, avail.selected.value(r.profile, nlohmann::json()));
        xpass_seen |= r.outcome == Outcome::XPass;
        if (outcome_severity(r.outcome) > outcome_severity(worst_outcome)) worst_outcome = r.outcome;
        std::printf("%-14s %-50s %8.1f ms  %s\n", outcome_name(r.outcome),
                    (r.id() + (r.mode == "host" ? "" : "/" + r.mode) + (r.fallback_for.empty() ? "" : " (fallback)")).c_str(),
                    r.duration_ms, r.message.c_str());
        std::fflush(stdout);
        runs.push_back(r.to_json());
    };
    for (const auto &p : pipes) {
        for (const auto &prof : reg.profiles_of(p)) {
            if (args.has("profile") && prof != args.get("profile")) continue;
            for (const auto &c : reg.spec(p).cases) {
                if (args.has("case") && c.name != args.get("case")) continue;
                for (const auto &mode : st.opts.modes) {
                    const RunRecord r = run_one(st, p, prof, c.name, mode, avail);
                    record(r);
                    if (!st.opts.fallback.empty() && find_profile(prof).is_gpu() && r.outcome != Outcome::Pass) {
                        RunRecord fb = run_one(st, p, "cpu", c.name, "host", avail);
                        fb.fallback_for = prof;
                        fb.message = "cpu fallback for " + prof + ": " + fb.message;
                        record(fb);
                    }
                }
            }
        }
    }
    unlink((st.tmp + "/record.json").c_str());
    unlink((st.tmp + "/stderr.txt").c_str());
    rmdir(st.tmp.c_str());
    if (runs.empty()) throw Error("no pipeline x profile x case matches the filters; see aot-harness list");
    // A fallback record never turns a GPU failure into success, but it must not worsen the exit code
    // beyond what the GPU record says either: it is reported, and counted in the summary.
    int worst = outcome_exit_code(worst_outcome);
    if (st.opts.strict_xfail && xpass_seen && worst == 0) worst = 1;
    const nlohmann::json summary = summarize(runs);
    std::string counts;
    for (const auto &[k, v] : summary.items()) {
        if (k != "total" && k != "worst") counts += (counts.empty() ? "" : ", ") + std::to_string(v.get<int>()) + " " + k;
    }
    std::printf("%d runs: %s; worst %s (exit %d)\n", summary["total"].get<int>(), counts.c_str(), outcome_name(worst_outcome), worst);
    const nlohmann::json results{{"environment", environment_info()}, {"runs", runs}, {"summary", summary}};
    if (args.has("json")) {
        write_file_atomic(args.get("json"), results.dump(2) + "\n");
        std::printf("results: %s\n", args.get("json").c_str());
    }
    if (args.has("report")) {
        write_html_report(results, args.get("report"));
        std::printf("report: %s/index.html\n", args.get("report").c_str());
    }
    return worst;
}

// The child side of `run`: one case, record written before a normal exit.
int cmd_run_one(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("__run-one", argv);
    install_halide_error_handler();
    RunRequest req;
    req.pipeline = args.get("pipeline");
    req.profile = args.get("profile");
    req.case_name = args.get("case");
    req.mode = args.get("mode", "host");
    req.golden_dir = args.get("golden-dir", default_golden_dir());
    req.artifacts_dir = args.get("artifacts");
    req.repeats = static_cast<int>(args.number("repeats", 3, 1, 100));
    const RunRecord r = run_case(req);
    write_file_atomic(args.get("record"), r.to_json().dump() + "\n");
    return outcome_exit_code(r.outcome);
}

int cmd_bless(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("bless", argv);
    const std::string dir = args.get("golden-dir", default_golden_dir());
    const Registry &reg = Registry::instance();
    std::vector<std::string> pipes = args.has("all") ? reg.pipelines() : std::vector<std::string>{reg.spec(args.get("pipeline")).name};
    for (const auto &line : bless(dir, pipes, args.get("case"))) std::printf("blessed %s\n", line.c_str());
    return 0;
}

int cmd_golden(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("golden", argv);
    const std::string dir = args.get("golden-dir", default_golden_dir());
    const auto problems = verify_goldens(dir);
    for (const auto &p : problems) std::printf("%s\n", p.c_str());
    const size_t n = Manifest::load(dir, true).entries().size();
    std::printf("%zu goldens in %s: %s\n", n, dir.c_str(), problems.empty() ? "all match the manifest" : "PROBLEMS above");
    return problems.empty() ? 0 : 1;
}

int cmd_report(const std::vector<std::string> &argv) {
    const Args args = parse_command_args("report", argv);
    nlohmann::json results;
    try {
        results = nlohmann::json::parse(read_file(args.get("results")));
    } catch (const nlohmann::json::exception &e) {
        throw Error(args.get("results") + " is not a results file (" + e.what() + "); pass the file `run --json` wrote");
    }
    write_html_report(results, args.get("out"));
    std::printf("report: %s/index.html\n", args.get("out").c_str());
    return 0;
}

}  // namespace

int cli_main(int argc, char **argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    try {
        if (kHelp.count(cmd) && wants_help(args)) {
            std::fputs(kHelp.at(cmd).c_str(), stdout);
            return 0;
        }
        profiles();  // validate the embedded profiles.json
        Registry::instance().validate();
        if (cmd == "list") return cmd_list(args);
        if (cmd == "describe") return cmd_describe(args);
        if (cmd == "env") return cmd_env(args);
        if (cmd == "run") return cmd_run(args);
        if (cmd == "__run-one") return cmd_run_one(args);
        if (cmd == "bless") return cmd_bless(args);
        if (cmd == "golden") return cmd_golden(args);
        if (cmd == "report") return cmd_report(args);
        throw Error("unknown command '" + cmd + "'; commands: list, describe, env, run, bless, golden verify, report");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "aot-harness: error: %s\n", e.what());
        return 2;
    }
}

}  // namespace harness
