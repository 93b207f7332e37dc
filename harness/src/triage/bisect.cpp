// run_bisect: the three instrumented builds of a pipeline, run on one case and compared (bisect.h).
#include "triage/bisect.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "triage/bisect_stages.h"
#include "base/error.h"
#include "base/files.h"
#include "base/temp_dir.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "triage/repro.h"
#include "base/variant_info.h"
#include "matrix/run_matrix.h"

namespace harness {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs `cmd` with sh; its exit status (128+signal for a signal, -1 when sh could not run).
int shell(const std::string &cmd) {
    const int status = std::system(cmd.c_str());
    if (status == -1) return -1;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string last_lines(const std::string &path) {
    std::string text;
    read_file_if_exists(path, &text);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    size_t start = text.size();
    for (int lines = 0; lines < 3 && start > 0; lines++)
        start = text.rfind('\n', start - 1) == std::string::npos ? 0 : text.rfind('\n', start - 1);
    std::string tail = text.substr(start);
    for (char &c : tail)
        if (c == '\n') c = ' ';
    return tail.find_first_not_of(' ') == std::string::npos ? "(no output)" : tail.substr(tail.find_first_not_of(' '));
}

// What the passes run besides the build's generators (bisect_tools()).
struct BisectTools {
    std::string plugin;     // the plugin, for -p
    std::string generator;  // harness-bisect-generator, for a Python generator ("" otherwise)
    std::string python;     // bisect_python.py in the work directory
};

// The command that makes bisect_pipeline.{a,h,registration.cpp} in the current directory: the C++
// generator with the plugin, or the Python generator's pipeline serialized, then compiled by the plugin.
std::string generator_command(const VariantInfo &v, const std::string &mode, const BisectTools &tools) {
    const std::string env = "HARNESS_BISECT_MODE=" + mode + " HARNESS_BISECT_STAGES=stages.json ";
    const std::string outputs = " -f bisect_pipeline -n bisect_pipeline -e static_library,c_header,registration -o . " +
                                shell_quote("target=" + v.target);
    std::string params;
    for (const auto &p : v.params)
        params += " " + shell_quote(p);
    if (v.generator.empty()) {
        return "PYTHONPATH=" + shell_quote(v.python_path) + "${PYTHONPATH:+:$PYTHONPATH} " + shell_quote(v.python) +
               " " + shell_quote(tools.python) + " " + shell_quote(v.python_source) + " " +
               shell_quote(v.generator_name) + " " + shell_quote(v.target) + " pipeline.hlpipe arginfos.json" + params +
               " && " + env + "HARNESS_BISECT_HLPIPE=pipeline.hlpipe HARNESS_BISECT_ARGINFOS=arginfos.json " +
               shell_quote(tools.generator) + " -p " + shell_quote(tools.plugin) + " -g harness_bisect_hlpipe" +
               outputs;
    }
    return env + shell_quote(v.generator) + " -p " + shell_quote(tools.plugin) + " -g " +
           shell_quote("harness_bisect_" + v.generator_name) + outputs + params;
}

// One build: the generator with the plugin, the repro main compiled against it, one run in `dir`.
BisectPass build_and_run(const VariantInfo &v, const std::string &runtime, const std::string &mode,
                         const BisectTools &tools, const std::string &work, const std::string &dir) {
    const auto t0 = std::chrono::steady_clock::now();
    BisectPass pass;
    pass.mode = mode;
    pass.target = v.target;
    make_dirs(dir + "/output");
    for (const char *link : {"inputs", "golden"})
        (void)!symlink((work + "/" + link).c_str(), (dir + "/" + link).c_str());
    const std::string q = shell_quote(dir);
    if (shell("cd " + q + " && (" + generator_command(v, mode, tools) + ") >generator.log 2>&1") != 0) {
        pass.error = "the generator failed (" + dir + "/generator.log): " + last_lines(dir + "/generator.log");
        pass.seconds = seconds_since(t0);
        return pass;
    }
    std::string define;
    if (runtime != "none") {
        define = " -DREPRO_RUNTIME_";
        for (char c : runtime)
            define += char(std::toupper(static_cast<unsigned char>(c)));
    }
    const std::string include = v.halide_include.substr(0, v.halide_include.find(';'));
    const std::string cc = "cd " + q + " && " + shell_quote(v.cxx.empty() ? "c++" : v.cxx) + " -std=c++17 -O1 -I " +
                           shell_quote(include) + define +
                           " ../main.cpp bisect_pipeline.registration.cpp bisect_pipeline.a -ldl -lpthread -lm"
                           " -o runner >compile.log 2>&1";
    if (shell(cc) != 0) {
        pass.error = "compiling the runner failed (" + dir + "/compile.log): " + last_lines(dir + "/compile.log");
        pass.seconds = seconds_since(t0);
        return pass;
    }
    pass.exit_code = shell("cd " + q + " && REPRO_BOUNDS=bounds.txt ./runner ../case.txt >run.log 2>&1");
    if (pass.exit_code != 0 && pass.exit_code != 1) {
        pass.error = "the run failed with exit status " + std::to_string(pass.exit_code) + " (" + dir +
                     "/run.log): " + last_lines(dir + "/run.log");
    }
    pass.seconds = seconds_since(t0);
    return pass;
}

// CMAKE_COMMAND of the build tree (its CMakeCache.txt), "" if it has none.
std::string build_cmake(const std::string &build_dir) {
    std::string cache;
    if (!read_file_if_exists(build_dir + "/CMakeCache.txt", &cache)) return "";
    const std::string key = "\nCMAKE_COMMAND:INTERNAL=";
    const size_t at = cache.find(key);
    if (at == std::string::npos) return "";
    const size_t start = at + key.size();
    return cache.substr(start, cache.find('\n', start) - start);
}

// The plugin (and for a Python generator harness-bisect-generator) in <build>/bin: built now when the
// build defines them but has not built them (an outside project's aot_harness_finalize()).
BisectTools bisect_tools(const std::string &build_dir, bool python) {
    BisectTools t;
    t.plugin = build_dir + "/bin/libharness_bisect_plugin.so";
    if (python) t.generator = build_dir + "/bin/harness-bisect-generator";
    const auto missing = [&] {
        return access(t.plugin.c_str(), R_OK) != 0 || (python && access(t.generator.c_str(), X_OK) != 0);
    };
    const std::string targets = std::string("harness_bisect_plugin") + (python ? " harness-bisect-generator" : "");
    const std::string how = "cmake --build " + build_dir + " --target " + targets;
    if (!missing()) return t;
    const std::string cmake = build_cmake(build_dir);
    if (cmake.empty()) {
        throw Error("the bisect plugin " + t.plugin + " is missing and " + build_dir +
                    " is no CMake build tree; pass the build tree that made the pipelines with --build-dir");
    }
    std::fprintf(stderr, "bisect: building %s in %s (once)\n", targets.c_str(), build_dir.c_str());
    const std::string log = build_dir + "/bin/harness-bisect-build.log";
    make_dirs(build_dir + "/bin");
    if (shell(shell_quote(cmake) + " --build " + shell_quote(build_dir) + " --target " + targets + " >" +
              shell_quote(log) + " 2>&1") != 0 ||
        missing()) {
        throw Error("the bisect tools " + t.plugin + (python ? " and " + t.generator : "") + " could not be built (" +
                    log + ": " + last_lines(log) + "); build them (" + how + ") and run bisect again");
    }
    return t;
}

}  // namespace

BisectReport run_bisect(const BisectRequest &req) {
    const auto t0 = std::chrono::steady_clock::now();
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(req.pipeline);
    const CaseSpec &c = spec.find_case(req.case_name);
    const Profile &profile = find_profile(req.profile);
    const Variant *cpu_v = reg.find(req.pipeline, "cpu"), *p_v = reg.find(req.pipeline, req.profile);
    if (!p_v) throw Error("pipeline " + req.pipeline + " has no " + req.profile + " variant in this build");
    if (!p_v->compile_error.empty()) throw Error(compile_error_message(*p_v) + "; there is nothing to bisect");
    const VariantInfo cpu_info = load_variant_info(req.build_dir, cpu_v->function_name);
    const VariantInfo p_info = load_variant_info(req.build_dir, p_v->function_name);
    for (const VariantInfo *v : {&cpu_info, &p_info}) {
        if (v->generator.empty() && (v->python_source.empty() || v->python.empty()))
            throw Error("the build description of " + v->function +
                        " names no generator executable and no Python "
                        "generator with its interpreter; re-run cmake on the build tree (" +
                        req.build_dir + ")");
    }
    if (!p_info.autoscheduler.empty())
        throw Error(req.pipeline + " is built with an autoscheduler (" + p_info.autoscheduler +
                    "); bisect runs the generator without it and cannot do that yet");
    for (const std::string &prof : {std::string("cpu"), req.profile}) {
        const std::string why = pipeline_unavailable_reason(check_availability(), spec, prof);
        if (!why.empty())
            throw Error(req.pipeline + " cannot run on " + prof + " here (" + why + "); nothing to bisect");
    }
    BisectTools tools = bisect_tools(req.build_dir, cpu_info.generator.empty() || p_info.generator.empty());

    std::unique_ptr<TempDir> temp;  // under $TMPDIR, removed on every way out, unless --keep
    std::string work = req.keep;
    if (work.empty()) {
        temp = std::make_unique<TempDir>("aot-harness-bisect");
        work = temp->path();
    } else if (int err = make_dirs(work); err != 0) {
        throw Error("cannot create " + work + ": " + std::strerror(err) + "; choose a writable --keep directory");
    }
    std::vector<Array> inputs, goldens;
    write_repro_case(work, spec, c, req.golden_dir, &inputs, &goldens);
    write_file_atomic(work + "/main.cpp", repro_main_source());
    tools.python = work + "/bisect_python.py";
    write_file_atomic(tools.python, bisect_python_source());

    BisectReport r;
    r.id = req.pipeline + "/" + req.profile + "/" + req.case_name;
    r.tolerance = spec.tolerance.name();
    r.cpu = build_and_run(cpu_info, "none", "materialise", tools, work, work + "/cpu");
    r.scheduled = build_and_run(p_info, profile.runtime, "scheduled", tools, work, work + "/scheduled");
    r.materialised = build_and_run(p_info, profile.runtime, "materialise", tools, work, work + "/materialised");
    compare_bisect_passes(spec, work, r);
    if (req.keep.empty() && !(r.cpu.error + r.scheduled.error + r.materialised.error).empty())
        r.conclusion += " (the logs named above go with the temporary directory; --keep DIR keeps them)";
    r.seconds = seconds_since(t0);
    return r;
}

}  // namespace harness
