// What the machine was doing around a benchmark: CPU and GPU clocks, temperatures, throttling and load,
// read where the platform exposes them (Linux/Android sysfs: cpufreq, thermal zones and cooling devices,
// devfreq; /proc: load average, CPU pressure, busy time; NVIDIA's NVML, dlopen()ed, so nothing NVIDIA is
// needed to build), "not exposed" otherwise. Benchmarks record it before and after each profile's block,
// with a sampler in between (MachineSampler), so that a comparison of runs can tell a slower build from a
// busier or hotter machine (scripts/harnesslib/runs/machine.py judges; docs say how).
//
// The roots are parameters so that a test can plant a fake /sys and /proc (and a fake libnvidia-ml);
// HARNESS_SYSFS_ROOT, HARNESS_PROCFS_ROOT and HARNESS_NVML_LIBRARY override the defaults for a whole run.
#pragma once
#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace harness {

struct MachineSources {
    std::string sysfs = "/sys", procfs = "/proc", nvml = "libnvidia-ml.so.1";
    // The defaults, or the HARNESS_* variables above where set.
    static MachineSources from_environment();
};

// One reading, now:
// {"cpu": {"source": "cpufreq" | "not exposed", "mhz": [per policy], "max_mhz": [...], "governor": "...",
//          "throttle_count": n (Intel thermal_throttle counters, summed), "cpuinfo_mhz": [...] (/proc/cpuinfo)},
//  "thermal": {"source": "thermal zones" | "not exposed", "zones": [{"zone", "type", "temp_c", "passive_c"}],
//              "cooling": [{"device", "type", "cur", "max"}]},
//  "devfreq": {"source": "devfreq" | "not exposed", "devices": [{"name", "mhz", "max_mhz", "governor"}]},
//  "gpu": {"source": "NVML <driver>" | "not exposed (why)", "gpus": [{"index", "name", "sm_mhz", "mem_mhz",
//          "max_sm_mhz", "temp_c", "power_w", "pstate", "throttle": ["hw_thermal_slowdown", ...]}]},
//  "load": {"loadavg1", "psi_cpu_some_us", "cpu_busy_jiffies", "cpu_total_jiffies", "cpus"},
//  "uptime_s": seconds (steady clock)}
nlohmann::json read_machine_state(const MachineSources &src);

// Throttling a reading shows: ["gpu0 hw_thermal_slowdown", "cooling thermal-cpufreq-0 at 2/5",
// "thermal_zone3 (gpu) 96.0 C >= passive 95.0 C"]; empty when none. (`before`: the counters' start,
// for the Intel throttle count; null for none.)
nlohmann::json throttle_seen(const nlohmann::json &state, const nlohmann::json &before = nullptr);

// This process's threads, from /proc/self/task/*/schedstat: {"cpu_s": on a CPU, "wait_s": runnable but waiting
// for one}, summed over the threads alive now; {} where not exposed. Read at a block's start and end inside the
// benchmarking process, the difference says how much a neighbour's load took from the benchmark itself, which
// the system-wide CPU pressure cannot tell on a machine whose niced background work always waits.
nlohmann::json own_cpu_wait(const MachineSources &src);
// wait_s / (cpu_s + wait_s) between two own_cpu_wait() readings; null when either is empty.
nlohmann::json wait_share(const nlohmann::json &start, const nlohmann::json &end);

// Reads the machine every `period_s` on a thread of its own between start() and stop(): stop() returns
// {"before": reading, "after": reading, "during": {"seconds", "samples", "cpu_mhz": {"min", "mean", "max"},
//  "temp_c_max", "gpus": [{"index", "sm_mhz": {...}, "temp_c_max"}], "throttle": [what throttle_seen said,
//  any sample], "psi_cpu_some": fraction of the time some task waited for a CPU (null: not exposed),
//  "cpu_busy": fraction of all CPUs busy, "loadavg1": [before, after]}}.
class MachineSampler {
public:
    explicit MachineSampler(MachineSources src = MachineSources::from_environment(), double period_s = 0.5);
    ~MachineSampler();
    void start();
    nlohmann::json stop();

private:
    void loop();
    MachineSources src_;
    double period_s_;
    nlohmann::json before_, samples_ = nlohmann::json::array();
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false, running_ = false;
};

// What a block's record (MachineSampler::stop() plus "calibration": {"start", "end"}) says, in lines for a
// person: clocks, temperatures, throttling, load and calibration, before -> after.
std::string describe_machine_block(const nlohmann::json &block);

}  // namespace harness
