// Per-kernel resources of a GPU variant (kernel_resources.h).
#include "run/kernel_resources.h"

#include "devices/kernel_log.h"
#include "devices/probe_in_child.h"
#include "devices/runtime_hooks.h"
#include "variant/invocation.h"

namespace harness {

nlohmann::json measure_kernel_resources(const Variant &variant, const CaseSpec &c, const std::string &golden_dir,
                                        const DevicePersonality *personality) {
    return probe_in_child(
        [&]() -> nlohmann::json {
            install_halide_error_handler();
            activate_device_personality(personality);
            std::vector<Array> inputs = case_inputs(c, golden_dir + "/inputs");
            Invocation inv(variant, c, inputs);
            std::string err;
            if (inv.call(&err) != 0) return {{"error", "the warm-up call failed: " + err}};
            take_kernel_launches();
            set_kernel_recording(true);
            const int rc = inv.call(&err);
            set_kernel_recording(false);
            nlohmann::json out{{"kernels", summarize_kernel_launches(take_kernel_launches(), 1)}, {"calls", 1}};
            if (rc != 0) out["error"] = "the measured call failed: " + err;
            return out;
        },
        "a kernel resource measurement");
}

std::string kernel_exceeds(const nlohmann::json &k, const DevicePersonality &p, const std::string &runtime) {
    const bool vk = runtime == "vulkan";
    std::string why;
    const auto add = [&](const std::string &s) { why += (why.empty() ? "" : ", ") + s; };
    const uint64_t items = k.value("work_group_items", uint64_t(1));
    const uint64_t max_items = vk ? p.vk_max_invocations : p.cl_max_work_group_size;
    if (items > max_items) add("work-group " + std::to_string(items) + " > " + std::to_string(max_items));
    // The work-group's shape "AxBxC" against the per-dimension limits.
    const std::string shape = k.value("work_group", std::string("1"));
    size_t at = 0;
    for (int d = 0; d < 3 && at <= shape.size(); d++) {
        const size_t x = shape.find('x', at);
        const std::string part = shape.substr(at, x == std::string::npos ? std::string::npos : x - at);
        const uint64_t n = part.empty() ? 1 : std::stoull(part);
        const uint64_t lim = vk ? p.vk_max_work_group_size[d] : p.cl_max_work_item_sizes[d];
        if (n > lim) add("dimension " + std::to_string(d) + " " + std::to_string(n) + " > " + std::to_string(lim));
        if (x == std::string::npos) break;
        at = x + 1;
    }
    const int64_t local = k.value("local_mem_bytes", int64_t(-1));
    const uint64_t max_local = vk ? p.vk_max_shared_memory : p.cl_local_mem_size;
    if (local > static_cast<int64_t>(max_local)) {
        add(std::string(vk ? "shared" : "local") + " memory " + std::to_string(local) + " B > " +
            std::to_string(max_local) + " B");
    }
    return why;
}

}  // namespace harness
