// The command table of aot-harness and the checks of options that need no pipeline (cli_options.h).
#include "cli/cli_options.h"

#include <algorithm>
#include <cstdlib>

#include "variant/buffers.h"
#include "base/error.h"
#include "base/outcome.h"
#include "base/output_pattern.h"
#include "matrix/shard.h"
#include "devices/device_personality.h"

namespace harness {

namespace {

const OptionSpec kGoldenDir{"golden-dir", "DIR", "the golden directory (default: $HARNESS_GOLDEN_DIR, else golden/)"};
const OptionSpec kJsonFlag{"json", "", "machine-readable JSON on stdout"};
const OptionSpec kDevice{"device", "NAME",
                         "OpenCL and Vulkan runs behave within this device's limits (mali-g52, mali-g76,\n"
                         "mali-g610, mali-g710: harness/src/devices/personalities.json): device queries\n"
                         "answer its values, a kernel needing more work-items, local memory or fp64 than\n"
                         "it has fails as its driver would (default: the profile's `device`, if any;\n"
                         "none: no personality, the driver as it is)"};
const char *const kToolHelp = "An installed tool (Python); `aot-harness <tool> --help` prints its options.";
const OptionSpec kBuildDir{"build-dir", "DIR",
                           "the build tree that made the variants (default: $AOT_HARNESS_BUILD_DIR, else\n"
                           "the parent of this executable's directory)"};

}  // namespace

const std::vector<CommandSpec> &commands() {
    static const std::vector<CommandSpec> t{
        {"list",
         "",
         "pipelines x profiles x cases, and whether each profile can run here",
         "Lists pipelines x profiles x cases and whether each profile can run here\n"
         "(an OpenCL platform and device found, a CUDA driver present, or why not).",
         {kJsonFlag}},
        {"describe",
         "<pipeline>",
         "inputs, outputs, types, params, profiles, tolerance, cases",
         "Inputs, outputs, types, scalar params, profiles with their targets, tolerance and cases.\n"
         "--resources: each GPU variant's kernels as the driver runs them (one call of the case in a\n"
         "child): work-group, grid, local/shared memory, private memory or registers where the driver\n"
         "reports them, each beside every device personality's limits (or --device's). Exit 77 when no\n"
         "GPU variant can run here.",
         {kJsonFlag,
          {"resources", "", "per GPU variant and kernel: what it asks of the device, against each device's limits"},
          {"case", "C", "with --resources: the case to run (default the first)"},
          {"device", "NAME", "with --resources: only this device's limits (default every personality)"},
          kGoldenDir}},
        {"env",
         "",
         "Halide version, host CPU, OpenCL platforms/devices, CUDA driver",
         "Halide version, host CPU and features, OS, compiler, every OpenCL platform and device\n"
         "(version, driver version, extensions, memory sizes) and the CUDA driver.",
         {kJsonFlag}},
        {"machine",
         "",
         "clocks, temperatures, throttling and load now, or as a bench file recorded them",
         "What bench records around each profile: CPU clocks, temperatures, devfreq, NVIDIA GPUs (NVML), load;\n"
         "\"not exposed\" where the platform does not say. --bench FILE: the blocks a bench JSON recorded.",
         {kJsonFlag,
          {"bench", "FILE", "the machine blocks this bench JSON recorded (aot-harness bench --json FILE)"},
          {"sample", "SECONDS", "sample for SECONDS and print what the machine did (default: one reading)"}}},
        {"run",
         "",
         "run cases in child processes, compare with goldens",
         "Runs every selected pipeline x profile x case in its own child process and compares the\n"
         "outputs with the goldens. Filters take comma-separated names and globs, e.g. --pipeline\n"
         "'blur*,sobel' (default: all). Prints one line per run and a summary (on stderr with --json -);\n"
         "exits with the code of the worst outcome (see `aot-harness outcomes`).\n"
         "Never writes into the golden directory.",
         {{"pipeline", "P", "only these pipelines: names and globs, comma-separated ('blur*,sobel')"},
          {"profile", "T", "only these profiles ('opencl*', 'cpu,host')"},
          {"case", "C", "only these cases ('small,odd')"},
          {"mode", "M",
           "buffer mode: host (Halide copies; default), device (inputs pre-copied, outputs\n"
           "read back by the harness), wrapped-host-visible / wrapped-device-only (cl_mem made by\n"
           "the harness with and without host access), or all; a mode a profile cannot do is SKIP"},
          {"json", "FILE", "write {environment, runs, summary} to FILE; '-' writes it to stdout"},
          {"junit", "FILE", "write JUnit XML (one testcase per run) to FILE, for CI test reports"},
          {"timeout", "SECONDS", "per run (default 60); the child's whole process group is killed"},
          {"repeats", "N", "calls that must be bit-identical, each with its own output canary (default 3)"},
          {"fallback", "cpu", "when a GPU run does not PASS, also run the cpu variant as a separate record"},
          kGoldenDir,
          {"artifacts", "DIR",
           "keep the outputs (.npy) and golden/output/diff PNGs of failed runs\n"
           "(default with --report: <report dir>/artifacts, so the report shows them)"},
          {"report", "DIR", "write an HTML report to DIR/index.html"},
          {"xfail", "FILE",
           "known failures of a device or driver (default <golden-dir>/xfail.json):\n"
           "a matching failure is XFAIL, a matching pass XPASS"},
          {"strict-xfail", "", "an XPASS makes the exit code 1"},
          {"fail-on-output", "REGEX",
           "POSIX extended regex: a PASS or TEARDOWN_FAULT whose child printed a\n"
           "matching line is FAIL (e.g. oclgrind's 'Invalid read' reports)"},
          {"jobs", "N", "runs at once (default: one per core); lines print as runs finish, [n/N elapsed]"},
          {"gpu-jobs", "K", "runs at once on one GPU device (default: half the jobs, 1 to 8)"},
          {"batch", "N",
           "cases per child process at most (default 16; 1 = a child of its own per case).\n"
           "A case that does not PASS (unless it was the child's first), crashes or dies at\n"
           "exit is re-run alone: the verdicts are those of one child per case"},
          {"shard", "i/n", "only shard i of n: a partition by test name, the same on every machine"},
          {"flake-retries", "N", "re-runs of an unexpected failure (default 1, 0 = none); one that passes is FLAKE"},
          {"baseline", "FILE", "expected failures and flakes (from --baseline-out): only new failures fail"},
          {"baseline-out", "FILE", "write this run's failures and flakes as a baseline"},
          {"repro-bundles", "DIR",
           "after the run, an `aot-harness repro` bundle of each FAIL, ERROR, CRASH, TIMEOUT or\n"
           "TEARDOWN_FAULT into DIR (the report links them; needs the build tree)"},
          {"no-device-release", "",
           "children exit with the GPU runtime live, as an app that never calls\n"
           "halide_device_release does; one that then dies at exit is\n"
           "TEARDOWN_FAULT, re-run with the release to tell cleanup order from a driver crash"},
          kDevice,
          {"expect-device", "GLOB",
           "fail at start-up unless every GPU profile's device name matches GLOB (the\n"
           "driver's own name, e.g. 'Mali-G7*'; default $AOT_HARNESS_EXPECT_DEVICE)"},
          {"expect-driver", "GLOB",
           "fail at start-up unless every GPU profile's driver version matches GLOB\n"
           "(default $AOT_HARNESS_EXPECT_DRIVER)"}}},
        {"__run-one",
         "",
         "the child side of run: one case, record written before a normal exit",
         "",
         {{"pipeline", "P", ""},
          {"profile", "T", ""},
          {"case", "C", ""},
          {"mode", "M", ""},
          kGoldenDir,
          {"record", "FILE", ""},
          {"artifacts", "DIR", ""},
          {"repeats", "N", ""},
          {"no-device-release", "", ""},
          {"device", "NAME", ""}},
         true},
        {"bench",
         "",
         "Google Benchmark over pipelines x profiles x cases (Google's JSON schema)",
         "Times every selected pipeline x profile x case with Google Benchmark, each profile's benchmarks\n"
         "in a child process: `resident` (inputs on the device, outputs left there) for every profile and\n"
         "`roundtrip` (inputs copied in, outputs copied back, device memory released) for GPU profiles.\n"
         "Counters: pixels_per_second, bytes_per_second and pct_of_copy_bw (a copy of the same bytes, after\n"
         "every iteration: host memcpy, or the profile's own runtime's device-to-device copy). Filters as run.\n"
         "Google Benchmark's own flags (--benchmark_filter=..., --benchmark_enable_random_interleaving=true)\n"
         "pass through. A driver that crashes at exit after its results were written loses nothing and does\n"
         "not fail the run. Exit: 0 all ran, 1 a benchmark failed, 3 a child crashed, 5 timed out, 77 nothing\n"
         "can run here.",
         {{"pipeline", "P", "only these pipelines: names and globs, comma-separated ('blur*,sobel')"},
          {"profile", "T", "only these profiles ('opencl*', 'cpu,host')"},
          {"case", "C", "only these cases (default: every case of the spec, nightly ones included)"},
          {"size", "WxH", "cases of these image sizes ('1920x1080,4096x4096'; specs with make_case)"},
          {"mode", "M", "resident, roundtrip (GPU profiles) or all (default)"},
          {"repetitions", "N", "repetitions of each benchmark (--benchmark_repetitions)"},
          {"min-time", "SECONDS", "minimum time of each repetition (--benchmark_min_time)"},
          {"halide-pool", "POOL",
           "Halide's parallel loops on: halide (its own pool, default) or harness[:SPIN_US] (harness::ParallelPool)"},
          {"quick", "", "one iteration per benchmark: a smoke run, no timing value"},
          {"kernels", "",
           "per GPU benchmark, every kernel's device time after the timed loop (20 more calls\n"
           "with each launch timed by the runtime: OpenCL profiling events, CUDA events, Vulkan\n"
           "timestamps), its share of the wall time and its launch shape: in the JSON (\"kernels\")\n"
           "and the report"},
          {"json", "FILE", "write Google Benchmark's JSON (all profiles, one file) to FILE"},
          {"timeout", "SECONDS", "per profile (default 3600); the child's process group is killed"},
          kGoldenDir},
         false,
         true},
        {"__bench-one",
         "",
         "the child side of bench: one profile's benchmarks",
         "",
         {{"pipeline", "P", ""},
          {"profile", "T", ""},
          {"case", "C", ""},
          {"size", "WxH", ""},
          {"mode", "M", ""},
          {"repetitions", "N", ""},
          {"min-time", "SECONDS", ""},
          {"halide-pool", "POOL", ""},
          {"quick", "", ""},
          {"kernels", "", ""},
          {"json", "FILE", ""},
          {"record", "FILE", ""},
          kGoldenDir},
         true,
         true},
        {"__run-batch",
         "",
         "the child side of run: several cases in order, a start marker and a record per case",
         "",
         {{"tasks", "FILE", ""},
          kGoldenDir,
          {"record", "PREFIX", ""},
          {"artifacts", "DIR", ""},
          {"repeats", "N", ""},
          {"device", "NAME", ""}},
         true},
        {"bless",
         "",
         "write goldens from the cpu profile (checked against the reference)",
         "Runs the cpu profile, checks each result against the spec's plain C++ reference and only\n"
         "then writes golden/<p>/<case>.npy and golden/MANIFEST.json, as one transaction, under a lock\n"
         "on the golden directory (a bless interrupted earlier is completed or discarded first).",
         {{"pipeline", "P", "bless these pipelines (comma-separated names and globs, as run's)"},
          {"all", "", "bless every pipeline"},
          {"case", "C", "only this case"},
          kGoldenDir,
          {"wait", "SECONDS", "wait up to SECONDS for another bless of the directory (default 0: fail at once)"},
          {"platform-hash", "",
           "only unstored (nightly) goldens blessed on another platform: record this platform's cpu hash beside "
           "theirs (float bits that legitimately differ, e.g. arm64)"}}},
        {"golden",
         "verify|recover",
         "check goldens against golden/MANIFEST.json, or finish a killed bless",
         "verify: checks every golden's sha256, dtype and shape against golden/MANIFEST.json, reports\n"
         "files without entries and goldens whose generator changed since they were blessed. Exit 0 if\n"
         "all good, 1 otherwise. recover: completes a bless that was killed after its commit point, or\n"
         "discards one killed before it (under the bless lock).",
         {kGoldenDir}},
        {"report",
         "",
         "write an HTML report of a results file",
         "Writes DIR/index.html from a results file written by `run --json`.",
         {{"results", "FILE", "the results file"}, {"out", "DIR", "the report directory"}}},
        {"repro",
         "<pipeline>/<profile>/<case>",
         "a .tar.gz a driver vendor builds and runs without the harness",
         "Packs one variant and case as a standalone reproducer: the variant's static library, header\n"
         "and registration file, the Halide runtime, a small main that loads the inputs and compares\n"
         "with the golden under the pipeline's tolerance, inputs/golden/output as .npy, the device code\n"
         "as the driver gets it, the environment, a run.sh whose exit code is the verdict and a README.\n"
         "Runs the case once here first (what the harness saw goes into the README). Needs the build tree.",
         {{"out", "FILE", "the bundle (default repro-<pipeline>-<profile>-<case>.tar.gz)"},
          kGoldenDir,
          kBuildDir,
          {"no-prebuilt", "", "do not put a binary built here into the bundle's bin/"}}},
        {"bisect",
         "<pipeline>",
         "the first stage whose values differ between cpu and a profile",
         "Re-runs the pipeline's generator (unmodified) with the harness's plugin to dump every\n"
         "intermediate Func that can be materialised, builds it AOT for cpu and for --profile, runs both on\n"
         "--case's inputs and names the first stage, in producer order, whose values differ beyond the\n"
         "tolerance, with its worst coordinate and values. Two P builds: as scheduled (only what the schedule\n"
         "computes at the root is dumped) and with every stage materialised; says which stages could not be\n"
         "dumped and when materialising makes the difference vanish. Exit 0 no stage differs, 1 one does,\n"
         "2 the bisect could not run. Needs the build tree and a C++ compiler.",
         {{"profile", "P", "the profile to compare with cpu (required)"},
          {"case", "C", "the case whose inputs are used (default small)"},
          kGoldenDir,
          kBuildDir,
          {"keep", "DIR", "keep the builds, dumps and logs in DIR"}}},
        {"outcomes",
         "",
         "the outcome table: order, exit codes, colours",
         "The outcomes of a run, least severe first (the worst of a run decides its exit code), with\n"
         "exit code, colour and meaning.",
         {kJsonFlag}},
        // The installed tools (Python, scripts/harnesslib/), on this project's build, goldens and out/.
        {"nightly", "", "matrix + benchmarks into the history, compare, dashboard", kToolHelp, {}, false, true},
        {"history", "", "the history: ingest, list, migrate", kToolHelp, {}, false, true},
        {"compare", "A B", "two runs: benchmark changes (Mann-Whitney U), outcome flips", kToolHelp, {}, false, true},
        {"dashboard", "", "HTML dashboard of the history", kToolHelp, {}, false, true},
        {"driver-diff", "OLD NEW", "driver qualification report of two runs", kToolHelp, {}, false, true},
        {"merge", "FILE...", "shards' results files into one", kToolHelp, {}, false, true},
        {"device-ctest", "", "run the CTest suite on a device, results back", kToolHelp, {}, false, true},
        {"lava-job", "", "LAVA jobs for a device farm; fetch their results", kToolHelp, {}, false, true},
        {"bisect-commit",
         "GOOD BAD",
         "the first commit where a pipeline got slower or its outcome changed",
         kToolHelp,
         {},
         false,
         true},
        {"explore",
         "",
         "random pipelines and schedules on every driver, divergences shrunk",
         kToolHelp,
         {},
         false,
         true},
    };
    return t;
}

std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const auto &c : commands())
        names.push_back(c.name);
    return names;
}

const CommandSpec &find_command(const std::string &name) {
    std::string known;
    for (const auto &c : commands()) {
        if (c.name == name) return c;
        if (!c.hidden) known += (known.empty() ? "" : ", ") + c.name;
    }
    throw Error("unknown command '" + name + "'; commands: " + known + "; see aot-harness --help");
}

namespace {

// The synopsis as words: the operands, then "[--name VALUE]" per option.
std::vector<std::string> synopsis_words(const CommandSpec &command) {
    std::vector<std::string> words;
    if (!command.operands.empty()) words.push_back(command.operands);
    for (const auto &o : command.options)
        words.push_back("[--" + o.name + (o.value.empty() ? "" : " " + o.value) + "]");
    return words;
}

}  // namespace

std::string synopsis(const CommandSpec &command) {
    std::string s;
    for (const auto &w : synopsis_words(command))
        s += (s.empty() ? "" : " ") + w;
    return s;
}

std::string usage_text() {
    std::string s = "usage: aot-harness <command> [options]\n\n"
                    "Runs AOT-compiled Halide pipelines on every target profile, each run in its own process, and\n"
                    "compares the results with the goldens in golden/.\n\ncommands:\n";
    for (const auto &c : commands()) {
        if (c.hidden) continue;
        const std::string head = c.name + (c.operands.empty() ? "" : " " + c.operands);
        s += "  " + head + std::string(head.size() < 22 ? 22 - head.size() : 1, ' ') + c.summary + "\n";
    }
    s += "\nEach command has --help; --version prints the harness version and git commit. Exit codes of run (the worst "
         "outcome wins, see `aot-harness outcomes`):\n ";
    for (const auto &o : outcome_table())
        s += " " + std::to_string(o.exit_code) + " " + o.name + ",";
    s.back() = '.';
    return s + "\n";
}

std::string help_text(const CommandSpec &command) {
    std::string s = "usage: aot-harness " + command.name;
    const size_t indent = s.size();
    size_t column = indent;
    for (const auto &w : synopsis_words(command)) {  // wrapped at about 100 columns
        if (column + 1 + w.size() > 100 && column > indent) {
            s += "\n" + std::string(indent, ' ');
            column = indent;
        }
        s += " " + w;
        column += 1 + w.size();
    }
    s += "\n";
    if (!command.help.empty()) s += "\n" + command.help + "\n";
    if (!command.options.empty()) s += "\noptions:\n";
    for (const auto &o : command.options) {
        const std::string head = "--" + o.name + (o.value.empty() ? "" : " " + o.value);
        std::string text = o.help;  // continuation lines under the first
        for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
            text.insert(at + 1, 26, ' ');
        s += "  " + head + std::string(head.size() < 24 ? 24 - head.size() : 1, ' ') + text + "\n";
    }
    return s;
}

CommandOptions command_options(const std::string &command) {
    CommandOptions o;
    for (const auto &opt : find_command(command).options)
        (opt.value.empty() ? o.flags : o.with_value).insert(opt.name);
    return o;
}

Args parse_command_args(const std::string &command, const std::vector<std::string> &argv) {
    const CommandOptions o = command_options(command);
    Args args(command, argv, o.with_value, o.flags);
    if (command == "describe" && args.positional().size() != 1) {
        throw Error("describe takes one pipeline name; see aot-harness list");
    }
    if (command == "bless" && args.has("pipeline") == args.has("all")) {
        throw Error("bless needs --pipeline P or --all; see aot-harness list");
    }
    if (command == "bless" && args.has("pipeline") && args.get("pipeline").empty()) {
        // An empty filter would select every pipeline (an unset variable in a script): --all says that.
        throw Error("bless --pipeline is empty; name the pipelines (names and globs) or use --all");
    }
    if (command == "bless") args.number("wait", 0, 0, 86400);
    if (command == "golden" && args.positional() != std::vector<std::string>{"verify"} &&
        args.positional() != std::vector<std::string>{"recover"}) {
        throw Error("usage: aot-harness golden verify|recover [--golden-dir DIR]");
    }
    if (command == "report" && (!args.has("results") || !args.has("out"))) {
        throw Error("report needs --results FILE and --out DIR");
    }
    if (command == "__run-one" || command == "__run-batch") args.whole("repeats", 3, 1, 100);
    if (command == "repro" && args.positional().size() != 1) {
        throw Error("repro takes one test, <pipeline>/<profile>/<case>; see aot-harness list");
    }
    if (command == "bisect" && (args.positional().size() != 1 || !args.has("profile"))) {
        throw Error("usage: aot-harness bisect <pipeline> --profile P [--case C]; see aot-harness list");
    }
    if (command != "describe" && command != "golden" && command != "repro" && command != "bisect" &&
        !args.positional().empty()) {
        throw Error("'" + command + "' takes no argument '" + args.positional()[0] + "'; see aot-harness " + command +
                    " --help");
    }
    return args;
}

RunOptions run_options(const Args &args) {
    RunOptions r;
    r.pipeline = args.get("pipeline");
    r.profile = args.get("profile");
    r.case_name = args.get("case");
    r.golden_dir = args.get("golden-dir");
    r.artifacts = args.get("artifacts");
    if (r.artifacts.empty() && args.has("report")) r.artifacts = args.get("report") + "/artifacts";
    r.xfail = args.get("xfail");
    r.json = args.get("json");
    r.junit = args.get("junit");
    r.report = args.get("report");
    r.timeout = args.number("timeout", 60, 1, 86400);
    r.repeats = static_cast<int>(args.whole("repeats", 3, 1, 100));
    r.fail_on_output = args.get("fail-on-output");
    if (!r.fail_on_output.empty()) OutputPattern check(r.fail_on_output);
    const std::string mode = args.get("mode", "host");
    if (mode == "all") {
        for (BufferMode m : all_buffer_modes())
            r.modes.push_back(buffer_mode_name(m));
    } else {
        r.modes = {buffer_mode_name(buffer_mode_from_name(mode))};
    }
    r.fallback = args.get("fallback");
    if (!r.fallback.empty() && r.fallback != "cpu") throw Error("--fallback takes 'cpu' (the only fallback profile)");
    r.strict_xfail = args.has("strict-xfail");
    r.jobs = static_cast<int>(args.whole("jobs", 0, 1, 1024));
    r.gpu_jobs = static_cast<int>(args.whole("gpu-jobs", 0, 1, 1024));
    r.batch = static_cast<int>(args.whole("batch", 16, 1, 1024));
    const std::string shard = args.get("shard");
    if (!shard.empty()) r.shard = parse_shard(shard);
    r.flake_retries = static_cast<int>(args.whole("flake-retries", 1, 0, 10));
    r.baseline = args.get("baseline");
    r.baseline_out = args.get("baseline-out");
    r.no_device_release = args.has("no-device-release");
    r.repro_bundles = args.get("repro-bundles");
    r.device = args.get("device");
    if (!r.device.empty() && r.device != "none") find_device_personality(r.device);  // unknown: lists the known ones
    const char *env_device = std::getenv("AOT_HARNESS_EXPECT_DEVICE");
    const char *env_driver = std::getenv("AOT_HARNESS_EXPECT_DRIVER");
    r.expect_device = args.get("expect-device", env_device ? env_device : "");
    r.expect_driver = args.get("expect-driver", env_driver ? env_driver : "");
    return r;
}

}  // namespace harness
