// NVML through dlopen (nvml_reader.h): the few entry points a reading needs, declared here as plain function
// types, so that the build needs no NVIDIA header or library.
#include "devices/nvml_reader.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

namespace harness {

namespace {

using NvmlDevice = void *;  // nvmlDevice_t
using NvmlInitFn = int (*)();
using NvmlCountFn = int (*)(unsigned *);
using NvmlHandleFn = int (*)(unsigned, NvmlDevice *);
using NvmlNameFn = int (*)(NvmlDevice, char *, unsigned);
using NvmlClockFn = int (*)(NvmlDevice, int, unsigned *);
using NvmlTempFn = int (*)(NvmlDevice, int, unsigned *);
using NvmlPowerFn = int (*)(NvmlDevice, unsigned *);
using NvmlPstateFn = int (*)(NvmlDevice, int *);
using NvmlReasonsFn = int (*)(NvmlDevice, unsigned long long *);
using NvmlVersionFn = int (*)(char *, unsigned);

constexpr int kNvmlSuccess = 0;                     // NVML_SUCCESS
constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;  // NVML_CLOCK_SM, NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0;              // NVML_TEMPERATURE_GPU

// nvmlClocksThrottleReasons (nvmlClocksEventReasons in newer headers: the same bits).
const std::map<unsigned long long, const char *> &nvml_reason_names() {
    static const std::map<unsigned long long, const char *> names{
        {0x1ull, "gpu_idle"},
        {0x2ull, "applications_clocks_setting"},
        {0x4ull, "sw_power_cap"},
        {0x8ull, "hw_slowdown"},
        {0x10ull, "sync_boost"},
        {0x20ull, "sw_thermal_slowdown"},
        {0x40ull, "hw_thermal_slowdown"},
        {0x80ull, "hw_power_brake_slowdown"},
        {0x100ull, "display_clock_setting"},
    };
    return names;
}

struct Nvml {
    std::string error;  // why it is not exposed
    std::string driver;
    NvmlCountFn count = nullptr;
    NvmlHandleFn handle = nullptr;
    NvmlNameFn name = nullptr;
    NvmlClockFn clock = nullptr, max_clock = nullptr;
    NvmlTempFn temp = nullptr;
    NvmlPowerFn power = nullptr;
    NvmlPstateFn pstate = nullptr;
    NvmlReasonsFn reasons = nullptr;
};

template<typename F>
F nvml_sym(void *lib, const char *name) {
    return reinterpret_cast<F>(dlsym(lib, name));
}

Nvml load_nvml(const std::string &library) {
    Nvml n;
    void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        n.error = "not exposed (no NVIDIA driver: " + library + " not found)";
        return n;
    }
    auto init = nvml_sym<NvmlInitFn>(lib, "nvmlInit_v2");
    if (!init) init = nvml_sym<NvmlInitFn>(lib, "nvmlInit");
    n.count = nvml_sym<NvmlCountFn>(lib, "nvmlDeviceGetCount_v2");
    if (!n.count) n.count = nvml_sym<NvmlCountFn>(lib, "nvmlDeviceGetCount");
    n.handle = nvml_sym<NvmlHandleFn>(lib, "nvmlDeviceGetHandleByIndex_v2");
    if (!n.handle) n.handle = nvml_sym<NvmlHandleFn>(lib, "nvmlDeviceGetHandleByIndex");
    n.name = nvml_sym<NvmlNameFn>(lib, "nvmlDeviceGetName");
    n.clock = nvml_sym<NvmlClockFn>(lib, "nvmlDeviceGetClockInfo");
    n.max_clock = nvml_sym<NvmlClockFn>(lib, "nvmlDeviceGetMaxClockInfo");
    n.temp = nvml_sym<NvmlTempFn>(lib, "nvmlDeviceGetTemperature");
    n.power = nvml_sym<NvmlPowerFn>(lib, "nvmlDeviceGetPowerUsage");
    n.pstate = nvml_sym<NvmlPstateFn>(lib, "nvmlDeviceGetPerformanceState");
    n.reasons = nvml_sym<NvmlReasonsFn>(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!n.reasons) n.reasons = nvml_sym<NvmlReasonsFn>(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !n.count || !n.handle) {
        n.error = "not exposed (" + library + " lacks nvmlInit/nvmlDeviceGetCount)";
        return n;
    }
    if (const int rc = init(); rc != kNvmlSuccess) {
        n.error = "not exposed (nvmlInit failed with " + std::to_string(rc) + ")";
        return n;
    }
    char version[96] = {0};
    if (auto v = nvml_sym<NvmlVersionFn>(lib, "nvmlSystemGetDriverVersion");
        v && v(version, sizeof version - 1) == kNvmlSuccess)
        n.driver = version;
    return n;  // never shut down: a reading costs microseconds once initialised
}

}  // namespace

bool nvml_reason_slows(const std::string &name) {
    return name == "sw_power_cap" || name == "hw_slowdown" || name == "sw_thermal_slowdown" ||
           name == "hw_thermal_slowdown" || name == "hw_power_brake_slowdown";
}

nlohmann::json read_nvml(const std::string &library) {
    static std::mutex mutex;
    static std::map<std::string, Nvml> loaded;  // per library file: a test may switch to a fake one
    std::lock_guard<std::mutex> lock(mutex);
    auto it = loaded.find(library);
    if (it == loaded.end()) it = loaded.emplace(library, load_nvml(library)).first;
    const Nvml &n = it->second;
    nlohmann::json out{{"gpus", nlohmann::json::array()}};
    if (!n.error.empty()) {
        out["source"] = n.error;
        return out;
    }
    out["source"] = "NVML" + (n.driver.empty() ? std::string() : ", driver " + n.driver);
    unsigned count = 0;
    if (n.count(&count) != kNvmlSuccess) count = 0;
    for (unsigned i = 0; i < count && i < 64; i++) {
        NvmlDevice d = nullptr;
        if (n.handle(i, &d) != kNvmlSuccess) continue;
        nlohmann::json g{{"index", i}};
        char name[96] = {0};
        if (n.name && n.name(d, name, sizeof name - 1) == kNvmlSuccess) g["name"] = name;
        unsigned v = 0;
        if (n.clock && n.clock(d, kNvmlClockSm, &v) == kNvmlSuccess) g["sm_mhz"] = v;
        if (n.clock && n.clock(d, kNvmlClockMem, &v) == kNvmlSuccess) g["mem_mhz"] = v;
        if (n.max_clock && n.max_clock(d, kNvmlClockSm, &v) == kNvmlSuccess) g["max_sm_mhz"] = v;
        if (n.temp && n.temp(d, kNvmlTemperatureGpu, &v) == kNvmlSuccess) g["temp_c"] = v;
        if (n.power && n.power(d, &v) == kNvmlSuccess) g["power_w"] = v / 1000.0;
        int pstate = 0;
        if (n.pstate && n.pstate(d, &pstate) == kNvmlSuccess) g["pstate"] = pstate;
        unsigned long long bits = 0;
        if (n.reasons && n.reasons(d, &bits) == kNvmlSuccess) {
            g["throttle_bits"] = bits;
            nlohmann::json names = nlohmann::json::array();
            for (const auto &[bit, label] : nvml_reason_names()) {
                if (bits & bit) names.push_back(label);
            }
            g["throttle"] = names;
        }
        out["gpus"].push_back(g);
    }
    return out;
}

}  // namespace harness
