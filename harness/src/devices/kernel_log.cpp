// The kernel launch log of the interposed runtimes (kernel_log.h).
#include "devices/kernel_log.h"

#include <atomic>
#include <map>
#include <mutex>

namespace harness {

namespace kernel_log_state {

std::atomic<bool> recording{false}, timing{false};
// Never destroyed: the interposed runtimes may record while the process exits.
std::mutex &log_mutex = *new std::mutex;
std::vector<KernelLaunch> &launches = *new std::vector<KernelLaunch>;
std::vector<std::function<void()>> &harvesters = *new std::vector<std::function<void()>>;
std::map<std::string, std::string> &notes = *new std::map<std::string, std::string>;

}  // namespace kernel_log_state

namespace kls = kernel_log_state;

void set_kernel_recording(bool record) {
    kls::recording = record;
}

bool kernel_recording() {
    return kls::recording.load(std::memory_order_relaxed);
}

void set_kernel_timing(bool time) {
    kls::timing = time;
}

bool kernel_timing() {
    return kls::timing.load(std::memory_order_relaxed);
}

size_t record_kernel_launch(const KernelLaunch &launch) {
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    kls::launches.push_back(launch);
    return kls::launches.size() - 1;
}

void set_launch_time(size_t index, double device_ms) {
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    if (index < kls::launches.size()) kls::launches[index].device_ms = device_ms;
}

void add_kernel_time_harvester(const std::function<void()> &harvest) {
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    kls::harvesters.push_back(harvest);
}

std::vector<KernelLaunch> take_kernel_launches() {
    std::vector<std::function<void()>> h;
    {
        std::lock_guard<std::mutex> lock(kls::log_mutex);
        h = kls::harvesters;
    }
    for (const auto &f : h)
        f();
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    std::vector<KernelLaunch> out;
    out.swap(kls::launches);
    return out;
}

void set_kernel_timing_note(const std::string &runtime, const std::string &note) {
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    kls::notes[runtime] = note;
}

std::string kernel_timing_note(const std::string &runtime) {
    std::lock_guard<std::mutex> lock(kls::log_mutex);
    const auto it = kls::notes.find(runtime);
    return it == kls::notes.end() ? "" : it->second;
}

std::string shape_text(const uint64_t s[3]) {
    int dims = 3;
    while (dims > 1 && s[dims - 1] == 1)
        dims--;
    std::string t;
    for (int i = 0; i < dims; i++)
        t += (i ? "x" : "") + std::to_string(s[i]);
    return t;
}

nlohmann::json summarize_kernel_launches(const std::vector<KernelLaunch> &all, double calls) {
    nlohmann::json out = nlohmann::json::array();
    std::map<std::string, size_t> at;  // kernel -> index in out
    for (const KernelLaunch &l : all) {
        auto it = at.find(l.kernel);
        if (it == at.end()) {
            it = at.emplace(l.kernel, out.size()).first;
            uint64_t groups[3];
            for (int i = 0; i < 3; i++)
                groups[i] = l.local[i] ? (l.global[i] + l.local[i] - 1) / l.local[i] : 0;
            nlohmann::json k{{"kernel", l.kernel},
                             {"runtime", l.runtime},
                             {"launches", 0},
                             {"device_ms_total", 0.0},
                             {"timed", true},
                             {"global", shape_text(l.global)},
                             {"work_group", shape_text(l.local)},
                             {"work_group_items", l.local[0] * l.local[1] * l.local[2]},
                             {"groups", shape_text(groups)}};
            if (l.local_mem_bytes >= 0) k["local_mem_bytes"] = l.local_mem_bytes;
            if (l.private_mem_bytes >= 0) k["private_mem_bytes"] = l.private_mem_bytes;
            if (l.registers >= 0) k["registers"] = l.registers;
            if (l.kernel_max_work_group >= 0) k["kernel_max_work_group"] = l.kernel_max_work_group;
            if (l.arguments >= 0) k["arguments"] = l.arguments;
            out.push_back(k);
        }
        nlohmann::json &k = out[it->second];
        k["launches"] = k["launches"].get<int64_t>() + 1;
        if (l.device_ms < 0) {
            k["timed"] = false;
        } else {
            k["device_ms_total"] = k["device_ms_total"].get<double>() + l.device_ms;
        }
    }
    for (auto &k : out) {
        if (calls > 0) k["launches_per_call"] = k["launches"].get<double>() / calls;
        if (k["timed"].get<bool>() && calls > 0) {
            k["device_ms_per_call"] = k["device_ms_total"].get<double>() / calls;
        }
        if (!k["timed"].get<bool>()) k.erase("device_ms_total");
    }
    return out;
}

}  // namespace harness
