// The commands that describe what is here: list, describe, env (cli_commands.h).
#include <cstdio>
#include <iostream>

#include "cli/cli_commands.h"
#include "report/environment.h"
#include "values/npy.h"
#include "base/profile.h"
#include "harness/registry.h"
#include "matrix/run_matrix.h"
#include "devices/vulkan_probe.h"

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
                                   {"device", avail.selected.value(p.name, nlohmann::json())}});
    }
    for (const auto &name : reg.pipelines()) {
        const PipelineSpec &spec = reg.spec(name);
        nlohmann::json pj{{"name", name}, {"summary", spec.summary}, {"tolerance", spec.tolerance.name()}};
        for (const auto &prof : reg.profiles_of(name)) {
            const Variant *v = reg.find(name, prof);
            const std::string why =
                !v->compile_error.empty() ? compile_error_message(*v) : pipeline_unavailable_reason(avail, spec, prof);
            pj["profiles"].push_back({{"name", prof},
                                      {"runtime", find_profile(prof).runtime},
                                      {"target", v->metadata->target},
                                      {"runnable", why.empty()},
                                      {"reason", why}});
        }
        for (const auto &c : spec.cases)
            pj["cases"].push_back({{"name", c.name}, {"nightly", c.nightly}});
        out["pipelines"].push_back(pj);
    }
    if (args.has("json")) {
        std::cout << out.dump(2) << "\n";
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

int cmd_describe(const Args &args) {
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(args.positional()[0]);
    const Variant *cpu = reg.find(spec.name, "cpu");
    nlohmann::json out{{"name", spec.name},
                       {"summary", spec.summary},
                       {"tolerance", spec.tolerance.to_json()},
                       {"tolerance_reason", spec.tolerance_reason},
                       {"generator_sha256", spec.generator_sha256},
                       {"required_extensions", spec.required_extensions}};
    for (int i = 0; i < cpu->metadata->num_arguments; i++) {
        const auto &a = cpu->metadata->arguments[i];
        out["arguments"].push_back(
            {{"name", a.name}, {"kind", arg_kind(a.kind)}, {"type", dtype_name(a.type)}, {"dimensions", a.dimensions}});
    }
    for (const auto &prof : reg.profiles_of(spec.name)) {
        const Variant *v = reg.find(spec.name, prof);
        out["profiles"].push_back({{"name", prof},
                                   {"target", v->metadata->target},
                                   {"schedule", find_profile(prof).schedule},
                                   {"compile_error", compile_error_message(*v)}});
    }
    for (const auto &c : spec.cases) {
        nlohmann::json cj{{"name", c.name}, {"nightly", c.nightly}, {"scalars", c.scalars}};
        for (const auto &b : c.inputs)
            cj["inputs"][b.name] = {{"shape", b.shape}, {"recipe", b.recipe.describe()}};
        for (const auto &b : c.outputs)
            cj["outputs"][b.name] = {{"shape", b.shape}};
        out["cases"].push_back(cj);
    }
    if (args.has("json")) {
        std::cout << out.dump(2) << "\n";
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
    }
    std::printf("cases:\n");
    for (const auto &c : spec.cases) {
        std::printf("  %-8s %s%s\n", c.name.c_str(), shape_string(c.outputs.at(0).shape).c_str(),
                    c.nightly ? " (nightly)" : "");
    }
    return 0;
}

int cmd_env(const Args &args) {
    const nlohmann::json env = environment_info();
    if (args.has("json")) {
        std::cout << env.dump(2) << "\n";
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

}  // namespace harness
