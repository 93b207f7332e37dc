// benchmarks/thresholds.json (thresholds.h): reading the per-device floors and checking a run against them.
#include "thresholds.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace bench {

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::regex compile(const std::string &path, const std::string &pattern) {
    try {
        return std::regex(pattern);
    } catch (const std::regex_error &e) {
        throw std::runtime_error(path + ": bad pattern '" + pattern + "' (" + e.what() + "); fix the file");
    }
}

}  // namespace

std::vector<FloorViolation> check_thresholds(const std::string &path, const std::map<std::string, Measured> &measured,
                                             int *checked) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read thresholds file '" + path + "'; pass an existing file");
    std::stringstream text;
    text << f.rdbuf();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text.str());
    } catch (const std::exception &e) {
        throw std::runtime_error(path + ": not valid JSON (" + e.what() + "); fix the file");
    }
    if (!j.contains("devices") || !j["devices"].is_array()) {
        throw std::runtime_error(path + ": needs a \"devices\" array; see benchmarks/thresholds.h");
    }
    std::vector<FloorViolation> out;
    int n = 0;
    for (const auto &entry : j["devices"]) {
        const std::string name = entry.value("name", entry.value("device", std::string("?")));
        const std::regex device = compile(path, entry.value("device", std::string(".*")));
        const std::regex driver = compile(path, entry.value("driver", std::string(".*")));
        if (!entry.contains("min_mpix_per_s") || !entry["min_mpix_per_s"].is_object()) {
            throw std::runtime_error(path + ": entry '" + name + "' needs a \"min_mpix_per_s\" object");
        }
        for (const auto &[pattern, floor_json] : entry["min_mpix_per_s"].items()) {
            if (!floor_json.is_number()) {
                throw std::runtime_error(path + ": entry '" + name + "': floor of '" + pattern + "' is not a number");
            }
            const double floor = floor_json.get<double>();
            const std::regex bench_re = compile(path, pattern);
            for (const auto &[bench, m] : measured) {
                if (!std::regex_match(bench, bench_re) || !std::regex_search(m.device, device) ||
                    !std::regex_search(m.driver, driver)) {
                    continue;
                }
                n++;
                if (!m.error.empty() || m.mpix_per_s.empty()) {
                    out.push_back({bench, name, floor, 0, m.error.empty() ? "no measurement" : m.error});
                    continue;
                }
                const double v = median(m.mpix_per_s);
                if (v < floor) out.push_back({bench, name, floor, v, ""});
            }
        }
    }
    if (checked) *checked = n;
    return out;
}

}  // namespace bench
