// The Vulkan entry points the harness wraps for device personalities and the kernel log (vulkan_interpose.cpp);
// vulkan_runtime_shim.cpp, which owns Halide's halide_vulkan_get_symbol hook and the loader's proc-addr chain,
// asks these two for every function Halide's runtime gets.
#pragma once
#include <string>

namespace harness {

using VulkanFn = void (*)();
using VulkanDeviceProcAddr = VulkanFn (*)(void *device, const char *name);

// The wrapper of instance-level function `name` (physical-device queries), or `real` unchanged.
VulkanFn vulkan_interpose_instance(const char *name, VulkanFn real);
// The wrapper of device-level function `name` (shader modules, pipelines, dispatches, queue waits), or `real`.
// `device` and `device_proc_addr` (the loader's vkGetDeviceProcAddr; nullptr when the function came through
// vkGetInstanceProcAddr) give the functions the wrappers call themselves (timestamp queries).
VulkanFn vulkan_interpose_device(void *device, const char *name, VulkanFn real, VulkanDeviceProcAddr device_proc_addr);

// For Halide's own refusal of a dispatch whose shared memory exceeds the (emulated) device's: the kernels of the
// last shader module that use shared memory and the personality's limit ("" when there is nothing to add).
std::string vulkan_shared_memory_refusal(const std::string &halide_message);

}  // namespace harness
