// Reading the machine (machine_state.h): sysfs and /proc files, NVML (nvml_reader.cpp), and the sampler
// that reads them between a block's start and stop.
#include "devices/machine_state.h"

#include <dirent.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "devices/nvml_reader.h"

namespace harness {

namespace {

// The file's first line without trailing white space, or "" when it cannot be read.
std::string machine_file_line(const std::string &path) {
    std::ifstream f(path);
    std::string line;
    if (!f || !std::getline(f, line)) return "";
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
    return line;
}

bool machine_file_number(const std::string &path, double *out) {
    const std::string text = machine_file_line(path);
    if (text.empty()) return false;
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str()) return false;
    *out = v;
    return true;
}

// Names in `dir` starting with `prefix`, ordered by the number after it (policy2 before policy10).
std::vector<std::string> numbered_entries(const std::string &dir, const std::string &prefix) {
    std::vector<std::pair<long, std::string>> found;
    if (DIR *d = opendir(dir.c_str())) {
        while (const dirent *e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.compare(0, prefix.size(), prefix) != 0 || n.size() == prefix.size()) continue;
            if (n.find_first_not_of("0123456789", prefix.size()) != std::string::npos) continue;
            found.emplace_back(std::atol(n.c_str() + prefix.size()), n);
        }
        closedir(d);
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (const auto &[_, n] : found)
        out.push_back(n);
    return out;
}

std::vector<std::string> all_entries(const std::string &dir) {
    std::vector<std::string> out;
    if (DIR *d = opendir(dir.c_str())) {
        while (const dirent *e = readdir(d)) {
            if (e->d_name[0] != '.') out.push_back(e->d_name);
        }
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

double round1(double v) {
    return static_cast<double>(static_cast<long long>(v * 10.0 + (v < 0 ? -0.5 : 0.5))) / 10.0;
}

nlohmann::json read_cpu(const MachineSources &src) {
    nlohmann::json cpu{{"mhz", nlohmann::json::array()}, {"max_mhz", nlohmann::json::array()}};
    const std::string base = src.sysfs + "/devices/system/cpu";
    std::vector<std::string> dirs;
    for (const auto &p : numbered_entries(base + "/cpufreq", "policy"))
        dirs.push_back(base + "/cpufreq/" + p);
    if (dirs.empty()) {  // kernels without policy directories: one cpufreq directory per CPU
        for (const auto &c : numbered_entries(base, "cpu")) {
            if (!machine_file_line(base + "/" + c + "/cpufreq/scaling_cur_freq").empty())
                dirs.push_back(base + "/" + c + "/cpufreq");
        }
    }
    for (const auto &d : dirs) {
        double khz = 0, max_khz = 0;
        if (!machine_file_number(d + "/scaling_cur_freq", &khz) && !machine_file_number(d + "/cpuinfo_cur_freq", &khz))
            continue;
        cpu["mhz"].push_back(round1(khz / 1000.0));
        if (machine_file_number(d + "/cpuinfo_max_freq", &max_khz) ||
            machine_file_number(d + "/scaling_max_freq", &max_khz))
            cpu["max_mhz"].push_back(round1(max_khz / 1000.0));
        if (!cpu.contains("governor")) {
            if (std::string g = machine_file_line(d + "/scaling_governor"); !g.empty()) cpu["governor"] = g;
        }
    }
    cpu["source"] = cpu["mhz"].empty() ? "not exposed" : "cpufreq";
    double throttles = 0;
    bool any = false;
    for (const auto &c : numbered_entries(base, "cpu")) {
        for (const char *f : {"core_throttle_count", "package_throttle_count"}) {
            double v = 0;
            if (machine_file_number(base + "/" + c + "/thermal_throttle/" + f, &v)) {
                throttles += v;
                any = true;
            }
        }
    }
    if (any) cpu["throttle_count"] = throttles;
    std::ifstream info(src.procfs + "/cpuinfo");
    nlohmann::json cpuinfo = nlohmann::json::array();
    for (std::string line; std::getline(info, line);) {
        if (line.compare(0, 7, "cpu MHz") != 0) continue;
        if (const size_t colon = line.find(':'); colon != std::string::npos)
            cpuinfo.push_back(round1(std::strtod(line.c_str() + colon + 1, nullptr)));
    }
    if (!cpuinfo.empty()) cpu["cpuinfo_mhz"] = cpuinfo;
    return cpu;
}

nlohmann::json read_thermal(const MachineSources &src) {
    const std::string base = src.sysfs + "/class/thermal";
    nlohmann::json zones = nlohmann::json::array(), cooling = nlohmann::json::array();
    for (const auto &z : numbered_entries(base, "thermal_zone")) {
        double milli = 0;
        if (!machine_file_number(base + "/" + z + "/temp", &milli)) continue;
        nlohmann::json zone{
            {"zone", z}, {"type", machine_file_line(base + "/" + z + "/type")}, {"temp_c", round1(milli / 1000.0)}};
        for (int k = 0; k < 32; k++) {
            const std::string trip = base + "/" + z + "/trip_point_" + std::to_string(k);
            const std::string type = machine_file_line(trip + "_type");
            if (type.empty()) break;
            double t = 0;
            if (type == "passive" && machine_file_number(trip + "_temp", &t) && t > 0 &&
                (!zone.contains("passive_c") || t / 1000.0 < zone["passive_c"].get<double>()))
                zone["passive_c"] = round1(t / 1000.0);
        }
        zones.push_back(zone);
    }
    for (const auto &c : numbered_entries(base, "cooling_device")) {
        double cur = 0, max = 0;
        if (!machine_file_number(base + "/" + c + "/cur_state", &cur)) continue;
        machine_file_number(base + "/" + c + "/max_state", &max);
        cooling.push_back(
            {{"device", c}, {"type", machine_file_line(base + "/" + c + "/type")}, {"cur", cur}, {"max", max}});
    }
    return {{"source", zones.empty() ? "not exposed" : "thermal zones"}, {"zones", zones}, {"cooling", cooling}};
}

nlohmann::json read_devfreq(const MachineSources &src) {
    const std::string base = src.sysfs + "/class/devfreq";
    nlohmann::json devices = nlohmann::json::array();
    for (const auto &n : all_entries(base)) {
        double hz = 0, max_hz = 0;
        if (!machine_file_number(base + "/" + n + "/cur_freq", &hz)) continue;
        nlohmann::json d{{"name", n}, {"mhz", round1(hz / 1e6)}};
        if (machine_file_number(base + "/" + n + "/max_freq", &max_hz)) d["max_mhz"] = round1(max_hz / 1e6);
        if (std::string g = machine_file_line(base + "/" + n + "/governor"); !g.empty()) d["governor"] = g;
        devices.push_back(d);
    }
    return {{"source", devices.empty() ? "not exposed" : "devfreq"}, {"devices", devices}};
}

nlohmann::json read_load(const MachineSources &src) {
    nlohmann::json load = nlohmann::json::object();
    double v = 0;
    if (machine_file_number(src.procfs + "/loadavg", &v)) load["loadavg1"] = v;
    std::ifstream psi(src.procfs + "/pressure/cpu");
    for (std::string line; std::getline(psi, line);) {
        const size_t at = line.find("total=");
        if (line.compare(0, 4, "some") == 0 && at != std::string::npos)
            load["psi_cpu_some_us"] = std::strtod(line.c_str() + at + 6, nullptr);
    }
    std::ifstream stat(src.procfs + "/stat");
    int cpus = 0;
    for (std::string line; std::getline(stat, line);) {
        if (line.compare(0, 4, "cpu ") == 0) {
            std::istringstream in(line.substr(4));
            double f[8] = {0}, total = 0;
            for (double &x : f) {
                in >> x;
                total += x;
            }
            load["cpu_total_jiffies"] = total;
            load["cpu_busy_jiffies"] = total - f[3] - f[4];  // all but idle and iowait
        } else if (line.compare(0, 3, "cpu") == 0) {
            cpus++;
        }
    }
    if (cpus) load["cpus"] = cpus;
    return load;
}

// min/mean/max of `values`; null for none.
nlohmann::json spread(const std::vector<double> &values) {
    if (values.empty()) return nullptr;
    double sum = 0;
    for (double v : values)
        sum += v;
    return {{"min", *std::min_element(values.begin(), values.end())},
            {"mean", round1(sum / static_cast<double>(values.size()))},
            {"max", *std::max_element(values.begin(), values.end())}};
}

double mean_of(const nlohmann::json &numbers) {
    double sum = 0;
    for (const auto &x : numbers)
        sum += x.get<double>();
    return numbers.empty() ? 0 : sum / static_cast<double>(numbers.size());
}

}  // namespace

MachineSources MachineSources::from_environment() {
    MachineSources s;
    if (const char *v = std::getenv("HARNESS_SYSFS_ROOT"); v && *v) s.sysfs = v;
    if (const char *v = std::getenv("HARNESS_PROCFS_ROOT"); v && *v) s.procfs = v;
    if (const char *v = std::getenv("HARNESS_NVML_LIBRARY"); v && *v) s.nvml = v;
    return s;
}

nlohmann::json read_machine_state(const MachineSources &src) {
    const double now = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return {{"cpu", read_cpu(src)},       {"thermal", read_thermal(src)}, {"devfreq", read_devfreq(src)},
            {"gpu", read_nvml(src.nvml)}, {"load", read_load(src)},       {"uptime_s", now}};
}

nlohmann::json throttle_seen(const nlohmann::json &state, const nlohmann::json &before) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto &g : state.value("/gpu/gpus"_json_pointer, nlohmann::json::array())) {
        for (const auto &r : g.value("throttle", nlohmann::json::array())) {
            if (nvml_reason_slows(r.get<std::string>()))
                out.push_back("gpu" + std::to_string(g.value("index", 0)) + " " + r.get<std::string>());
        }
    }
    for (const auto &c : state.value("/thermal/cooling"_json_pointer, nlohmann::json::array())) {
        std::string type = c.value("type", "");
        std::string lower = type;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (c.value("cur", 0.0) > 0 && lower.find("fan") == std::string::npos) {
            std::ostringstream s;
            s << "cooling " << c.value("device", "") << " (" << type << ") at " << c.value("cur", 0.0) << "/"
              << c.value("max", 0.0);
            out.push_back(s.str());
        }
    }
    for (const auto &z : state.value("/thermal/zones"_json_pointer, nlohmann::json::array())) {
        if (z.contains("passive_c") && z.value("temp_c", 0.0) >= z["passive_c"].get<double>()) {
            std::ostringstream s;
            s << z.value("zone", "") << " (" << z.value("type", "") << ") " << z.value("temp_c", 0.0)
              << " C >= passive trip " << z["passive_c"].get<double>() << " C";
            out.push_back(s.str());
        }
    }
    const nlohmann::json::json_pointer count("/cpu/throttle_count");
    if (before.is_object() && before.contains(count) && state.contains(count) &&
        state[count].get<double>() > before[count].get<double>()) {
        out.push_back("cpu thermal throttle events +" +
                      std::to_string(static_cast<long long>(state[count].get<double>() - before[count].get<double>())));
    }
    return out;
}

nlohmann::json own_cpu_wait(const MachineSources &src) {
    const std::string dir = src.procfs + "/self/task";
    double cpu_ns = 0, wait_ns = 0;
    int threads = 0;
    for (const auto &t : all_entries(dir)) {
        std::ifstream f(dir + "/" + t + "/schedstat");
        double c = 0, w = 0;
        if (f >> c >> w) {
            cpu_ns += c;
            wait_ns += w;
            threads++;
        }
    }
    if (!threads) return nlohmann::json::object();
    return {{"cpu_s", cpu_ns / 1e9}, {"wait_s", wait_ns / 1e9}, {"threads", threads}};
}

nlohmann::json wait_share(const nlohmann::json &start, const nlohmann::json &end) {
    if (!start.is_object() || !end.is_object() || !start.contains("cpu_s") || !end.contains("cpu_s")) return nullptr;
    const double cpu = end["cpu_s"].get<double>() - start["cpu_s"].get<double>();
    const double wait = end["wait_s"].get<double>() - start["wait_s"].get<double>();
    return cpu + wait > 0 ? nlohmann::json(std::max(0.0, wait) / (cpu + wait)) : nlohmann::json();
}

MachineSampler::MachineSampler(MachineSources src, double period_s) : src_(std::move(src)), period_s_(period_s) {}

MachineSampler::~MachineSampler() {
    if (running_) stop();
}

void MachineSampler::start() {
    before_ = read_machine_state(src_);
    samples_ = nlohmann::json::array();
    stopping_ = false;
    running_ = true;
    thread_ = std::thread([this] { loop(); });
}

void MachineSampler::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::duration<double>(period_s_), [this] { return stopping_; })) {
        lock.unlock();
        nlohmann::json s = read_machine_state(src_);
        lock.lock();
        samples_.push_back(std::move(s));
    }
}

nlohmann::json MachineSampler::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    running_ = false;
    const nlohmann::json after = read_machine_state(src_);
    std::vector<nlohmann::json> all{before_};
    for (const auto &s : samples_)
        all.push_back(s);
    all.push_back(after);

    nlohmann::json during{
        {"seconds", round1((after["uptime_s"].get<double>() - before_["uptime_s"].get<double>()) * 10) / 10},
        {"samples", all.size()}};
    std::vector<double> cpu_mhz, temps;
    std::map<int, std::pair<std::vector<double>, double>> gpus;  // index -> SM clocks, hottest
    nlohmann::json throttle = nlohmann::json::array();
    for (const auto &s : all) {
        if (!s["cpu"]["mhz"].empty()) cpu_mhz.push_back(round1(mean_of(s["cpu"]["mhz"])));
        for (const auto &z : s["thermal"]["zones"])
            temps.push_back(z.value("temp_c", 0.0));
        for (const auto &g : s["gpu"]["gpus"]) {
            auto &entry = gpus[g.value("index", 0)];
            if (g.contains("sm_mhz")) entry.first.push_back(g["sm_mhz"].get<double>());
            entry.second = std::max(entry.second, g.value("temp_c", 0.0));
        }
        for (const auto &t : throttle_seen(s, before_)) {
            if (std::find(throttle.begin(), throttle.end(), t) == throttle.end()) throttle.push_back(t);
        }
    }
    during["cpu_mhz"] = spread(cpu_mhz);
    during["temp_c_max"] =
        temps.empty() ? nlohmann::json() : nlohmann::json(*std::max_element(temps.begin(), temps.end()));
    during["gpus"] = nlohmann::json::array();
    for (const auto &[index, g] : gpus)
        during["gpus"].push_back({{"index", index}, {"sm_mhz", spread(g.first)}, {"temp_c_max", g.second}});
    during["throttle"] = throttle;
    const nlohmann::json &b = before_["load"], &a = after["load"];
    const double secs = after["uptime_s"].get<double>() - before_["uptime_s"].get<double>();
    during["psi_cpu_some"] =
        b.contains("psi_cpu_some_us") && a.contains("psi_cpu_some_us") && secs >= 0.05 ?
            nlohmann::json(
                std::min(1.0, (a["psi_cpu_some_us"].get<double>() - b["psi_cpu_some_us"].get<double>()) / 1e6 / secs)) :
            nlohmann::json();
    const double total = a.value("cpu_total_jiffies", 0.0) - b.value("cpu_total_jiffies", 0.0);
    during["cpu_busy"] =
        total > 0 ? nlohmann::json((a.value("cpu_busy_jiffies", 0.0) - b.value("cpu_busy_jiffies", 0.0)) / total) :
                    nlohmann::json();
    during["loadavg1"] = {b.value("loadavg1", 0.0), a.value("loadavg1", 0.0)};
    return {{"before", before_}, {"after", after}, {"during", during}};
}

}  // namespace harness
