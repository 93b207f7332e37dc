// A stand-in libnvidia-ml.so for machine_state_test: one GPU with fixed clocks, temperature and power, and the
// throttle reasons the environment variable FAKE_NVML_REASONS (a number) sets, read at every call.
#include <cstdlib>
#include <cstring>

namespace {
struct FakeGpu {
    int unused;
} fake_gpu0;
}  // namespace

extern "C" {
int nvmlInit_v2() {
    return 0;
}
int nvmlDeviceGetCount_v2(unsigned *n) {
    *n = 1;
    return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **device) {
    if (i != 0) return 2;  // NVML_ERROR_INVALID_ARGUMENT
    *device = &fake_gpu0;
    return 0;
}
int nvmlDeviceGetName(void *, char *name, unsigned length) {
    std::strncpy(name, "Fake GPU", length);
    return 0;
}
int nvmlDeviceGetClockInfo(void *, int type, unsigned *mhz) {
    *mhz = type == 1 ? 1755 : 2619;  // SM, memory
    return 0;
}
int nvmlDeviceGetMaxClockInfo(void *, int type, unsigned *mhz) {
    *mhz = type == 1 ? 1980 : 2619;
    return 0;
}
int nvmlDeviceGetTemperature(void *, int, unsigned *celsius) {
    *celsius = 71;
    return 0;
}
int nvmlDeviceGetPowerUsage(void *, unsigned *milliwatts) {
    *milliwatts = 612500;
    return 0;
}
int nvmlDeviceGetPerformanceState(void *, int *pstate) {
    *pstate = 0;
    return 0;
}
int nvmlDeviceGetCurrentClocksThrottleReasons(void *, unsigned long long *reasons) {
    const char *v = std::getenv("FAKE_NVML_REASONS");
    *reasons = v ? std::strtoull(v, nullptr, 0) : 0;
    return 0;
}
int nvmlSystemGetDriverVersion(char *version, unsigned length) {
    std::strncpy(version, "570.00-fake", length);
    return 0;
}
}
