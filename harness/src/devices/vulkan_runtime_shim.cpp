// The Vulkan entry points Halide's runtime gets (the weak hook halide_vulkan_get_symbol): the loader's, except
// vkGetBufferMemoryRequirements, whose reported size is rounded up to the reported alignment, and
// vkGetPhysicalDeviceMemoryProperties, which reports the layout that keeps read-backs out of a PCIe BAR window.
//
// Why: Halide 21's Vulkan memory allocator assumes that a buffer's required size is a multiple of its
// required alignment. Drivers need not report it so (lavapipe: size 72, alignment 64). Then the allocator
// splits a block so that the region it hands out is smaller than the request (its VkBuffer is created
// with 64 bytes for a 72-byte kernel argument block, 33664 for a 33700-byte image), or refuses the
// allocation ("Failed to allocate device memory!" for a 257-wide u8 image). A driver that bounds-checks
// storage and uniform accesses then reads zeros past the short buffer; one that does not reads past it.
// Fixed upstream after Halide 21 (halide/Halide#9223, #9224); reproducers in harness/test/vulkan_repro/.
// Rounding the size up makes every region, block and split remainder a multiple of the alignment, which
// the allocator handles correctly; it only ever asks for more memory than the driver needs.
//
// Read-backs: Halide 21 stages copy_to_host in the lowest-index HOST_VISIBLE|HOST_COHERENT|DEVICE_LOCAL type,
// which on a GPU with a host-visible BAR window (NVIDIA with resizable BAR) is that window: the host reads it
// uncached, 0.02-0.03 GB/s on an H200 (vulkan-readback-probe), so every 1920x1080 result took ~300 ms and the
// Vulkan profiles were the whole matrix's longest part. The reported layout (cached_readback_layout,
// vulkan_staging.h) gives a host-cached system-memory type that comes before it DEVICE_LOCAL too, so Halide stages
// read-backs there (11-13 GB/s); device buffers and uploads keep their types. What the kernels compute and what
// is copied are the same; only where the host reads the copy from differs.
// HARNESS_VULKAN_SHIM=0 hands Halide the loader's entry points unchanged (to see the bugs).
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "devices/vulkan_runtime_shim.h"
#include "devices/vulkan_interpose.h"
#include "devices/vulkan_staging.h"

namespace harness {

namespace {

using ShimInstance = void *;  // VkInstance, VkDevice (the structures: vulkan_abi.h)
using ShimDevice = void *;
using VkBuffer = uint64_t;
using PFN_void = VulkanFn;
using PFN_GetInstanceProcAddr = PFN_void (*)(ShimInstance, const char *);
using PFN_GetDeviceProcAddr = PFN_void (*)(ShimDevice, const char *);
using vk_shim::MemoryRequirements;
using PFN_GetBufferMemoryRequirements = void (*)(ShimDevice, VkBuffer, MemoryRequirements *);

std::atomic<PFN_GetInstanceProcAddr> real_instance_proc_addr{nullptr};
std::atomic<PFN_GetDeviceProcAddr> real_device_proc_addr{nullptr};
std::atomic<PFN_GetBufferMemoryRequirements> real_buffer_requirements{nullptr};
using PFN_GetMemoryProperties = void (*)(void *physical_device, vk_shim::MemoryProperties *);
std::atomic<PFN_GetMemoryProperties> real_memory_properties{nullptr};

void readback_memory_properties(void *physical_device, vk_shim::MemoryProperties *mem) {
    real_memory_properties.load()(physical_device, mem);
    cached_readback_layout(mem);
}

void *vulkan_loader() {
    static void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib;
}

void rounded_buffer_requirements(ShimDevice device, VkBuffer buffer, MemoryRequirements *requirements) {
    real_buffer_requirements.load()(device, buffer, requirements);
    const uint64_t a = requirements->alignment;
    if (a > 1 && (a & (a - 1)) == 0) {
        requirements->size = (requirements->size + a - 1) & ~(a - 1);
    }
}

PFN_void shim_device_proc_addr(ShimDevice device, const char *name) {
    PFN_void fn = real_device_proc_addr.load()(device, name);
    if (fn && vulkan_runtime_shim_enabled() && std::strcmp(name, "vkGetBufferMemoryRequirements") == 0) {
        real_buffer_requirements = reinterpret_cast<PFN_GetBufferMemoryRequirements>(fn);
        return reinterpret_cast<PFN_void>(&rounded_buffer_requirements);
    }
    return vulkan_interpose_device(device, name, fn, real_device_proc_addr.load());
}

PFN_void shim_instance_proc_addr(ShimInstance instance, const char *name) {
    PFN_void fn = real_instance_proc_addr.load()(instance, name);
    if (fn && std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
        real_device_proc_addr = reinterpret_cast<PFN_GetDeviceProcAddr>(fn);
        return reinterpret_cast<PFN_void>(&shim_device_proc_addr);
    }
    if (fn && vulkan_runtime_shim_enabled() && std::strcmp(name, "vkGetPhysicalDeviceMemoryProperties") == 0) {
        real_memory_properties = reinterpret_cast<PFN_GetMemoryProperties>(fn);
        return reinterpret_cast<PFN_void>(&readback_memory_properties);
    }
    // Device-level functions may come this way too (the loader's trampolines).
    return vulkan_interpose_device(nullptr, name, vulkan_interpose_instance(name, fn), nullptr);
}

}  // namespace

bool vulkan_runtime_shim_enabled() {
    const char *v = std::getenv("HARNESS_VULKAN_SHIM");
    return !(v && std::string(v) == "0");
}

std::string vulkan_runtime_shim_note() {
    if (!vulkan_runtime_shim_enabled()) {
        return "off (HARNESS_VULKAN_SHIM=0): Halide's runtime gets the loader's entry points unchanged";
    }
    return "vkGetBufferMemoryRequirements size rounded up to its alignment (works around Halide 21's Vulkan "
           "allocator handing out short buffers; halide/Halide#9223, #9224); read-backs staged in host-cached "
           "memory where Halide 21 would read a host-visible BAR window uncached";
}

}  // namespace harness

// Halide's runtime resolves the loader's functions through this weak hook (src/runtime/vulkan_interface.h).
extern "C" void *halide_vulkan_get_symbol(void *, const char *name) {
    void *lib = harness::vulkan_loader();
    if (!lib) {
        return nullptr;
    }
    void *sym = dlsym(lib, name);
    // Always through the harness's vkGetInstanceProcAddr: device personalities and the kernel log need it;
    // only the size rounding depends on HARNESS_VULKAN_SHIM.
    if (sym && std::strcmp(name, "vkGetInstanceProcAddr") == 0) {
        harness::real_instance_proc_addr = reinterpret_cast<harness::PFN_GetInstanceProcAddr>(sym);
        return reinterpret_cast<void *>(&harness::shim_instance_proc_addr);
    }
    return sym;
}
