// Device personalities (device_personality.h): the embedded personalities.json, parsed and checked, and
// the process's active personality and last refusal.
#include "devices/device_personality.h"

#include <atomic>
#include <mutex>
#include <stdexcept>

// Generated at configure time from devices/personalities.json (harness/CMakeLists.txt).
extern const char *const harness_embedded_personalities_json;

namespace harness {

namespace personality_file {

[[noreturn]] void bad(const std::string &where, const std::string &what) {
    throw std::runtime_error("personalities.json: " + where + ": " + what +
                             "; fix harness/src/devices/personalities.json");
}

// A field {value, source}: the value, checked to be there with a non-empty source.
const nlohmann::json &sourced(const nlohmann::json &obj, const std::string &where, const char *field) {
    if (!obj.is_object() || !obj.contains(field)) bad(where, std::string("missing field '") + field + "'");
    const nlohmann::json &f = obj.at(field);
    if (!f.is_object() || !f.contains("value") || !f.contains("source") || !f.at("source").is_string() ||
        f.at("source").get<std::string>().empty()) {
        bad(where + "." + field, "must be {\"value\": ..., \"source\": \"where the value comes from\"}");
    }
    return f.at("value");
}

template<typename T>
T number(const nlohmann::json &obj, const std::string &where, const char *field) {
    const nlohmann::json &v = sourced(obj, where, field);
    if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) bad(where + "." + field, "must be a positive integer");
    return static_cast<T>(v.get<uint64_t>());
}

bool flag(const nlohmann::json &obj, const std::string &where, const char *field) {
    const nlohmann::json &v = sourced(obj, where, field);
    if (!v.is_boolean()) bad(where + "." + field, "must be true or false");
    return v.get<bool>();
}

template<typename T>
void triple(const nlohmann::json &obj, const std::string &where, const char *field, T out[3]) {
    const nlohmann::json &v = sourced(obj, where, field);
    if (!v.is_array() || v.size() != 3) bad(where + "." + field, "must be three positive integers");
    for (int i = 0; i < 3; i++) {
        if (!v[i].is_number_unsigned() || v[i].get<uint64_t>() == 0) {
            bad(where + "." + field, "must be three positive integers");
        }
        out[i] = static_cast<T>(v[i].get<uint64_t>());
    }
}

std::atomic<const DevicePersonality *> active{nullptr};
// Never destroyed: the interposed runtimes may refuse a call while the process exits.
std::mutex &violation_mutex = *new std::mutex;
std::string &violation = *new std::string;

}  // namespace personality_file

using personality_file::bad;
using personality_file::flag;
using personality_file::number;
using personality_file::sourced;
using personality_file::triple;

std::string DevicePersonality::limits_text() const {
    return "work-group " + std::to_string(cl_max_work_group_size) + " (" + std::to_string(cl_max_work_item_sizes[0]) +
           "x" + std::to_string(cl_max_work_item_sizes[1]) + "x" + std::to_string(cl_max_work_item_sizes[2]) +
           "), local memory " + std::to_string(cl_local_mem_size / 1024) + " KiB, subgroup " +
           std::to_string(subgroup_size) + ", fp64 " + (fp64 ? "yes" : "no") + ", fp16 " + (fp16 ? "yes" : "no") +
           "; Vulkan: " + std::to_string(vk_max_invocations) + " invocations, shared memory " +
           std::to_string(vk_max_shared_memory) + " bytes, subgroup " + std::to_string(vk_subgroup_size);
}

std::vector<DevicePersonality> parse_device_personalities(const std::string &json_text) {
    nlohmann::ordered_json doc;  // (the devices layer stands below base's JSON reader: the embedded file, read here)
    try {
        doc = nlohmann::ordered_json::parse(json_text);
    } catch (const nlohmann::json::exception &e) {
        bad("the file", std::string("not valid JSON (") + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("devices") || !doc["devices"].is_object() || doc["devices"].empty()) {
        bad("the file", "no \"devices\" object");
    }
    std::vector<DevicePersonality> out;
    for (const auto &[key, od] : doc["devices"].items()) {
        const nlohmann::json d = nlohmann::json::parse(od.dump());
        DevicePersonality p;
        p.key = key;
        if (!d.is_object() || !d.contains("name") || !d["name"].is_string()) bad(key, "missing string field 'name'");
        p.name = d["name"].get<std::string>();
        const nlohmann::json &arch = sourced(d, key, "architecture");
        if (!arch.is_string()) bad(key + ".architecture", "must be a string");
        p.architecture = arch.get<std::string>();
        if (!d.contains("opencl") || !d.contains("vulkan")) bad(key, "needs both 'opencl' and 'vulkan' objects");
        const nlohmann::json &cl = d["opencl"], &vk = d["vulkan"];
        const std::string cw = key + ".opencl", vw = key + ".vulkan";
        p.cl_max_work_group_size = number<uint64_t>(cl, cw, "max_work_group_size");
        triple(cl, cw, "max_work_item_sizes", p.cl_max_work_item_sizes);
        p.cl_local_mem_size = number<uint64_t>(cl, cw, "local_mem_size");
        p.fp64 = flag(cl, cw, "fp64");
        p.fp16 = flag(cl, cw, "fp16");
        p.subgroup_size = number<uint32_t>(cl, cw, "subgroup_size");
        p.vk_max_invocations = number<uint32_t>(vk, vw, "max_compute_work_group_invocations");
        triple(vk, vw, "max_compute_work_group_size", p.vk_max_work_group_size);
        p.vk_max_shared_memory = number<uint32_t>(vk, vw, "max_compute_shared_memory_size");
        p.vk_subgroup_size = number<uint32_t>(vk, vw, "subgroup_size");
        p.vk_float64 = flag(vk, vw, "shader_float64");
        p.vk_float16 = flag(vk, vw, "shader_float16");
        for (uint64_t s : p.cl_max_work_item_sizes) {
            if (s > p.cl_max_work_group_size) bad(cw, "an item size exceeds max_work_group_size");
        }
        p.sources = d;
        out.push_back(p);
    }
    return out;
}

const std::vector<DevicePersonality> &device_personalities() {
    static const std::vector<DevicePersonality> list = parse_device_personalities(harness_embedded_personalities_json);
    return list;
}

const DevicePersonality &find_device_personality(const std::string &key) {
    std::string known;
    for (const auto &p : device_personalities()) {
        if (p.key == key) return p;
        known += (known.empty() ? "" : ", ") + p.key;
    }
    throw std::runtime_error("unknown device '" + key + "'; known devices: " + known +
                             " (harness/src/devices/personalities.json)");
}

void activate_device_personality(const DevicePersonality *p) {
    personality_file::active = p;
}

const DevicePersonality *active_device_personality() {
    return personality_file::active.load();
}

std::string take_device_limit_violation() {
    std::lock_guard<std::mutex> lock(personality_file::violation_mutex);
    std::string s;
    s.swap(personality_file::violation);
    return s;
}

void set_device_limit_violation(const std::string &message) {
    std::lock_guard<std::mutex> lock(personality_file::violation_mutex);
    personality_file::violation = message;
}

std::string personality_gap_opencl(const DevicePersonality &p, const std::string &driver_extensions) {
    const std::string have = " " + driver_extensions + " ";
    if (p.fp16 && have.find(" cl_khr_fp16 ") == std::string::npos) {
        return "fp16 (cl_khr_fp16) not available on this driver, which " + p.name + " has";
    }
    return "";
}

}  // namespace harness
