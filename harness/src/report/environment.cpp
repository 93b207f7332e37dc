// The environment of a run (environment.h): host, OS, Halide, the device probes, the variants' targets, UTC time.
#include "report/environment.h"

#include <cstdint>
#include <cstdio>
#include <ctime>

#include <sys/utsname.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#endif
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

// /proc/cpuinfo's model and the features that decide which code Halide's host target emits, plus which
// architecture wrote it ("aarch64", "x86", or "" when neither's keys are there).
nlohmann::json read_cpuinfo(std::string *arch) {
    nlohmann::json cpu = nlohmann::json::object();
    std::ifstream f("/proc/cpuinfo");
    std::string line;
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
        if (arch->empty() && (key == "CPU implementer" || key == "Features")) *arch = "aarch64";
        if (arch->empty() && (key == "vendor_id" || key == "flags")) *arch = "x86";
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

#if defined(__aarch64__)
constexpr const char *kThisArch = "aarch64";
// The CPU the emulator presents to this program: its features from the auxiliary vector (what the code
// may use) and MIDR_EL1 (readable from user space where HWCAP_CPUID says so; qemu's "max" CPU reports
// implementer 0, "reserved for software use").
nlohmann::json emulated_cpu() {
    nlohmann::json cpu = nlohmann::json::object();
    const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    const std::pair<const char *, bool> feats[] = {
        {"asimd", (hw & (1ul << 1)) != 0},    {"fphp", (hw & (1ul << 9)) != 0}, {"asimdhp", (hw & (1ul << 10)) != 0},
        {"asimddp", (hw & (1ul << 20)) != 0}, {"sve", (hw & (1ul << 22)) != 0}, {"sve2", (hw2 & (1ul << 1)) != 0},
        {"i8mm", (hw2 & (1ul << 13)) != 0}};
    cpu["features"] = nlohmann::json::array();
    for (const auto &[name, has] : feats)
        if (has) cpu["features"].push_back(name);
    std::string model = "arm64 CPU emulated in user mode";
    if (hw & (1ul << 11)) {  // HWCAP_CPUID
        uint64_t midr = 0;
        asm volatile("mrs %0, MIDR_EL1" : "=r"(midr));
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%08llx", static_cast<unsigned long long>(midr));
        cpu["midr_el1"] = hex;
        const unsigned implementer = (midr >> 24) & 0xff;
        model += std::string(" (MIDR_EL1 ") + hex +
                 (implementer == 0 ? ": implementer 0, a software implementation such as qemu's max CPU)" : ")");
    }
    cpu["model"] = model;
    return cpu;
}
#elif defined(__x86_64__)
constexpr const char *kThisArch = "x86";
nlohmann::json emulated_cpu() {
    return {{"model", "x86-64 CPU emulated in user mode"}, {"features", nlohmann::json::array()}};
}
#else
constexpr const char *kThisArch = "";
nlohmann::json emulated_cpu() {
    return {{"model", "CPU emulated in user mode"}};
}
#endif

// The CPU this code runs on. /proc/cpuinfo is the kernel's: under user-mode emulation (qemu-user running
// an arm64 build on an x86-64 machine) it describes the machine's CPU, not the one the code runs on, which
// shows as cpuinfo of another architecture than this build's. Then the record names the emulated CPU
// (emulated_cpu()) and keeps the machine's under "emulated_on".
nlohmann::json host_cpu() {
    std::string arch;
    nlohmann::json cpu = read_cpuinfo(&arch);
    if (!arch.empty() && *kThisArch && arch != kThisArch) {
        nlohmann::json emu = emulated_cpu();
        emu["emulated"] = true;
        emu["emulated_on"] = cpu;
        if (cpu.contains("model"))
            emu["model"] = emu["model"].get<std::string>() + ", on " + cpu["model"].get<std::string>();
        cpu = emu;
    }
    cpu["cores"] = sysconf(_SC_NPROCESSORS_ONLN);
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
