// The harness's Vulkan entry points for Halide's runtime (vulkan_runtime_shim.cpp says why): the
// loader's, with vkGetBufferMemoryRequirements' size rounded up to its alignment, unless
// HARNESS_VULKAN_SHIM=0.
#pragma once
#include <string>

namespace harness {

// False when HARNESS_VULKAN_SHIM=0.
bool vulkan_runtime_shim_enabled();

// One line for the run's environment: what the shim changes, or that it is off.
std::string vulkan_runtime_shim_note();

}  // namespace harness
