// describe_machine_block (machine_state.h): a benchmark block's machine record as lines a person reads, for
// `aot-harness machine --bench FILE` and the bench output.
#include <cstdio>
#include <string>

#include "devices/machine_state.h"

namespace harness {

namespace {

std::string fmt(const char *format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

double hottest(const nlohmann::json &state) {
    double t = -1e9;
    for (const auto &z : state.value("/thermal/zones"_json_pointer, nlohmann::json::array()))
        t = std::max(t, z.value("temp_c", -1e9));
    return t;
}

double mean_mhz(const nlohmann::json &state) {
    const nlohmann::json mhz = state.value("/cpu/mhz"_json_pointer, nlohmann::json::array());
    double sum = 0;
    for (const auto &m : mhz)
        sum += m.get<double>();
    return mhz.empty() ? 0 : sum / static_cast<double>(mhz.size());
}

std::string during_spread(const nlohmann::json &s, const char *unit) {
    if (!s.is_object()) return "";
    return " (during: min " + fmt("%.0f", s.value("min", 0.0)) + ", mean " + fmt("%.0f", s.value("mean", 0.0)) +
           ", max " + fmt("%.0f", s.value("max", 0.0)) + unit + ")";
}

void calibration_lines(const nlohmann::json &cal, std::string &out) {
    const nlohmann::json start = cal.value("start", nlohmann::json()), end = cal.value("end", nlohmann::json());
    if (!start.is_object()) {
        out += "calibration: none recorded\n";
        return;
    }
    std::string line = "calibration:";
    const auto one = [&](const std::string &label, const nlohmann::json &a, const nlohmann::json &b, const char *unit) {
        if (!a.is_number()) return;
        line += " " + label + " " + fmt("%.3g", a.get<double>());
        if (b.is_number()) {
            line += " -> " + fmt("%.3g", b.get<double>());
            if (a.get<double>() > 0)
                line += std::string(" ") + unit + fmt(" (%+.1f %%)", 100.0 * (b.get<double>() / a.get<double>() - 1));
        } else {
            line += std::string(" ") + unit;
        }
        line += ";";
    };
    one("cpu work (" + std::to_string(start.value("threads", 0)) + " threads)",
        start.value("cpu_work_ms", nlohmann::json()),
        end.is_object() ? end.value("cpu_work_ms", nlohmann::json()) : nlohmann::json(), "ms");
    one("cpu work (1 thread)", start.value("cpu_work_1t_ms", nlohmann::json()),
        end.is_object() ? end.value("cpu_work_1t_ms", nlohmann::json()) : nlohmann::json(), "ms");
    one("host copy", start.value("host_copy_GBps", nlohmann::json()),
        end.is_object() ? end.value("host_copy_GBps", nlohmann::json()) : nlohmann::json(), "GB/s");
    const nlohmann::json copies = start.value("device_copy_GBps", nlohmann::json::object());
    for (const auto &[runtime, v] : copies.items()) {
        one(runtime + " copy", v,
            end.is_object() ? end.value("/device_copy_GBps"_json_pointer / runtime, nlohmann::json()) :
                              nlohmann::json(),
            "GB/s");
    }
    if (line.back() == ';') line.pop_back();
    out += line + "\n";
}

}  // namespace

std::string describe_machine_block(const nlohmann::json &block) {
    const nlohmann::json before = block.value("before", nlohmann::json::object()),
                         after = block.value("after", nlohmann::json::object()),
                         during = block.value("during", nlohmann::json::object());
    std::string out;
    const nlohmann::json cpu = before.value("cpu", nlohmann::json::object());
    if (cpu.value("source", "") == "cpufreq") {
        out += "cpu clocks: " + fmt("%.0f", mean_mhz(before)) + " -> " + fmt("%.0f", mean_mhz(after)) + " MHz" +
               during_spread(during.value("cpu_mhz", nlohmann::json()), " MHz") +
               (cpu.contains("governor") ? ", governor " + cpu["governor"].get<std::string>() : "") + "\n";
    } else {
        out += "cpu clocks: not exposed (no cpufreq)";
        if (cpu.contains("cpuinfo_mhz") && !cpu["cpuinfo_mhz"].empty())
            out +=
                "; /proc/cpuinfo says " + fmt("%.0f", cpu["cpuinfo_mhz"][0].get<double>()) + " MHz (nominal on a VM)";
        out += "\n";
    }
    if (before.value("/thermal/source"_json_pointer, std::string()) == "thermal zones") {
        out +=
            "temperatures: hottest zone " + fmt("%.1f", hottest(before)) + " -> " + fmt("%.1f", hottest(after)) + " C";
        if (during.value("temp_c_max", nlohmann::json()).is_number())
            out += " (max " + fmt("%.1f", during["temp_c_max"].get<double>()) + " C during)";
        out += "\n";
    } else {
        out += "temperatures: not exposed (no thermal zones)\n";
    }
    const nlohmann::json devfreq = before.value("/devfreq/devices"_json_pointer, nlohmann::json::array());
    for (size_t i = 0; i < devfreq.size(); i++) {
        const nlohmann::json a = after.value("/devfreq/devices"_json_pointer, nlohmann::json::array());
        out += "devfreq " + devfreq[i].value("name", "") + ": " + fmt("%.0f", devfreq[i].value("mhz", 0.0)) + " -> " +
               (i < a.size() ? fmt("%.0f", a[i].value("mhz", 0.0)) : std::string("?")) + " MHz\n";
    }
    const nlohmann::json gpus = before.value("/gpu/gpus"_json_pointer, nlohmann::json::array());
    if (gpus.empty())
        out += "gpu clocks: " + before.value("/gpu/source"_json_pointer, std::string("not exposed")) + "\n";
    for (size_t i = 0; i < gpus.size(); i++) {
        const nlohmann::json &g = gpus[i];
        const nlohmann::json a = after.value("/gpu/gpus"_json_pointer, nlohmann::json::array());
        const nlohmann::json ga = i < a.size() ? a[i] : nlohmann::json::object();
        out += "gpu" + std::to_string(g.value("index", 0)) + " " + g.value("name", "") + ": SM " +
               fmt("%.0f", g.value("sm_mhz", 0.0)) + " -> " + fmt("%.0f", ga.value("sm_mhz", 0.0)) + " MHz";
        for (const auto &d : during.value("gpus", nlohmann::json::array())) {
            if (d.value("index", -1) == g.value("index", 0))
                out += during_spread(d.value("sm_mhz", nlohmann::json()), " MHz");
        }
        out += " (max " + fmt("%.0f", g.value("max_sm_mhz", 0.0)) + "), " + fmt("%.0f", g.value("temp_c", 0.0)) +
               " -> " + fmt("%.0f", ga.value("temp_c", 0.0)) + " C, " + fmt("%.0f", ga.value("power_w", 0.0)) +
               " W, P" + std::to_string(ga.value("pstate", 0)) + "\n";
    }
    const nlohmann::json throttle = during.value("throttle", nlohmann::json::array());
    std::string t;
    for (const auto &x : throttle)
        t += (t.empty() ? "" : "; ") + x.get<std::string>();
    out += "throttling: " + (t.empty() ? std::string("none seen") : t) + "\n";
    std::string load = "load:";
    if (during.value("cpu_busy", nlohmann::json()).is_number())
        load += " CPUs " + fmt("%.0f", 100.0 * during["cpu_busy"].get<double>()) + " % busy;";
    if (during.value("psi_cpu_some", nlohmann::json()).is_number())
        load += " a task waited for a CPU " + fmt("%.0f", 100.0 * during["psi_cpu_some"].get<double>()) +
                " % of the time (PSI);";
    else
        load += " CPU pressure not exposed;";
    if (during.value("wait_share", nlohmann::json()).is_number())
        load += " the benchmark's threads waited for a CPU " + fmt("%.0f", 100.0 * during["wait_share"].get<double>()) +
                " % of their runnable time;";
    const nlohmann::json la = during.value("loadavg1", nlohmann::json::array());
    if (la.size() == 2)
        load += " load average " + fmt("%.2f", la[0].get<double>()) + " -> " + fmt("%.2f", la[1].get<double>());
    load += fmt(" over %.1f s", during.value("seconds", 0.0));
    out += load + "\n";
    calibration_lines(block.value("calibration", nlohmann::json::object()), out);
    return out;
}

}  // namespace harness
