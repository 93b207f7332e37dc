// The environment of a run (environment.h): host, OS, Halide, the device probes, the variants' targets, UTC time.
#include "report/environment.h"

#include <ctime>

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>

#include "HalideRuntime.h"
#include "devices/opencl_probe.h"
#include "devices/cuda_probe.h"
#include "base/profile.h"
#include "base/version.h"
#include "harness/registry.h"
#include "devices/vulkan_probe.h"
#include "devices/vulkan_runtime_shim.h"

namespace harness {

namespace {

nlohmann::json host_cpu() {
    nlohmann::json cpu{{"cores", sysconf(_SC_NPROCESSORS_ONLN)}};
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    // The features that decide which code Halide's host target emits.
    static const std::set<std::string> interesting{"sse4_1",      "sse4_2",      "avx",      "avx2",     "fma",
                                                   "f16c",        "avx512f",     "avx512bw", "avx512vl", "avx512_vnni",
                                                   "avx512_bf16", "avx512_fp16", "asimd",    "asimddp",  "fphp",
                                                   "asimdhp",     "sve",         "sve2",     "i8mm"};
    while (std::getline(f, line)) {
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == '\t' || key.back() == ' '))
            key.pop_back();
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
        if ((key == "model name" || key == "CPU part") && !cpu.contains("model")) cpu["model"] = value;
        if ((key == "flags" || key == "Features") && !cpu.contains("features")) {
            std::istringstream ss(value);
            std::string flag;
            nlohmann::json feats = nlohmann::json::array();
            while (ss >> flag) {
                if (interesting.count(flag)) feats.push_back(flag);
            }
            cpu["features"] = feats;
        }
    }
    return cpu;
}

}  // namespace

nlohmann::json environment_info(const std::set<std::string> &runtimes) {
    nlohmann::json env;
    env["halide_version"] = std::to_string(HALIDE_VERSION_MAJOR) + "." + std::to_string(HALIDE_VERSION_MINOR) + "." +
                            std::to_string(HALIDE_VERSION_PATCH);
    env["platform"] = build_platform();
    env["harness_version"] = harness_version();
    env["harness_git_commit"] = harness_git_commit();
#if defined(__clang__)
    env["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    env["compiler"] = std::string("gcc ") + __VERSION__;
#endif
    utsname u{};
    if (uname(&u) == 0) {
        env["os"] = {{"sysname", u.sysname}, {"release", u.release}, {"machine", u.machine}};
    }
    env["host_cpu"] = host_cpu();
    nlohmann::json variants = nlohmann::json::object();
    const Registry &reg = Registry::instance();
    for (const auto &p : reg.pipelines()) {
        for (const auto &prof : reg.profiles_of(p))
            variants[p + "__" + profile_ident(prof)] = reg.find(p, prof)->metadata->target;
    }
    env["variants"] = variants;
    for (const char *var : {"HL_OCL_PLATFORM_NAME", "HL_OCL_DEVICE_TYPE", "HL_GPU_DEVICE", "OCL_ICD_VENDORS",
                            "OCL_ICD_FILENAMES", "HL_VK_DEVICE_TYPE", "VK_ICD_FILENAMES", "VK_DRIVER_FILES",
                            "VK_INSTANCE_LAYERS", "HARNESS_VULKAN_SHIM", "LD_LIBRARY_PATH"}) {
        if (const char *v = getenv(var)) env["env_vars"][var] = v;
    }
    const auto probed = [&](const char *runtime, nlohmann::json (*probe)()) {
        if (runtimes.count(runtime)) return probe();
        return nlohmann::json{{"not_probed", std::string("no ") + runtime + " profile in this run"}};
    };
    env["opencl"] = probed("opencl", probe_opencl);
    env["cuda"] = probed("cuda", probe_cuda);
    env["vulkan"] = probed("vulkan", probe_vulkan);
    env["vulkan_runtime_shim"] = vulkan_runtime_shim_note();
    return env;
}

std::string utc_now(const char *format) {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, format, &tm);
    return buf;
}

}  // namespace harness
