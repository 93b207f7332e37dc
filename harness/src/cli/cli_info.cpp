// The commands that describe what is here: list, describe, env, machine (cli_commands.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "cli/cli_commands.h"
#include "base/json_stdout.h"
#include "base/number_text.h"
#include "golden/golden.h"
#include "golden/manifest.h"
#include "report/environment.h"
#include "spec/metadata_cases.h"
#include "values/element_type.h"
#include "values/npy.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "matrix/run_matrix.h"
#include "devices/vulkan_probe.h"
#include "devices/machine_state.h"
#include "base/files.h"
#include "base/json_reader.h"

namespace harness {

int cmd_list(const Args &args) {
    const Registry &reg = Registry::instance();
    const Availability avail = check_availability();
    nlohmann::json out{{"platform", build_platform()}, {"pipelines", nlohmann::json::array()}};
    for (const auto &p : profiles()) {
        out["profiles"].push_back({{"name", p.name},
                                   {"runtime", p.runtime},
                                   {"target", p.target},
                                   {"runnable", avail.reason.at(p.name).empty()},
                                   {"reason", avail.reason.at(p.name)},
                                   {"device", avail.selected.value(p.name, nlohmann::json())},
                                   {"personality", p.device}});
    }
    for (const auto &name : reg.pipelines()) {
        const PipelineSpec &spec = reg.spec(name);
        nlohmann::json pj{{"name", name}, {"summary", spec.summary}, {"tolerance", spec.tolerance.name()}};
        for (const auto &prof : reg.profiles_of(name)) {
            const Variant *v = reg.find(name, prof);
            const std::string why = !v->compile_error.empty() ?
                                        compile_error_message(*v) :
                                        pipeline_unavailable_reason(avail, spec, prof, find_profile(prof).device);
            pj["profiles"].push_back({{"name", prof},
                                      {"runtime", find_profile(prof).runtime},
                                      {"personality", find_profile(prof).device},
                                      {"target", v->metadata->target},
                                      {"runnable", why.empty()},
                                      {"reason", why}});
        }
        for (const auto &c : spec.cases)
            pj["cases"].push_back({{"name", c.name}, {"nightly", c.nightly}});
        out["pipelines"].push_back(pj);
    }
    if (args.has("json")) {
        write_json_stdout(out.dump(2) + "\n");
        return 0;
    }
    std::printf("profiles (platform %s):\n", build_platform().c_str());
    for (const auto &p : out["profiles"]) {
        std::printf(
            "  %-12s %-8s %s\n", p["name"].get<std::string>().c_str(), p["runnable"].get<bool>() ? "runnable" : "SKIP",
            p["runnable"].get<bool>() ?
                (p["device"].is_null() ?
                     "" :
                     (p["device"]["platform"].get<std::string>() + " / " + p["device"]["device"].get<std::string>())
                         .c_str()) :
                p["reason"].get<std::string>().c_str());
    }
    std::printf("pipelines:\n");
    for (const auto &pj : out["pipelines"]) {
        std::string profs, cases;
        for (const auto &p : pj["profiles"])
            profs += (profs.empty() ? "" : " ") + p["name"].get<std::string>();
        for (const auto &c : pj["cases"])
            cases += (cases.empty() ? "" : " ") + c["name"].get<std::string>() +
                     (c["nightly"].get<bool>() ? "(nightly)" : "");
        std::printf("  %-12s profiles: %s\n  %-12s cases: %s\n", pj["name"].get<std::string>().c_str(), profs.c_str(),
                    "", cases.c_str());
    }
    return 0;
}

namespace {

const char *arg_kind(int kind) {
    return kind == halide_argument_kind_input_scalar ? "scalar" :
           kind == halide_argument_kind_input_buffer ? "input" :
                                                       "output";
}

}  // namespace

namespace {

// "64x48 from (-2,-2), stored 2,0,1" for a buffer with a non-zero min or another storage order.
std::string buffer_text(const BufferSpec &b) {
    std::string s = shape_string(b.shape);
    if (!b.min.empty()) {
        std::string m;
        for (int x : b.min)
            m += (m.empty() ? "" : ",") + std::to_string(x);
        s += " from (" + m + ")";
    }
    if (!b.storage_order.empty()) {
        std::string o;
        for (int x : b.storage_order)
            o += (o.empty() ? "" : ",") + std::to_string(x);
        s += " stored " + o;
    }
    return s;
}

// What is wrong with the blessed golden of a case (none if not blessed or fine): made by a
// non-deterministic cpu variant (bless found it), or holding next to nothing.
std::vector<std::string> golden_flags(const PipelineSpec &spec, const CaseSpec &c) {
    std::vector<std::string> flags;
    if (!c.error.empty()) return flags;
    try {
        const std::string dir = default_golden_dir();
        const Manifest manifest = Manifest::load(dir, true);
        std::vector<Array> goldens;
        std::vector<std::string> names;
        bool all_stored = true;
        for (const auto &o : c.outputs) {
            const std::string rel = golden_relpath(spec.name, c.name, o.name, c.outputs.size());
            const GoldenEntry *e = manifest.find(rel);
            if (!e) return flags;
            if (!e->nondeterministic.empty() && flags.empty())
                flags.push_back("non-deterministic golden: " + e->nondeterministic +
                                "; runs against it are NONDET, not judged");
            all_stored &= e->stored;
            if (e->stored) goldens.push_back(load_verified_golden(dir, manifest, rel)), names.push_back(o.name);
        }
        const std::string why = spec.spec_source.empty() || !all_stored ? "" : degenerate_outputs(goldens, names);
        if (!why.empty()) flags.push_back("degenerate golden: " + why);
    } catch (const std::exception &) {
        // a golden that does not load is `golden verify`'s to report
    }
    return flags;
}

}  // namespace

int cmd_describe(const Args &args) {
    if (args.has("resources")) return cmd_describe_resources(args);
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(args.positional()[0]);
    const Variant *cpu = reg.find(spec.name, "cpu");
    nlohmann::json out{{"name", spec.name},
                       {"summary", spec.summary},
                       {"tolerance", spec.tolerance.to_json()},
                       {"tolerance_reason", spec.tolerance_reason},
                       {"generator_sha256", spec.generator_sha256},
                       {"required_extensions", spec.required_extensions},
                       {"cuda_max_registers", spec.cuda_max_registers},
                       {"arguments", nlohmann::json::array()},
                       {"profiles", nlohmann::json::array()},
                       {"cases", nlohmann::json::array()}};
    for (int i = 0; cpu && cpu->metadata && i < cpu->metadata->num_arguments; i++) {
        const auto &a = cpu->metadata->arguments[i];
        out["arguments"].push_back({{"name", a.name},
                                    {"kind", arg_kind(a.kind)},
                                    {"type", describe_type(a.type)},
                                    {"dimensions", a.dimensions}});
    }
    for (const auto &prof : reg.profiles_of(spec.name)) {
        const Variant *v = reg.find(spec.name, prof);
        out["profiles"].push_back({{"name", prof},
                                   {"target", v->metadata->target},
                                   {"schedule", find_profile(prof).schedule},
                                   {"compile_error", compile_error_message(*v)}});
    }
    for (const auto &c : spec.cases) {
        nlohmann::json cj{{"name", c.name}, {"nightly", c.nightly}, {"scalars", c.scalars}, {"notes", c.notes}};
        if (!c.error.empty()) cj["error"] = c.error;
        for (const auto &b : c.inputs) {
            cj["inputs"][b.name] = {{"shape", b.shape}, {"recipe", b.recipe.describe()}};
            if (!b.min.empty()) cj["inputs"][b.name]["min"] = b.min;
            if (!b.storage_order.empty()) cj["inputs"][b.name]["storage_order"] = b.storage_order;
        }
        for (const auto &b : c.outputs) {
            cj["outputs"][b.name] = {{"shape", b.shape}};
            if (!b.min.empty()) cj["outputs"][b.name]["min"] = b.min;
            if (!b.storage_order.empty()) cj["outputs"][b.name]["storage_order"] = b.storage_order;
        }
        for (const auto &flag : golden_flags(spec, c))
            cj["flags"].push_back(flag);
        out["cases"].push_back(cj);
    }
    if (args.has("json")) {
        write_json_stdout(out.dump(2) + "\n");
        return 0;
    }
    std::printf("%s: %s\n", spec.name.c_str(), spec.summary.c_str());
    std::printf("arguments:\n");
    for (const auto &a : out["arguments"]) {
        std::printf("  %-7s %-10s %-8s %d-D\n", a["kind"].get<std::string>().c_str(),
                    a["name"].get<std::string>().c_str(), a["type"].get<std::string>().c_str(),
                    a["dimensions"].get<int>());
    }
    std::printf("tolerance: %s (%s)\nprofiles:\n", spec.tolerance.name().c_str(), spec.tolerance_reason.c_str());
    for (const auto &p : out["profiles"]) {
        std::printf("  %-12s schedule %-9s target %s\n", p["name"].get<std::string>().c_str(),
                    p["schedule"].get<std::string>().c_str(), p["target"].get<std::string>().c_str());
        if (!p["compile_error"].get<std::string>().empty())
            std::printf("  %-12s ERROR: %s\n", "", p["compile_error"].get<std::string>().c_str());
    }
    if (spec.cuda_max_registers > 0)
        std::printf("cuda kernels: JIT-compiled with HL_CUDA_JIT_MAX_REGISTERS=%d (Halide's default: 64)\n",
                    spec.cuda_max_registers);
    std::printf("cases:\n");
    for (size_t k = 0; k < spec.cases.size(); k++) {
        const CaseSpec &c = spec.cases[k];
        std::printf("  %s%s\n", c.name.c_str(), c.nightly ? " (nightly)" : "");
        if (!c.error.empty()) std::printf("    ERROR: %s\n", c.error.c_str());
        for (const auto &b : c.inputs) {
            std::printf("    input  %-12s %-8s %s  %s\n", b.name.c_str(), describe_type(b.type).c_str(),
                        buffer_text(b).c_str(), b.recipe.describe().c_str());
        }
        for (const auto &[name, value] : c.scalars)
            std::printf("    scalar %-12s %s\n", name.c_str(), fmt_num(value).c_str());
        for (const auto &b : c.outputs)
            std::printf("    output %-12s %-8s %s\n", b.name.c_str(), describe_type(b.type).c_str(),
                        buffer_text(b).c_str());
        for (const auto &n : c.notes)
            std::printf("    note: %s\n", n.c_str());
        for (const auto &f : out["cases"][k].value("flags", nlohmann::json::array()))
            std::printf("    flag: %s\n", f.get<std::string>().c_str());
    }
    return 0;
}

int cmd_env(const Args &args) {
    const nlohmann::json env = environment_info();
    if (args.has("json")) {
        write_json_stdout(env.dump(2) + "\n");
        return 0;
    }
    std::printf("Halide %s, platform %s, %s\n", env["halide_version"].get<std::string>().c_str(),
                env["platform"].get<std::string>().c_str(), env.value("compiler", "").c_str());
    std::printf("host CPU: %s, %d cores, features: %s\n", env["host_cpu"].value("model", "?").c_str(),
                env["host_cpu"].value("cores", 0),
                env["host_cpu"].value("features", nlohmann::json::array()).dump().c_str());
    const auto &cl = env["opencl"];
    if (cl.contains("error")) std::printf("OpenCL: %s\n", cl["error"].get<std::string>().c_str());
    for (const auto &p : cl.value("platforms", nlohmann::json::array())) {
        std::printf("OpenCL platform: %s (%s)\n", p["name"].get<std::string>().c_str(),
                    p["version"].get<std::string>().c_str());
        for (const auto &d : p["devices"]) {
            std::printf(
                "  device: %s [%s], %s, driver %s, %u CUs, %.1f GiB global, %llu KiB local\n    extensions: %s\n",
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

int cmd_machine(const Args &args) {
    nlohmann::json blocks = nlohmann::json::object();
    if (args.has("bench")) {
        const std::string path = args.get("bench"), fix = "pass a bench JSON `aot-harness bench --json` wrote";
        const nlohmann::json doc = parse_json(read_file(path), path, fix);
        const nlohmann::json context =
            doc.is_object() ? doc.value("context", nlohmann::json::object()) : nlohmann::json();
        if (!context.is_object()) throw Error(path + ": context: not an object; " + fix);
        for (const auto &[k, v] : context.items()) {
            if (k.rfind("machine.", 0) == 0 && v.is_string())
                blocks[k.substr(8)] = parse_json(v.get<std::string>(), path + ": " + k, fix);
        }
        if (blocks.empty()) throw Error(path + ": no machine record (context machine.<profile>); " + fix);
    } else {
        const double secs = args.number("sample");
        MachineSampler sampler(MachineSources::from_environment(), std::max(0.05, std::min(0.5, secs / 4)));
        sampler.start();
        std::this_thread::sleep_for(std::chrono::duration<double>(secs));
        blocks["now"] = sampler.stop();
    }
    if (args.has("json")) {
        write_json_stdout(blocks.dump(2) + "\n");
        return 0;
    }
    for (const auto &[name, block] : blocks.items()) {
        std::printf("== %s ==\n%s", name.c_str(), describe_machine_block(block).c_str());
    }
    return 0;
}

}  // namespace harness
