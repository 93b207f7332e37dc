// Device personalities: the limits of a real GPU (devices/personalities.json, embedded at build time) that
// `run --device NAME` imposes on whatever OpenCL or Vulkan driver runs the child. The child activates one
// before its first GPU call; the interposed driver entry points (opencl_interpose.cpp, vulkan_interpose.cpp)
// then answer device queries with its values and refuse what the device could not run, leaving a message
// (take_device_limit_violation) that names the kernel, what it needs and the device's limit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

struct DevicePersonality {
    std::string key;           // the --device name, e.g. "mali-g52"
    std::string name;          // e.g. "Mali-G52"
    std::string architecture;  // e.g. "Bifrost (second generation)"
    // OpenCL
    uint64_t cl_max_work_group_size = 0;
    uint64_t cl_max_work_item_sizes[3] = {0, 0, 0};
    uint64_t cl_local_mem_size = 0;
    bool fp64 = false, fp16 = false;
    uint32_t subgroup_size = 0;
    // Vulkan
    uint32_t vk_max_invocations = 0;
    uint32_t vk_max_work_group_size[3] = {0, 0, 0};
    uint32_t vk_max_shared_memory = 0;
    uint32_t vk_subgroup_size = 0;
    bool vk_float64 = false, vk_float16 = false;
    nlohmann::json sources;  // every value with its source, as in the file

    // "Mali-G52 (mali-g52)"
    std::string label() const { return name + " (" + key + ")"; }
    // One line of the limits, for describe and the records.
    std::string limits_text() const;
};

// Parses a personalities file. Throws std::runtime_error naming the device and the field (a value
// without its source is an error too).
std::vector<DevicePersonality> parse_device_personalities(const std::string &json_text);
// The embedded file's personalities, in the file's order (parsed once).
const std::vector<DevicePersonality> &device_personalities();
// The personality called `key`; throws std::runtime_error listing the known ones.
const DevicePersonality &find_device_personality(const std::string &key);

// The personality the interposed entry points apply in this process (nullptr = none: they only pass
// calls through). Set it before the first GPU call of the process.
void activate_device_personality(const DevicePersonality *p);
const DevicePersonality *active_device_personality();

// The last refusal of an interposed entry point ("" if none), and clears it.
std::string take_device_limit_violation();
// Records a refusal (the interposers call it).
void set_device_limit_violation(const std::string &message);

// What this driver lacks that the personality has (e.g. "cl_khr_fp16 (the device has it; this driver does
// not)"), given the driver's OpenCL extension string: "" if nothing. Such a run cannot be emulated.
std::string personality_gap_opencl(const DevicePersonality &p, const std::string &driver_extensions);

}  // namespace harness
