// Which device a run is meant for (device_choice.h).
#include "matrix/device_choice.h"

#include <fnmatch.h>

#include <set>

#include "base/error.h"
#include "base/profile.h"
#include "devices/cuda_probe.h"
#include "devices/device_personality.h"

namespace harness {

std::string personality_of(const std::string &device, const std::string &profile) {
    const Profile &p = find_profile(profile);
    if ((p.runtime != "opencl" && p.runtime != "vulkan") || device == "none") return "";
    return device.empty() ? p.device : device;
}

nlohmann::json personality_record(const std::string &personality, const std::string &runtime,
                                  const nlohmann::json &selected) {
    const DevicePersonality &p = find_device_personality(personality);
    nlohmann::json r{{"device", p.key}, {"name", p.name}, {"limits", p.limits_text()}};
    if (runtime == "opencl") {
        r["emulated"] = "device queries (work-group size, item sizes, local memory, extensions, preferred "
                        "work-group multiple); launches refused beyond the work-group size, item sizes and local "
                        "memory; programs using fp64 refused";
        std::string gaps = "the subgroup width (kernels run at the driver's own)";
        if (const std::string g = personality_gap_opencl(p, selected.value("extensions", std::string())); !g.empty())
            gaps += "; " + g;
        r["not_emulated"] = gaps;
    } else {
        r["emulated"] = "device queries (limits, subgroup size, fp64/fp16 features); pipelines refused beyond the "
                        "work-group size and shared memory; shaders using Float64 refused";
        r["not_emulated"] = "the subgroup width (shaders run at the driver's own)";
    }
    return r;
}

void check_expected_devices(const Availability &a, const std::vector<RunTask> &tasks, const std::string &device_glob,
                            const std::string &driver_glob) {
    if (device_glob.empty() && driver_glob.empty()) return;
    const auto matches = [](const std::string &glob, const std::string &text) {
        return fnmatch(glob.c_str(), text.c_str(), 0) == 0;
    };
    std::set<std::string> checked;
    for (const auto &t : tasks) {
        const Profile &p = find_profile(t.profile);
        if (!p.is_gpu() || !checked.insert(t.profile).second) continue;
        std::string device, version, identity;
        if (p.runtime == "cuda") {
            const nlohmann::json cuda = probe_cuda();
            device = cuda.value("/devices/0/name"_json_pointer, std::string());
            version = std::to_string(cuda.value("driver_version", 0));
            identity = "CUDA driver API " + version;
        } else if (a.selected.contains(t.profile)) {
            const nlohmann::json &s = a.selected.at(t.profile);
            device = s.value("device", std::string());
            version = s.value("driver_version", std::string());
            identity = s.value("identity", std::string());
        }
        const std::string why = a.reason.count(t.profile) ? a.reason.at(t.profile) : "";
        const std::string found = device.empty() ? "no device (" + (why.empty() ? "none selected" : why) + ")" :
                                                   "'" + device + "', driver " + version + " (" + identity + ")";
        if (!device_glob.empty() && !matches(device_glob, device)) {
            throw Error("--expect-device '" + device_glob + "': profile " + t.profile + " would run on " + found +
                        "; run on the expected device, or fix the pattern (or $AOT_HARNESS_EXPECT_DEVICE)");
        }
        if (!driver_glob.empty() && !matches(driver_glob, version) && !matches(driver_glob, identity)) {
            throw Error("--expect-driver '" + driver_glob + "': profile " + t.profile + " would run on " + found +
                        "; install the expected driver, or fix the pattern (or $AOT_HARNESS_EXPECT_DRIVER)");
        }
    }
}

}  // namespace harness
