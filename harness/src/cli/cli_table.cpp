// The command table of aot-harness (cli_options.h): every command and each of its options, defined once.
// An option used by several commands (bench and its child) is one constant here; the rows of run's children
// (and --repeats, which run passes on) are the protocol's (run/child_protocol.h).
#include "base/args.h"
#include "base/error.h"
#include "cli/cli_options.h"
#include "run/child_protocol.h"

namespace harness {

namespace {

using O = OptionSpec;

const O kGoldenDir =
    O::text("golden-dir", "DIR", "the golden directory (default: $AOT_HARNESS_GOLDEN_DIR, else golden/)");
const O kJsonFlag = O::flag("json", "machine-readable JSON on stdout");
const O kDevice = O::text("device", "NAME",
                          "OpenCL and Vulkan runs behave within this device's limits (mali-g52, mali-g76,\n"
                          "mali-g610, mali-g710: harness/src/devices/personalities.json): device queries\n"
                          "answer its values, a kernel needing more work-items, local memory or fp64 than\n"
                          "it has fails as its driver would (default: the profile's `device`, if any;\n"
                          "none: no personality, the driver as it is)");
const O kBuildDir = O::text("build-dir", "DIR",
                            "the build tree that made the variants (default: $AOT_HARNESS_BUILD_DIR, else\n"
                            "the parent of this executable's directory)");
const O kPipelines = O::text("pipeline", "P", "only these pipelines: names and globs, comma-separated ('blur*,sobel')");
const O kProfiles = O::text("profile", "T", "only these profiles ('opencl*', 'cpu,host')");
const O kRunMode = O::text("mode", "M",
                           "buffer mode: host (Halide copies), device (inputs pre-copied, outputs\n"
                           "read back by the harness), wrapped-host-visible / wrapped-device-only (cl_mem made by\n"
                           "the harness with and without host access), or all; a mode a profile cannot do is SKIP",
                           "host");
const O kArtifacts = O::text("artifacts", "DIR",
                             "keep the outputs (.npy) and golden/output/diff PNGs of failed runs\n"
                             "(default with --report: <report dir>/artifacts, so the report shows them)");
const O kNoDeviceRelease =
    O::flag("no-device-release", "children exit with the GPU runtime live, as an app that never calls\n"
                                 "halide_device_release does; one that then dies at exit is\n"
                                 "TEARDOWN_FAULT, re-run with the release to tell cleanup order from a driver crash");
const O kRecord = O::text("record", "FILE", "where the child writes its record");
const char *const kToolHelp = "An installed tool (Python); `aot-harness <tool> --help` prints its options.";

// bench's options; its child (__bench-one) takes the same and --record.
std::vector<O> bench_options_rows(bool child) {
    std::vector<O> rows{
        kPipelines,
        kProfiles,
        O::text("case", "C", "only these cases (default: every case of the spec, nightly ones included)"),
        O::text("size", "WxH", "cases of these image sizes ('1920x1080,4096x4096'; specs with make_case)"),
        O::text("mode", "M", "resident, roundtrip (GPU profiles) or all", "all"),
        O::whole("repetitions", "N", "repetitions of each benchmark (--benchmark_repetitions)", 0, 1, 1000)
            .default_text("Google Benchmark's"),
        O::number("min-time", "SECONDS", "minimum time of each repetition (--benchmark_min_time)", 0, 0, 3600)
            .default_text("Google Benchmark's"),
        O::text("halide-pool", "POOL",
                "Halide's parallel loops on: halide (its own pool) or harness[:SPIN_US] (harness::ParallelPool)",
                "halide"),
        O::flag("quick", "one iteration per benchmark: a smoke run, no timing value"),
        O::flag("kernels", "per GPU benchmark, every kernel's device time after the timed loop (20 more calls\n"
                           "with each launch timed by the runtime: OpenCL profiling events, CUDA events, Vulkan\n"
                           "timestamps), its share of the wall time and its launch shape; per CPU benchmark,\n"
                           "Halide's profiler per Func from the variant's profiled twin (built with\n"
                           "-DAOT_HARNESS_FUNC_PROFILE=<profile>): in the JSON (\"kernels\") and the report"),
        O::text("json", "FILE", "write Google Benchmark's JSON (all profiles, one file) to FILE"),
        O::number("timeout", "SECONDS", "per profile; the child's process group is killed", 3600, 1, 86400),
        kGoldenDir};
    if (child) rows.push_back(kRecord);
    return rows;
}

// bless: --pipeline or --all, and a --pipeline that names something.
void check_bless(const Args &args) {
    if (args.has("pipeline") == args.has("all")) throw Error("bless needs --pipeline P or --all; see aot-harness list");
    if (args.has("pipeline") && args.get("pipeline").empty()) {
        // An empty filter would select every pipeline (an unset variable in a script): --all says that.
        throw Error("bless --pipeline is empty; name the pipelines (names and globs) or use --all");
    }
}

CommandSpec tool(const char *name, const char *operands, const char *summary) {
    return {name, operands, summary, kToolHelp, {}, false, true};
}

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
          O::flag("resources", "per GPU variant and kernel: what it asks of the device, against each device's limits"),
          O::text("case", "C", "with --resources: the case to run (default the first)"),
          O::text("device", "NAME", "with --resources: only this device's limits (default every personality)"),
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
          O::text("bench", "FILE", "the machine blocks this bench JSON recorded (aot-harness bench --json FILE)"),
          O::number("sample", "SECONDS", "sample for SECONDS and print what the machine did", 0, 0, 3600)
              .default_text("one reading")}},
        {"run",
         "",
         "run cases in child processes, compare with goldens",
         "Runs every selected pipeline x profile x case in its own child process and compares the\n"
         "outputs with the goldens. Filters take comma-separated names and globs, e.g. --pipeline\n"
         "'blur*,sobel' (default: all). Prints one line per run and a summary (on stderr with --json -);\n"
         "exits with the code of the worst outcome (see `aot-harness outcomes`).\n"
         "Never writes into the golden directory.",
         {kPipelines,
          kProfiles,
          O::text("case", "C", "only these cases ('small,odd')"),
          kRunMode,
          O::text("json", "FILE", "write {environment, runs, summary} to FILE; '-' writes it to stdout"),
          O::text("junit", "FILE", "write JUnit XML (one testcase per run) to FILE, for CI test reports"),
          O::number("timeout", "SECONDS", "per run; the child's process group is killed", 120, 1, 86400)
              .default_text("this build's ctest limit, 120 unless aot_harness_finalize(TIMEOUT)"),
          repeats_option(),
          O::text("fallback", "cpu", "when a GPU run does not PASS, also run the cpu variant as a separate record"),
          kGoldenDir,
          kArtifacts,
          O::text("report", "DIR", "write an HTML report to DIR/index.html"),
          O::text("xfail", "FILE",
                  "known failures of a device or driver (default <golden-dir>/xfail.json):\n"
                  "a matching failure is XFAIL, a matching pass XPASS"),
          O::flag("strict-xfail", "an XPASS makes the exit code 1"),
          O::text("fail-on-output", "REGEX",
                  "POSIX extended regex: a PASS or TEARDOWN_FAULT whose child printed a\n"
                  "matching line is FAIL (e.g. oclgrind's 'Invalid read' reports)"),
          O::whole("jobs", "N", "runs at once; lines print as runs finish, [n/N elapsed]", 0, 1, 1024)
              .default_text("one per core"),
          O::whole("gpu-jobs", "K", "runs at once on one GPU device", 0, 1, 1024).default_text("half the jobs, 1 to 2"),
          O::whole("batch", "N",
                   "cases per child process at most (1 = a child of its own per case).\n"
                   "A case that does not PASS (unless it was the child's first), crashes or dies at\n"
                   "exit is re-run alone: the verdicts are those of one child per case",
                   16, 1, 1024),
          O::text("shard", "i/n", "only shard i of n: a partition by test name, the same on every machine"),
          O::whole("flake-retries", "N", "re-runs of an unexpected failure (0 = none); one that passes is FLAKE", 1, 0,
                   10),
          O::text("baseline", "FILE", "expected failures and flakes (from --baseline-out): only new failures fail"),
          O::text("baseline-out", "FILE", "write this run's failures and flakes as a baseline"),
          O::text("repro-bundles", "DIR",
                  "after the run, an `aot-harness repro` bundle of each FAIL, ERROR, CRASH, TIMEOUT or\n"
                  "TEARDOWN_FAULT into DIR (the report links them; needs the build tree)"),
          kNoDeviceRelease,
          kDevice,
          O::text("expect-device", "GLOB",
                  "fail at start-up unless every GPU profile's device name matches GLOB (the\n"
                  "driver's own name, e.g. 'Mali-G7*'; default $AOT_HARNESS_EXPECT_DEVICE)"),
          O::text("expect-driver", "GLOB",
                  "fail at start-up unless every GPU profile's driver version matches GLOB\n"
                  "(default $AOT_HARNESS_EXPECT_DRIVER)")}},
        {child_command(false), "", "the child side of run: one case (run/child_protocol.h)", "", child_options(false),
         true},
        {"bench", "", "Google Benchmark over pipelines x profiles x cases (Google's JSON schema)",
         "Times every selected pipeline x profile x case with Google Benchmark, each profile's benchmarks\n"
         "in a child process: `resident` (inputs on the device, outputs left there) for every profile and\n"
         "`roundtrip` (inputs copied in, outputs copied back, device memory released) for GPU profiles.\n"
         "Counters: pixels_per_second, bytes_per_second and pct_of_copy_bw (a copy of the same bytes, after\n"
         "every iteration: host memcpy, or the profile's own runtime's device-to-device copy). Filters as run.\n"
         "Google Benchmark's own flags (--benchmark_filter=..., --benchmark_enable_random_interleaving=true)\n"
         "pass through. A driver that crashes at exit after its results were written loses nothing and does\n"
         "not fail the run. Exit: 0 all ran, 1 a benchmark failed, 3 a child crashed, 5 timed out, 77 nothing\n"
         "can run here.",
         bench_options_rows(false), false, true},
        {"__bench-one", "", "the child side of bench: one profile's benchmarks", "", bench_options_rows(true), true,
         true},
        {child_command(true), "", "the child side of run: several cases in order (run/child_protocol.h)", "",
         child_options(true), true},
        {"bless",
         "",
         "write goldens from the cpu profile (checked against the reference)",
         "Runs the cpu profile, checks each result against the spec's plain C++ reference and only\n"
         "then writes golden/<p>/<case>.npy and golden/MANIFEST.json, as one transaction, under a lock\n"
         "on the golden directory (a bless interrupted earlier is completed or discarded first).",
         {O::text("pipeline", "P", "bless these pipelines (comma-separated names and globs, as run's)"),
          O::flag("all", "bless every pipeline"), O::text("case", "C", "only this case"), kGoldenDir,
          O::number("wait", "SECONDS", "wait up to SECONDS for another bless of the directory (0: fail at once)", 0, 0,
                    86400),
          O::flag("platform-hash",
                  "only unstored (nightly) goldens blessed on another platform: record this platform's cpu hash beside "
                  "theirs (float bits that legitimately differ, e.g. arm64)")},
         false,
         false,
         check_bless},
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
         {O::text("results", "FILE", "the results file").needed(),
          O::text("out", "DIR", "the report directory").needed()}},
        {"repro",
         "<pipeline>/<profile>/<case>",
         "a .tar.gz a driver vendor builds and runs without the harness",
         "Packs one variant and case as a standalone reproducer: the variant's static library, header\n"
         "and registration file, the Halide runtime, a small main that loads the inputs and compares\n"
         "with the golden under the pipeline's tolerance, inputs/golden/output as .npy, the device code\n"
         "as the driver gets it, the environment, a run.sh whose exit code is the verdict and a README.\n"
         "Runs the case once here first (what the harness saw goes into the README). Needs the build tree.",
         {O::text("out", "FILE", "the bundle (default repro-<pipeline>-<profile>-<case>.tar.gz)"), kGoldenDir,
          kBuildDir, O::flag("no-prebuilt", "do not put a binary built here into the bundle's bin/")}},
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
         {O::text("profile", "P", "the profile to compare with cpu").needed(),
          O::text("case", "C", "the case whose inputs are used", "small"), kGoldenDir, kBuildDir,
          O::text("keep", "DIR", "keep the builds, dumps and logs in DIR")}},
        {"outcomes",
         "",
         "the outcome table: order, exit codes, colours",
         "The outcomes of a run, least severe first (the worst of a run decides its exit code), with\n"
         "exit code, colour and meaning.",
         {kJsonFlag}},
        // The installed tools (Python, scripts/harnesslib/), on this project's build, goldens and out/.
        tool("nightly", "", "matrix + benchmarks into the history, compare, dashboard"),
        tool("history", "", "the history: ingest, list, migrate"),
        tool("compare", "A B", "two runs: benchmark changes (Mann-Whitney U), outcome flips"),
        tool("dashboard", "", "HTML dashboard of the history"),
        tool("driver-diff", "OLD NEW", "driver qualification report of two runs"),
        tool("merge", "FILE...", "shards' results files into one"),
        tool("device-ctest", "", "run the CTest suite on a device, results back"),
        tool("lava-job", "", "LAVA jobs for a device farm; fetch their results"),
        tool("bisect-commit", "GOOD BAD", "the first commit where a pipeline got slower or its outcome changed"),
        tool("explore", "", "random pipelines and schedules on every driver, divergences shrunk"),
    };
    return t;
}

}  // namespace harness
