// Reading what the machine does (devices/machine_state.h) from a planted /sys and /proc and a fake NVML
// (fake_nvml.cpp): clocks, temperatures, throttling, CPU pressure, "not exposed" where nothing is.
#include "devices/machine_state.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include <gtest/gtest.h>

#include "base/files.h"
#include "base/temp_dir.h"

namespace harness {
namespace {

// A planted machine: two cpufreq policies, two thermal zones (one with a passive trip point), a CPU cooling
// device and a fan, a devfreq GPU, Intel throttle counters, and /proc's load files.
struct FakeMachine {
    TempDir dir{"machine_state_test"};
    MachineSources src;
    FakeMachine() {
        src.sysfs = dir.path() + "/sys";
        src.procfs = dir.path() + "/proc";
        src.nvml = dir.path() + "/no-libnvidia-ml.so";
    }
    void put(const std::string &rel, const std::string &text) const {
        const std::string path = dir.path() + "/" + rel;
        make_dirs(path.substr(0, path.rfind('/')));
        write_file_atomic(path, text + "\n");
    }
    void plant() const {
        const std::string cpu = "sys/devices/system/cpu/";
        put(cpu + "cpufreq/policy0/scaling_cur_freq", "2400000");
        put(cpu + "cpufreq/policy0/cpuinfo_max_freq", "3600000");
        put(cpu + "cpufreq/policy0/scaling_governor", "schedutil");
        put(cpu + "cpufreq/policy10/scaling_cur_freq", "1200000");
        put(cpu + "cpufreq/policy10/cpuinfo_max_freq", "2000000");
        put(cpu + "cpu0/thermal_throttle/core_throttle_count", "3");
        put(cpu + "cpu0/thermal_throttle/package_throttle_count", "1");
        const std::string th = "sys/class/thermal/";
        put(th + "thermal_zone0/type", "x86_pkg_temp");
        put(th + "thermal_zone0/temp", "45500");
        put(th + "thermal_zone0/trip_point_0_type", "critical");
        put(th + "thermal_zone0/trip_point_0_temp", "105000");
        put(th + "thermal_zone1/type", "gpu-thermal");
        put(th + "thermal_zone1/temp", "95000");
        put(th + "thermal_zone1/trip_point_0_type", "passive");
        put(th + "thermal_zone1/trip_point_0_temp", "95000");
        put(th + "cooling_device0/type", "thermal-cpufreq-0");
        put(th + "cooling_device0/cur_state", "2");
        put(th + "cooling_device0/max_state", "5");
        put(th + "cooling_device1/type", "Fan");
        put(th + "cooling_device1/cur_state", "3");
        put(th + "cooling_device1/max_state", "4");
        put("sys/class/devfreq/13000000.gpu/cur_freq", "400000000");
        put("sys/class/devfreq/13000000.gpu/max_freq", "800000000");
        put("sys/class/devfreq/13000000.gpu/governor", "simple_ondemand");
        put("proc/loadavg", "1.50 0.80 0.40 2/300 4242");
        put("proc/pressure/cpu", "some avg10=1.00 avg60=0.50 avg300=0.10 total=1000000\n"
                                 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0");
        put("proc/stat",
            "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\ncpu1 50 0 25 400 25 0 0 0 0 0\n"
            "intr 0");
        put("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2445.404\nprocessor\t: 1\ncpu MHz\t\t: 2445.404");
    }
};

TEST(MachineState, ReadsAPlantedSysfsAndProcfs) {
    FakeMachine m;
    m.plant();
    const nlohmann::json s = read_machine_state(m.src);
    EXPECT_EQ(s["cpu"]["source"], "cpufreq");
    EXPECT_EQ(s["cpu"]["mhz"], nlohmann::json({2400.0, 1200.0}));  // policy0 before policy10
    EXPECT_EQ(s["cpu"]["max_mhz"], nlohmann::json({3600.0, 2000.0}));
    EXPECT_EQ(s["cpu"]["governor"], "schedutil");
    EXPECT_EQ(s["cpu"]["throttle_count"], 4.0);
    EXPECT_EQ(s["cpu"]["cpuinfo_mhz"], nlohmann::json({2445.4, 2445.4}));
    ASSERT_EQ(s["thermal"]["zones"].size(), 2u);
    EXPECT_EQ(s["thermal"]["zones"][0]["temp_c"], 45.5);
    EXPECT_FALSE(s["thermal"]["zones"][0].contains("passive_c"));  // only a critical trip point
    EXPECT_EQ(s["thermal"]["zones"][1]["passive_c"], 95.0);
    EXPECT_EQ(s["thermal"]["cooling"].size(), 2u);
    EXPECT_EQ(s["devfreq"]["devices"][0]["mhz"], 400.0);
    EXPECT_EQ(s["devfreq"]["devices"][0]["max_mhz"], 800.0);
    EXPECT_EQ(s["load"]["loadavg1"], 1.5);
    EXPECT_EQ(s["load"]["psi_cpu_some_us"], 1000000.0);
    EXPECT_EQ(s["load"]["cpu_total_jiffies"], 1000.0);
    EXPECT_EQ(s["load"]["cpu_busy_jiffies"], 150.0);  // all but idle and iowait
    EXPECT_EQ(s["load"]["cpus"], 2);
    EXPECT_EQ(s["gpu"]["source"].get<std::string>().rfind("not exposed", 0), 0u) << s["gpu"];
    // The hot zone at its passive trip point and the CPU cooling device throttle; the fan does not.
    const nlohmann::json t = throttle_seen(s);
    ASSERT_EQ(t.size(), 2u) << t;
    EXPECT_NE(t[0].get<std::string>().find("thermal-cpufreq-0"), std::string::npos);
    EXPECT_NE(t[1].get<std::string>().find("thermal_zone1 (gpu-thermal) 95 C >= passive trip 95 C"), std::string::npos)
        << t[1];
}

TEST(MachineState, NothingExposedSaysSo) {
    FakeMachine m;  // empty /sys and /proc
    const nlohmann::json s = read_machine_state(m.src);
    EXPECT_EQ(s["cpu"]["source"], "not exposed");
    EXPECT_EQ(s["thermal"]["source"], "not exposed");
    EXPECT_EQ(s["devfreq"]["source"], "not exposed");
    EXPECT_TRUE(s["load"].empty());
    EXPECT_TRUE(throttle_seen(s).empty());
    const std::string text =
        describe_machine_block({{"before", s}, {"after", s}, {"during", nlohmann::json::object()}});
    EXPECT_NE(text.find("cpu clocks: not exposed"), std::string::npos) << text;
    EXPECT_NE(text.find("temperatures: not exposed"), std::string::npos) << text;
    EXPECT_NE(text.find("gpu clocks: not exposed"), std::string::npos) << text;
    EXPECT_NE(text.find("calibration: none recorded"), std::string::npos) << text;
}

TEST(MachineState, SamplerMeasuresPressureAndThrottleEventsOfTheBlock) {
    FakeMachine m;
    m.plant();
    MachineSampler sampler(m.src, 0.02);
    sampler.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    // During the block: 0.1 s more of CPU pressure, 100 more busy jiffies of 200, a throttle event, 1.8 GHz.
    m.put("proc/pressure/cpu", "some avg10=9.00 avg60=0.50 avg300=0.10 total=1100000");
    m.put("proc/stat", "cpu  200 0 50 900 50 0 0 0 0 0\ncpu0 1\ncpu1 1");
    m.put("sys/devices/system/cpu/cpu0/thermal_throttle/core_throttle_count", "4");
    m.put("sys/devices/system/cpu/cpufreq/policy10/scaling_cur_freq", "2400000");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const nlohmann::json block = sampler.stop();
    const nlohmann::json &d = block["during"];
    const double secs = d["seconds"].get<double>();
    ASSERT_GT(secs, 0.2);
    EXPECT_NEAR(d["psi_cpu_some"].get<double>(), 0.1 / secs, 0.06);
    EXPECT_DOUBLE_EQ(d["cpu_busy"].get<double>(), 0.5);
    EXPECT_GE(d["samples"].get<int>(), 4);
    EXPECT_EQ(d["cpu_mhz"]["min"], 1800.0);  // (2400 + 1200) / 2 before, 2400 after
    EXPECT_EQ(d["cpu_mhz"]["max"], 2400.0);
    EXPECT_EQ(d["temp_c_max"], 95.0);
    bool counted = false;
    for (const auto &t : d["throttle"])
        counted |= t.get<std::string>() == "cpu thermal throttle events +1";
    EXPECT_TRUE(counted) << d["throttle"];
    EXPECT_EQ(block["after"]["cpu"]["throttle_count"], 5.0);
}

TEST(MachineState, OwnThreadsWaitForACpu) {
    FakeMachine m;
    EXPECT_TRUE(own_cpu_wait(m.src).empty());  // not exposed
    EXPECT_TRUE(wait_share(own_cpu_wait(m.src), own_cpu_wait(m.src)).is_null());
    m.put("proc/self/task/100/schedstat", "1000000000 500000000 10");
    m.put("proc/self/task/101/schedstat", "2000000000 500000000 20");
    const nlohmann::json start = own_cpu_wait(m.src);
    EXPECT_EQ(start, nlohmann::json({{"cpu_s", 3.0}, {"wait_s", 1.0}, {"threads", 2}}));
    m.put("proc/self/task/100/schedstat", "2000000000 1500000000 30");  // +1 s on a CPU, +1 s waiting
    m.put("proc/self/task/102/schedstat", "2000000000 0 5");            // a new thread: +2 s on a CPU
    EXPECT_DOUBLE_EQ(wait_share(start, own_cpu_wait(m.src)).get<double>(), 0.25);
    EXPECT_FALSE(own_cpu_wait(MachineSources{}).empty());  // this process, on Linux
}

#ifdef HARNESS_FAKE_NVML
TEST(MachineState, ReadsNvidiaGpusThroughNvml) {
    FakeMachine m;
    m.src.nvml = HARNESS_FAKE_NVML;
    unsetenv("FAKE_NVML_REASONS");
    nlohmann::json s = read_machine_state(m.src);
    EXPECT_EQ(s["gpu"]["source"], "NVML, driver 570.00-fake");
    ASSERT_EQ(s["gpu"]["gpus"].size(), 1u);
    const nlohmann::json &g = s["gpu"]["gpus"][0];
    EXPECT_EQ(g["name"], "Fake GPU");
    EXPECT_EQ(g["sm_mhz"], 1755);
    EXPECT_EQ(g["max_sm_mhz"], 1980);
    EXPECT_EQ(g["mem_mhz"], 2619);
    EXPECT_EQ(g["temp_c"], 71);
    EXPECT_DOUBLE_EQ(g["power_w"].get<double>(), 612.5);
    EXPECT_TRUE(throttle_seen(s).empty());
    setenv("FAKE_NVML_REASONS", "0x41", 1);  // idle (not throttling) and hardware thermal slowdown
    s = read_machine_state(m.src);
    unsetenv("FAKE_NVML_REASONS");
    EXPECT_EQ(s["gpu"]["gpus"][0]["throttle"], nlohmann::json({"gpu_idle", "hw_thermal_slowdown"}));
    EXPECT_EQ(throttle_seen(s), nlohmann::json({"gpu0 hw_thermal_slowdown"}));
    const std::string text =
        describe_machine_block({{"before", s}, {"after", s}, {"during", {{"throttle", throttle_seen(s)}}}});
    EXPECT_NE(text.find("gpu0 Fake GPU: SM 1755 -> 1755 MHz (max 1980), 71 -> 71 C, 612 W, P0"), std::string::npos)
        << text;
    EXPECT_NE(text.find("throttling: gpu0 hw_thermal_slowdown"), std::string::npos) << text;
}
#endif

}  // namespace
}  // namespace harness
