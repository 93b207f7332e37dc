// `describe <pipeline> --resources`: per GPU variant and kernel, what the kernel asks of the device (measured in a
// child, run/kernel_resources.h) beside each device personality's limits (devices/device_personality.h).
#include <cstdio>
#include <iostream>
#include <set>

#include "base/error.h"
#include "base/profile.h"
#include "cli/cli_commands.h"
#include "golden/golden.h"
#include "harness/registry.h"
#include "matrix/run_matrix.h"
#include "run/kernel_resources.h"

namespace harness {

namespace {

std::string bytes_text(const nlohmann::json &k, const char *field) {
    const int64_t b = k.value(field, int64_t(-1));
    return b < 0 ? "-" : std::to_string(b) + " B";
}

}  // namespace

int cmd_describe_resources(const Args &args) {
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(args.positional()[0]);
    const CaseSpec &c = args.has("case") ? spec.find_case(args.get("case")) : spec.cases.at(0);
    std::vector<const DevicePersonality *> devices;
    if (args.has("device")) {
        devices.push_back(&find_device_personality(args.get("device")));
    } else {
        for (const auto &p : device_personalities())
            devices.push_back(&p);
    }
    const std::string golden_dir = args.get("golden-dir", default_golden_dir());
    std::set<std::string> runtimes;
    for (const auto &prof : reg.profiles_of(spec.name)) {
        if (find_profile(prof).is_gpu()) runtimes.insert(find_profile(prof).runtime);
    }
    const Availability avail = check_availability(runtimes);
    nlohmann::json out{{"pipeline", spec.name},
                       {"case", c.name},
                       {"variants", nlohmann::json::array()},
                       {"devices", nlohmann::json::array()}};
    for (const auto *d : devices)
        out["devices"].push_back({{"device", d->key}, {"name", d->name}, {"limits", d->limits_text()}});
    bool measured_any = false;
    for (const auto &prof : reg.profiles_of(spec.name)) {
        const Profile &p = find_profile(prof);
        if (!p.is_gpu()) continue;
        const Variant *v = reg.find(spec.name, prof);
        nlohmann::json vj{{"profile", prof}, {"runtime", p.runtime}, {"target", v->metadata->target}};
        std::string why = compile_error_message(*v);
        if (why.empty()) why = pipeline_unavailable_reason(avail, spec, prof);
        if (why.empty() && !c.error.empty()) why = c.error;
        if (!why.empty()) {
            vj["skipped"] = why;
            out["variants"].push_back(vj);
            continue;
        }
        if (avail.selected.contains(prof)) vj["driver"] = avail.selected[prof].value("identity", std::string());
        const nlohmann::json m = measure_kernel_resources(*v, c, golden_dir);
        if (m.contains("error")) vj["error"] = m["error"];
        vj["kernels"] = m.value("kernels", nlohmann::json::array());
        for (auto &k : vj["kernels"]) {
            for (const auto *d : devices) {
                const std::string exceeds = kernel_exceeds(k, *d, p.runtime);
                k["fits"][d->key] = exceeds.empty() ? "fits" : "exceeds: " + exceeds;
            }
        }
        measured_any |= !vj["kernels"].empty();
        out["variants"].push_back(vj);
    }
    if (args.has("json")) {
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("%s, case %s: each GPU variant's kernels as the driver ran them (work-group, grid of groups,\n"
                    "local/shared memory allocated, private memory and registers where the driver reports them),\n"
                    "against each device's limits\n",
                    spec.name.c_str(), c.name.c_str());
        for (const auto &vj : out["variants"]) {
            std::printf("%s (%s)%s\n", vj["profile"].get<std::string>().c_str(),
                        vj["runtime"].get<std::string>().c_str(),
                        vj.contains("driver") ? (" on " + vj["driver"].get<std::string>()).c_str() : "");
            if (vj.contains("skipped")) {
                std::printf("  not measured: %s\n", vj["skipped"].get<std::string>().c_str());
                continue;
            }
            if (vj.contains("error")) std::printf("  ERROR: %s\n", vj["error"].get<std::string>().c_str());
            for (const auto &k : vj["kernels"]) {
                std::printf("  %s\n    work-group %s (%llu), groups %s, launches %lld; local %s, private %s",
                            k["kernel"].get<std::string>().c_str(), k["work_group"].get<std::string>().c_str(),
                            static_cast<unsigned long long>(k["work_group_items"].get<uint64_t>()),
                            k["groups"].get<std::string>().c_str(),
                            static_cast<long long>(k["launches"].get<int64_t>()),
                            bytes_text(k, "local_mem_bytes").c_str(), bytes_text(k, "private_mem_bytes").c_str());
                if (k.contains("registers"))
                    std::printf(", %lld registers", static_cast<long long>(k["registers"].get<int64_t>()));
                if (k.contains("arguments"))
                    std::printf(", %lld arguments", static_cast<long long>(k["arguments"].get<int64_t>()));
                if (k.contains("kernel_max_work_group"))
                    std::printf(", driver's per-kernel max %lld",
                                static_cast<long long>(k["kernel_max_work_group"].get<int64_t>()));
                std::printf("\n");
                for (const auto *d : devices)  // in the file's order
                    std::printf("    %-10s %s\n", d->key.c_str(), k["fits"][d->key].get<std::string>().c_str());
            }
        }
        std::printf("devices:\n");
        for (const auto &d : out["devices"])
            std::printf("  %-10s %s: %s\n", d["device"].get<std::string>().c_str(),
                        d["name"].get<std::string>().c_str(), d["limits"].get<std::string>().c_str());
    }
    if (!measured_any) {
        std::fprintf(stderr, "aot-harness: no GPU variant of %s could be measured here (above)\n", spec.name.c_str());
        return 77;  // nothing ran: never a success
    }
    return 0;
}

}  // namespace harness
