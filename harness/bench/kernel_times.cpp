// Per-kernel device time of a GPU benchmark (kernel_times.h).
#include "bench/kernel_times.h"

#include <chrono>
#include <cstdio>

#include "devices/kernel_log.h"

namespace harness::perf {

namespace {

const char *clock_name(const std::string &runtime) {
    if (runtime == "opencl") return "OpenCL profiling events (CL_PROFILING_COMMAND_START..END)";
    if (runtime == "cuda") return "CUDA events recorded on the launch's stream around cuLaunchKernel";
    if (runtime == "vulkan") return "Vulkan timestamp queries (top of pipe before, bottom of pipe after vkCmdDispatch)";
    return "none";
}

}  // namespace

nlohmann::json measure_kernel_breakdown(const std::function<std::string()> &call, int calls,
                                        const std::string &runtime) {
    take_kernel_launches();  // nothing from before the pass
    set_kernel_recording(true);
    double wall_s = 0;
    int done = 0;
    std::string error;
    for (; done < calls && error.empty(); done++) {
        const auto t0 = std::chrono::steady_clock::now();
        error = call();
        wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    set_kernel_recording(false);
    const std::vector<KernelLaunch> launches = take_kernel_launches();  // the pending times read first
    nlohmann::json out{{"calls", done}, {"clock", clock_name(runtime)}};
    if (!error.empty()) out["error"] = error;
    const double wall_ms = done ? wall_s * 1e3 / done : 0;
    out["wall_ms_per_call"] = wall_ms;
    nlohmann::json kernels = summarize_kernel_launches(launches, done);
    double sum = 0;
    bool all_timed = !kernels.empty();
    for (auto &k : kernels) {
        if (k.contains("device_ms_per_call")) {
            sum += k["device_ms_per_call"].get<double>();
            if (wall_ms > 0) k["share_of_wall"] = k["device_ms_per_call"].get<double>() / wall_ms;
        } else {
            all_timed = false;
        }
    }
    out["kernels"] = kernels;
    if (all_timed) {
        out["device_ms_per_call"] = sum;
        if (wall_ms > 0) out["share_of_wall"] = sum / wall_ms;
    }
    std::string note = kernel_timing_note(runtime);
    if (kernels.empty()) note = "no kernel launch was seen (a pipeline without GPU kernels, or not this runtime)";
    if (!all_timed && note.empty()) note = "not measured: the runtime gave no device time for some launches";
    if (!note.empty()) out["note"] = note;
    return out;
}

void add_kernel_counters(benchmark::State &state, const nlohmann::json &b) {
    if (b.contains("device_ms_per_call")) state.counters["kernels_device_ms"] = b["device_ms_per_call"].get<double>();
    if (b.contains("share_of_wall")) state.counters["kernels_share_pct"] = 100 * b["share_of_wall"].get<double>();
    for (const auto &k : b.value("kernels", nlohmann::json::array())) {
        if (k.contains("device_ms_per_call"))
            state.counters["kernel_ms/" + k["kernel"].get<std::string>()] = k["device_ms_per_call"].get<double>();
    }
}

std::string kernel_breakdown_text(const std::string &benchmark, const nlohmann::json &b) {
    char line[512];
    if (!b.contains("calls")) return benchmark + ": " + b.value("note", std::string("not measured")) + "\n";
    std::string s = benchmark + ": " + std::to_string(b.value("calls", 0)) + " calls, wall ";
    std::snprintf(line, sizeof line, "%.4f ms per call", b.value("wall_ms_per_call", 0.0));
    s += line;
    if (b.contains("device_ms_per_call")) {
        std::snprintf(line, sizeof line, "; kernels %.4f ms (%.0f %% of the wall)",
                      b["device_ms_per_call"].get<double>(), 100 * b.value("share_of_wall", 0.0));
        s += line;
    }
    s += "\n  clock: " + b.value("clock", std::string("?")) + "\n";
    if (b.contains("note")) s += "  note: " + b["note"].get<std::string>() + "\n";
    if (b.contains("error")) s += "  error: " + b["error"].get<std::string>() + "\n";
    std::snprintf(line, sizeof line, "  %-48s %8s %11s %6s %11s %11s %5s %s\n", "kernel", "launches", "device ms",
                  "share", "work-group", "groups", "args", "local mem");
    s += line;
    for (const auto &k : b.value("kernels", nlohmann::json::array())) {
        const std::string ms = k.contains("device_ms_per_call") ?
                                   std::to_string(k["device_ms_per_call"].get<double>()).substr(0, 8) :
                                   "not measured";
        char share[16] = "-";
        if (k.contains("share_of_wall"))
            std::snprintf(share, sizeof share, "%.0f %%", 100 * k["share_of_wall"].get<double>());
        const int64_t local = k.value("local_mem_bytes", int64_t(-1)), args = k.value("arguments", int64_t(-1));
        std::snprintf(line, sizeof line, "  %-48s %8.2f %11s %6s %11s %11s %5s %s\n",
                      k["kernel"].get<std::string>().c_str(), k.value("launches_per_call", 0.0), ms.c_str(), share,
                      k.value("work_group", std::string("?")).c_str(), k.value("groups", std::string("?")).c_str(),
                      args < 0 ? "-" : std::to_string(args).c_str(),
                      local < 0 ? "-" : (std::to_string(local) + " B").c_str());
        s += line;
    }
    return s;
}

}  // namespace harness::perf
