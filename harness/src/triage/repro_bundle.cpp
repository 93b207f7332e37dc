// make_repro_bundle: one variant and case packed as a standalone reproducer (repro.h).
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "devices/device_release.h"
#include "report/environment.h"
#include "base/error.h"
#include "base/files.h"
#include "base/temp_dir.h"
#include "golden/golden.h"
#include "variant/invocation.h"
#include "values/npy.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "triage/repro.h"
#include "matrix/run_matrix.h"
#include "devices/runtime_hooks.h"
#include "base/version.h"

namespace harness {

namespace {

void copy_file(const std::string &from, const std::string &to) {
    std::string bytes;
    if (!read_file_if_exists(from, &bytes)) {
        throw Error("the build's file " + from + " is missing; rebuild the variant (cmake --build)");
    }
    write_file_atomic(to, bytes);
}

// Runs the case once in a forked child (a crash or a driver's exit crash must not take `repro`
// down), saving its outputs as output/<name>.harness.npy; returns one line saying what happened.
std::string run_once(const Variant &v, const PipelineSpec &spec, const CaseSpec &c, std::vector<Array> &inputs,
                     const std::vector<Array> &goldens, const std::string &dir, const std::string &runtime) {
    const std::string line_file = dir + "/.harness_run";
    fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return std::string("not run: fork failed: ") + std::strerror(errno);
    if (pid == 0) {
        std::string line;
        try {
            install_halide_error_handler();
            Invocation inv(v, c, inputs);
            std::string err;
            if (inv.call(&err) != 0) {
                line = "ERROR: the pipeline returned a Halide error: " + err;
            } else {
                const std::vector<Array> outs = inv.outputs();
                std::string verdict = "PASS";
                for (size_t i = 0; i < outs.size(); i++) {
                    npy_save(dir + "/output/" + c.outputs[i].name + ".harness.npy", outs[i]);
                    const CompareResult cr = compare(goldens.at(i), outs[i], spec.tolerance_for(c.outputs[i].name));
                    if (!cr.passed) verdict = "FAIL";
                    line += (line.empty() ? "" : "; ") + c.outputs[i].name + ": " + cr.message;
                }
                line = verdict + ": " + line;
            }
        } catch (const std::exception &e) {
            line = std::string("ERROR: ") + e.what();
        }
        write_file_atomic(line_file, line);
        release_device_runtime(runtime);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    std::string line;
    read_file_if_exists(line_file, &line);
    unlink(line_file.c_str());
    if (WIFSIGNALED(status)) {
        line = (line.empty() ? "CRASH: died before a result: " : line + "; then died: ") +
               std::string(strsignal(WTERMSIG(status)));
    }
    return line.empty() ? "no result (the run exited without one)" : line;
}

std::string device_line(const std::string &profile) {
    const Availability a = check_availability();
    if (!a.reason.at(profile).empty()) return "not available where the bundle was made: " + a.reason.at(profile);
    if (!a.selected.contains(profile)) return "the host CPU";
    const nlohmann::json &d = a.selected.at(profile);
    std::string s;
    for (const char *k : {"platform", "device", "driver_version", "version"}) {
        if (d.contains(k) && d[k].is_string())
            s += (s.empty() ? "" : ", ") + std::string(k) + " " + d[k].get<std::string>();
    }
    return s.empty() ? d.dump() : s;
}

}  // namespace

ReproBundle make_repro_bundle(const ReproRequest &req) {
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(req.pipeline);
    const Profile &profile = find_profile(req.profile);
    const CaseSpec &c = spec.find_case(req.case_name);
    const Variant *v = reg.find(req.pipeline, req.profile);
    if (!v) throw Error("pipeline " + req.pipeline + " has no " + req.profile + " variant in this build");
    if (!v->compile_error.empty()) throw Error(compile_error_message(*v) + "; there is no library to reproduce with");
    const VariantInfo info = load_variant_info(req.build_dir, v->function_name);
    const std::string id = req.pipeline + "/" + req.profile + "/" + req.case_name;
    const std::string name = "repro-" + req.pipeline + "-" + req.profile + "-" + req.case_name;
    const std::string out = req.out.empty() ? name + ".tar.gz" : req.out;
    const size_t slash = out.rfind('/');
    if (int err = make_dirs(slash == std::string::npos ? "." : out.substr(0, slash)); err != 0)
        throw Error("cannot create the directory of " + out + ": " + std::strerror(err) + "; choose a writable path");

    const TempDir staging("aot-harness-repro");  // under $TMPDIR, removed on every way out
    const std::string tmp = staging.path(), dir = tmp + "/" + name;
    for (const char *sub : {"pipeline", "include", "inputs", "golden", "output", "device", "bin"})
        make_dirs(dir + "/" + sub);

    std::vector<Array> inputs, goldens;
    write_repro_case(dir, spec, c, req.golden_dir, &inputs, &goldens);

    copy_file(info.library, dir + "/pipeline/lib" + info.function + ".a");
    copy_file(info.header, dir + "/pipeline/" + info.function + ".h");
    copy_file(info.registration, dir + "/pipeline/" + info.function + ".registration.cpp");
    copy_file(info.runtime_library, dir + "/pipeline/libharness_halide_runtime.a");
    const std::string include = info.halide_include.substr(0, info.halide_include.find(';'));
    copy_file(include + "/HalideRuntime.h", dir + "/include/HalideRuntime.h");
    std::vector<std::string> device_files;
    std::string device_code;
    if (!info.device_code.empty() && read_file_if_exists(info.device_code, &device_code)) {
        for (const auto &[file, bytes] : driver_device_code(profile.runtime, device_code)) {
            write_file_atomic(dir + "/device/" + file, bytes);
            device_files.push_back(file);
        }
    }
    write_file_atomic(dir + "/main.cpp", repro_main_source());

    const std::string harness_run = run_once(*v, spec, c, inputs, goldens, dir, profile.runtime);
    const std::string device = device_line(req.profile);
    nlohmann::json env{{"test", id},
                       {"halide_version", info.halide_version},
                       {"target", info.target},
                       {"generator", info.generator_name},
                       {"generator_params", info.params},
                       {"runtime", profile.runtime},
                       {"tolerance", spec.tolerance.name()},
                       {"tolerance_reason", spec.tolerance_reason},
                       {"harness_run", harness_run},
                       {"device", device},
                       {"made_by", version_text()},
                       {"environment", environment_info()}};
    write_file_atomic(dir + "/environment.json", env.dump(2) + "\n");
    const std::string run_sh = dir + "/run.sh";
    write_file_atomic(run_sh, repro_run_sh(info, profile.runtime, id));
    chmod(run_sh.c_str(), 0755);

    // A binary built here, for a machine without a compiler: the same command run.sh runs.
    bool prebuilt = false;
    if (req.prebuilt) {
        const std::string cxx = info.cxx.empty() ? "c++" : info.cxx;
        const std::string build = "cd " + shell_quote(dir) + " && CXX=" + shell_quote(cxx) +
                                  " REPRO_BUILD_ONLY=1 sh run.sh >/dev/null 2>&1 && mv build/repro bin/repro";
        prebuilt = std::system(build.c_str()) == 0;
        (void)!std::system(("rm -rf " + shell_quote(dir + "/build")).c_str());
    }
    write_file_atomic(dir + "/README.md",
                      repro_readme(info, profile.runtime, id, harness_run, device, device_files, prebuilt));
    const std::string tar = "tar -czf " + shell_quote(out) + " -C " + shell_quote(tmp) + " " + shell_quote(name);
    if (std::system(tar.c_str()) != 0) throw Error("tar could not write " + out + "; check the path and free space");
    return {out, harness_run};
}

}  // namespace harness
