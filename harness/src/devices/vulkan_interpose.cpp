// The Vulkan side of device personalities and the kernel log (vulkan_interpose.h):
//   - with a personality active, the physical-device queries answer its compute limits (work-group invocations and
//     size, maxComputeSharedMemorySize: Halide's runtime then refuses shared memory beyond it itself), subgroup
//     size and shaderFloat64; vkCreateComputePipelines refuses, naming the entry point, a pipeline whose work-group
//     (its specialization constants, read with spirv_reflect.h) exceeds the device's or whose module uses Float64
//     on a device without it;
//   - launches (vkCmdBindPipeline + vkCmdDispatch) are recorded with their entry point, work-group and shared memory
//     when kernel_log.h asks, and timed with timestamp queries around the dispatch when it asks for times (read
//     back after Halide's vkQueueWaitIdle, which follows each of its submissions).
// No Vulkan headers: the few structures are declared in vulkan_abi.h (ABI-stable, as in vulkan_probe.cpp).
#include "devices/vulkan_interpose.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <type_traits>
#include <mutex>
#include <vector>

#include "devices/device_personality.h"
#include "devices/kernel_log.h"
#include "devices/spirv_reflect.h"
#include "devices/vulkan_abi.h"

namespace harness {

namespace vk_shim {

// The Vulkan declarations (Handle, Object, the structures and entry point types): vulkan_abi.h.

struct Real {
    PFN_Properties properties = nullptr, properties2 = nullptr;
    PFN_Features features = nullptr;
    PFN_Features2 features2 = nullptr;
    PFN_CreateShaderModule create_shader_module = nullptr;
    PFN_DestroyObject destroy_shader_module = nullptr, destroy_pipeline = nullptr, destroy_query_pool = nullptr;
    PFN_CreateComputePipelines create_compute_pipelines = nullptr;
    PFN_CmdBindPipeline bind_pipeline = nullptr;
    PFN_CmdDispatch dispatch = nullptr;
    PFN_QueueWaitIdle queue_wait_idle = nullptr;
    PFN_DestroyDevice destroy_device = nullptr;
    PFN_CreateQueryPool create_query_pool = nullptr;
    PFN_CmdResetQueryPool reset_query_pool = nullptr;
    PFN_CmdWriteTimestamp write_timestamp = nullptr;
    PFN_GetQueryPoolResults query_results = nullptr;
} real;

struct PipelineInfo {
    std::string entry;
    SpirvDispatchShape shape;
};
struct Timestamps {
    Handle device = nullptr;
    Object pool = 0;
    uint32_t next = 0;                                 // the next query pair
    std::vector<std::pair<uint32_t, size_t>> pending;  // (first query, launch index) not read yet
    double period_ns = 1;
    bool supported = true;
};
constexpr uint32_t kQueries = 2048;

// Never destroyed: Halide's runtime releases its device from a destructor at exit, through these wrappers.
std::mutex &mutex = *new std::mutex;
std::map<Object, SpirvModule> &modules = *new std::map<Object, SpirvModule>;
std::string &last_module_shared = *new std::string;  // the entry points of the last module with shared memory
std::map<Object, PipelineInfo> &pipelines = *new std::map<Object, PipelineInfo>;
std::map<Handle, Object> &bound = *new std::map<Handle, Object>;  // command buffer -> its compute pipeline
Timestamps &ts = *new Timestamps;

void put_u32(void *props, size_t at, uint32_t v) {
    std::memcpy(static_cast<char *>(props) + at, &v, sizeof v);
}

// The personality's values over a VkPhysicalDeviceProperties, and the driver's timestamp period kept.
void apply_properties(void *props, const DevicePersonality *p) {
    float period = 1;
    uint32_t compute_ts = 0;
    std::memcpy(&period, static_cast<char *>(props) + kTimestampPeriod, sizeof period);
    std::memcpy(&compute_ts, static_cast<char *>(props) + kTimestampCompute, sizeof compute_ts);
    {
        std::lock_guard<std::mutex> lock(mutex);
        ts.period_ns = period > 0 ? period : 1;
        ts.supported = compute_ts != 0;
    }
    if (!p) return;
    put_u32(props, kMaxSharedMemory, p->vk_max_shared_memory);
    put_u32(props, kMaxInvocations, p->vk_max_invocations);
    for (int d = 0; d < 3; d++)
        put_u32(props, kMaxWorkGroupSize + 4 * d, p->vk_max_work_group_size[d]);
}

void apply_chain(ChainHeader *h, const DevicePersonality *p) {
    for (; h && p; h = static_cast<ChainHeader *>(h->pNext)) {
        if (h->sType == kStructSubgroupProperties) put_u32(h, 16, p->vk_subgroup_size);
        if (h->sType == kStructVulkan11Properties) put_u32(h, 64, p->vk_subgroup_size);
        if (h->sType == kStructVulkan13Properties || h->sType == kStructSubgroupSizeControlProperties) {
            put_u32(h, 16, p->vk_subgroup_size);
            put_u32(h, 20, p->vk_subgroup_size);
        }
    }
}

void get_properties(Handle pd, void *props) {
    real.properties(pd, props);
    apply_properties(props, active_device_personality());
}

void get_properties2(Handle pd, void *props2) {
    real.properties2(pd, props2);
    apply_properties(static_cast<char *>(props2) + 16, active_device_personality());
    apply_chain(static_cast<ChainHeader *>(static_cast<ChainHeader *>(props2)->pNext), active_device_personality());
}

void get_features(Handle pd, uint32_t *features) {
    real.features(pd, features);
    const DevicePersonality *p = active_device_personality();
    if (p && !p->vk_float64) features[kFeatureFloat64] = 0;
}

void get_features2(Handle pd, ChainHeader *features2) {
    real.features2(pd, features2);
    const DevicePersonality *p = active_device_personality();
    if (p && !p->vk_float64)
        reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(features2) + 16)[kFeatureFloat64] = 0;
}

VkResult create_shader_module(Handle device, const ShaderModuleCreateInfo *info, const void *alloc, Object *out) {
    const VkResult r = real.create_shader_module(device, info, alloc, out);
    if (r == kSuccess && out && info) {
        SpirvModule m = reflect_spirv(info->pCode, info->codeSize / 4);
        std::string users;
        for (const auto &e : m.entries) {
            if (!e.shared.empty()) users += (users.empty() ? "'" : ", '") + e.name + "'";
        }
        std::lock_guard<std::mutex> lock(mutex);
        modules[*out] = std::move(m);
        last_module_shared = users;
    }
    return r;
}

void destroy_shader_module(Handle device, Object module, const void *alloc) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        modules.erase(module);
    }
    real.destroy_shader_module(device, module, alloc);
}

// "" or why `p` cannot run pipeline `info` (its entry point, work-group and fp64 use).
std::string refusal(const ComputePipelineCreateInfo &info, const SpirvModule &m, const PipelineInfo &pi,
                    const DevicePersonality &p) {
    const uint64_t items = pi.shape.local[0] * pi.shape.local[1] * pi.shape.local[2];
    const std::string kernel = "kernel '" + pi.entry + "'";
    if (m.float64 && !p.vk_float64) {
        return kernel + " is in a SPIR-V module that declares Float64, which " + p.label() +
               " does not support (shaderFloat64 false): vkCreateComputePipelines is refused";
    }
    for (int d = 0; d < 3; d++) {
        if (pi.shape.local[d] > p.vk_max_work_group_size[d]) {
            return kernel + " needs a " + shape_text(pi.shape.local) + " work-group (" +
                   std::to_string(pi.shape.local[d]) + " in dimension " + std::to_string(d) + "); " + p.label() +
                   " allows at most " + std::to_string(p.vk_max_work_group_size[d]) +
                   " (maxComputeWorkGroupSize): a pipeline the device cannot run, so vkCreateComputePipelines is "
                   "refused";
        }
    }
    if (items > p.vk_max_invocations) {
        return kernel + " needs a " + shape_text(pi.shape.local) + " work-group (" + std::to_string(items) +
               " invocations); " + p.label() + " allows at most " + std::to_string(p.vk_max_invocations) +
               " (maxComputeWorkGroupInvocations): a pipeline the device cannot run, so vkCreateComputePipelines is "
               "refused";
    }
    if (pi.shape.shared_bytes > p.vk_max_shared_memory) {
        return kernel + " needs " + std::to_string(pi.shape.shared_bytes) + " bytes of shared memory; " + p.label() +
               " has " + std::to_string(p.vk_max_shared_memory) +
               " (maxComputeSharedMemorySize): a pipeline the device cannot run, so vkCreateComputePipelines is "
               "refused";
    }
    (void)info;
    return "";
}

VkResult create_compute_pipelines(Handle device, Object cache, uint32_t count, const ComputePipelineCreateInfo *infos,
                                  const void *alloc, Object *out) {
    const DevicePersonality *p = active_device_personality();
    std::vector<PipelineInfo> made(count);
    for (uint32_t i = 0; i < count; i++) {
        const ShaderStageCreateInfo &st = infos[i].stage;
        std::map<uint32_t, uint64_t> spec;
        if (const SpecializationInfo *si = st.pSpecializationInfo) {
            for (uint32_t k = 0; k < si->mapEntryCount; k++) {
                const SpecializationMapEntry &me = si->pMapEntries[k];
                uint64_t v = 0;
                if (me.offset + me.size <= si->dataSize && me.size <= sizeof v) {
                    std::memcpy(&v, static_cast<const char *>(si->pData) + me.offset, me.size);
                }
                spec[me.constantID] = v;
            }
        }
        made[i].entry = st.pName ? st.pName : "?";
        std::lock_guard<std::mutex> lock(mutex);
        const auto m = modules.find(st.module);
        if (m == modules.end()) continue;
        if (const SpirvEntryPoint *e = m->second.entry(made[i].entry)) made[i].shape = resolve_entry(*e, spec);
        if (p) {
            const std::string why = refusal(infos[i], m->second, made[i], *p);
            if (!why.empty()) {
                set_device_limit_violation(why);
                return kInitializationFailed;
            }
        }
    }
    const VkResult r = real.create_compute_pipelines(device, cache, count, infos, alloc, out);
    if (r == kSuccess && out) {
        std::lock_guard<std::mutex> lock(mutex);
        for (uint32_t i = 0; i < count; i++)
            pipelines[out[i]] = made[i];
    }
    return r;
}

void destroy_pipeline(Handle device, Object pipeline, const void *alloc) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        pipelines.erase(pipeline);
    }
    real.destroy_pipeline(device, pipeline, alloc);
}

void bind_pipeline(Handle cmd, uint32_t bind_point, Object pipeline) {
    if (bind_point == 1 /* VK_PIPELINE_BIND_POINT_COMPUTE */) {
        std::lock_guard<std::mutex> lock(mutex);
        bound[cmd] = pipeline;
    }
    real.bind_pipeline(cmd, bind_point, pipeline);
}

// Reads the timestamps of every launch the queue finished (after a wait), into the kernel log.
void harvest_timestamps() {
    std::lock_guard<std::mutex> lock(mutex);
    if (!ts.pool || ts.pending.empty() || !real.query_results) return;
    for (const auto &[q, index] : ts.pending) {
        uint64_t t[2] = {0, 0};
        if (real.query_results(ts.device, ts.pool, q, 2, sizeof t, t, sizeof t[0], 0x1 | 0x2 /* 64-bit, wait */) ==
                kSuccess &&
            t[1] >= t[0]) {
            set_launch_time(index, static_cast<double>(t[1] - t[0]) * ts.period_ns / 1e6);
        }
    }
    ts.pending.clear();
}

void dispatch(Handle cmd, uint32_t gx, uint32_t gy, uint32_t gz) {
    if (!kernel_recording()) return real.dispatch(cmd, gx, gy, gz);
    KernelLaunch l;
    l.runtime = "vulkan";
    std::unique_lock<std::mutex> lock(mutex);
    const auto b = bound.find(cmd);
    const auto pi = b == bound.end() ? pipelines.end() : pipelines.find(b->second);
    l.kernel = pi == pipelines.end() ? "?" : pi->second.entry;
    const uint64_t groups[3] = {gx, gy, gz};
    for (int d = 0; d < 3; d++) {
        l.local[d] = pi == pipelines.end() ? 1 : pi->second.shape.local[d];
        l.global[d] = groups[d] * l.local[d];
    }
    if (pi != pipelines.end()) l.local_mem_bytes = static_cast<int64_t>(pi->second.shape.shared_bytes);
    lock.unlock();
    const size_t index = record_kernel_launch(l);
    lock.lock();
    const bool timed = kernel_timing() && ts.supported && ts.pool && real.write_timestamp && real.reset_query_pool;
    uint32_t q = 0;
    if (timed) {
        q = ts.next;
        ts.next = (ts.next + 2) % kQueries;
        ts.pending.emplace_back(q, index);
    }
    lock.unlock();
    if (timed) {
        real.reset_query_pool(cmd, ts.pool, q, 2);
        real.write_timestamp(cmd, 0x1 /* TOP_OF_PIPE */, ts.pool, q);
    }
    real.dispatch(cmd, gx, gy, gz);
    if (timed) real.write_timestamp(cmd, 0x2000 /* BOTTOM_OF_PIPE */, ts.pool, q + 1);
}

VkResult queue_wait_idle(Handle queue) {
    const VkResult r = real.queue_wait_idle(queue);
    if (r == kSuccess) harvest_timestamps();
    return r;
}

void destroy_device(Handle device, const void *alloc) {
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (ts.pool && ts.device == device && real.destroy_query_pool) {
            real.destroy_query_pool(device, ts.pool, nullptr);
            ts.pool = 0;
            ts.pending.clear();
        }
    }
    real.destroy_device(device, alloc);
}

// The timestamp query pool of `device`, made once when timing is on.
void make_query_pool(Handle device, VulkanDeviceProcAddr proc) {
    std::lock_guard<std::mutex> lock(mutex);
    if (ts.pool || !kernel_timing() || !device || !proc) return;
    const auto get = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::decay_t<decltype(fn)>>(proc(device, name));
    };
    get(real.create_query_pool, "vkCreateQueryPool");
    get(real.destroy_query_pool, "vkDestroyQueryPool");
    get(real.reset_query_pool, "vkCmdResetQueryPool");
    get(real.write_timestamp, "vkCmdWriteTimestamp");
    get(real.query_results, "vkGetQueryPoolResults");
    if (!ts.supported) {
        set_kernel_timing_note("vulkan", "not measured: the device reports no compute timestamps");
        return;
    }
    QueryPoolCreateInfo info;
    info.queryCount = kQueries;
    if (!real.create_query_pool || real.create_query_pool(device, &info, nullptr, &ts.pool) != kSuccess) {
        ts.pool = 0;
        set_kernel_timing_note("vulkan", "not measured: vkCreateQueryPool of timestamps failed");
        return;
    }
    ts.device = device;
}

struct Wrapper {
    const char *name;
    VulkanFn fn;
    VulkanFn *real;
};

#define HARNESS_VK_WRAP(name, wrapper, field) \
    { name, reinterpret_cast<VulkanFn>(&wrapper), reinterpret_cast<VulkanFn *>(&real.field) }
const Wrapper kInstanceWrappers[] = {
    HARNESS_VK_WRAP("vkGetPhysicalDeviceProperties", get_properties, properties),
    HARNESS_VK_WRAP("vkGetPhysicalDeviceProperties2", get_properties2, properties2),
    HARNESS_VK_WRAP("vkGetPhysicalDeviceProperties2KHR", get_properties2, properties2),
    HARNESS_VK_WRAP("vkGetPhysicalDeviceFeatures", get_features, features),
    HARNESS_VK_WRAP("vkGetPhysicalDeviceFeatures2", get_features2, features2),
    HARNESS_VK_WRAP("vkGetPhysicalDeviceFeatures2KHR", get_features2, features2),
};
const Wrapper kDeviceWrappers[] = {
    HARNESS_VK_WRAP("vkCreateShaderModule", create_shader_module, create_shader_module),
    HARNESS_VK_WRAP("vkDestroyShaderModule", destroy_shader_module, destroy_shader_module),
    HARNESS_VK_WRAP("vkCreateComputePipelines", create_compute_pipelines, create_compute_pipelines),
    HARNESS_VK_WRAP("vkDestroyPipeline", destroy_pipeline, destroy_pipeline),
    HARNESS_VK_WRAP("vkCmdBindPipeline", bind_pipeline, bind_pipeline),
    HARNESS_VK_WRAP("vkCmdDispatch", dispatch, dispatch),
    HARNESS_VK_WRAP("vkQueueWaitIdle", queue_wait_idle, queue_wait_idle),
    HARNESS_VK_WRAP("vkDestroyDevice", destroy_device, destroy_device),
};
#undef HARNESS_VK_WRAP

}  // namespace vk_shim

VulkanFn vulkan_interpose_instance(const char *name, VulkanFn fn) {
    if (!fn) return fn;
    for (const auto &w : vk_shim::kInstanceWrappers) {
        if (std::strcmp(w.name, name) == 0) {
            *w.real = fn;
            return w.fn;
        }
    }
    return fn;
}

VulkanFn vulkan_interpose_device(void *device, const char *name, VulkanFn fn, VulkanDeviceProcAddr proc) {
    if (!fn) return fn;
    static std::once_flag once;
    std::call_once(once, [] { add_kernel_time_harvester(vk_shim::harvest_timestamps); });
    if (device && proc && std::strcmp(name, "vkCmdDispatch") == 0) vk_shim::make_query_pool(device, proc);
    for (const auto &w : vk_shim::kDeviceWrappers) {
        if (std::strcmp(w.name, name) == 0) {
            *w.real = fn;
            return w.fn;
        }
    }
    return fn;
}

std::string vulkan_shared_memory_refusal(const std::string &msg) {
    const DevicePersonality *p = active_device_personality();
    if (!p || msg.find("shared memory used exceeds device limit") == std::string::npos) return "";
    std::lock_guard<std::mutex> lock(vk_shim::mutex);
    if (vk_shim::last_module_shared.empty()) return "";
    return "kernel " + vk_shim::last_module_shared +
           " (the pipeline's kernels with shared memory) needs more shared "
           "memory than " +
           p->label() + " has (" + std::to_string(p->vk_max_shared_memory) +
           " bytes, maxComputeSharedMemorySize): Halide's runtime refuses the dispatch, as on the device";
}

}  // namespace harness
