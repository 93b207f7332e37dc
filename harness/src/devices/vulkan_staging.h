// Which memory type Halide 21's Vulkan runtime gives its staging buffers, and the memory layout the harness's
// runtime shim (vulkan_runtime_shim.cpp) reports so that the read-back one is host-cached.
//
// Halide's rule (src/runtime/vulkan_memory.h, select_memory_type; the requests in vulkan.cpp): both staging buffers
// ask for MemoryCaching::UncachedCoherent; device-to-host (copy_to_host, a TransferDst buffer) needs HOST_VISIBLE and
// wants DEVICE_LOCAL and HOST_COHERENT, host-to-device (TransferSrc) needs HOST_VISIBLE and wants HOST_COHERENT. The
// pick is the lowest-index type allowed by the buffer's memoryTypeBits that has every needed and every wanted flag;
// with none, the allocation fails. Device buffers (DeviceOnly) take the lowest-index DEVICE_LOCAL type.
//
// On a discrete GPU whose BAR window is host-visible (NVIDIA with resizable BAR), the device-to-host pick is that
// window: the host reads it uncached over PCIe, 0.02-0.03 GB/s on an H200 against 11-13 GB/s from host-cached system
// memory (vulkan-readback-probe), 340 ms for every 1920x1080 RGBA result. Results are copied into the staging buffer
// by the GPU and read once by the host, which is what host-cached coherent memory is for.
#pragma once
#include <cstdint>

#include "devices/vulkan_abi.h"

namespace harness {

struct StagingRequest {
    const char *what;
    uint32_t usage;  // VkBufferUsageFlags of Halide's staging buffer: STORAGE plus TRANSFER_DST or TRANSFER_SRC
    uint32_t need, want;
    bool read;  // the host reads it (device-to-host), else writes it
};
inline constexpr StagingRequest kDeviceToHost{"device-to-host", 0x20 | 0x2, vk_shim::kHostVisible,
                                              vk_shim::kDeviceLocal | vk_shim::kHostCoherent, true};
inline constexpr StagingRequest kHostToDevice{"host-to-device", 0x20 | 0x1, vk_shim::kHostVisible,
                                              vk_shim::kHostCoherent, false};

// The type Halide 21 picks among those `allowed` (a memoryTypeBits mask), or -1: its allocation fails.
inline int halide_staging_type(const vk_shim::MemoryProperties &mem, uint32_t allowed, const StagingRequest &request) {
    const uint32_t all = request.need | request.want;
    for (uint32_t i = 0; i < mem.memoryTypeCount && i < 32; i++)
        if ((allowed >> i & 1) && (mem.memoryTypes[i].propertyFlags & all) == all) return int(i);
    return -1;
}

// The layout the shim reports: where Halide's device-to-host pick is not host-cached, a host-visible, coherent and
// cached type of system memory that comes before it also reports DEVICE_LOCAL, so that Halide picks it instead.
// Nothing else Halide picks moves: only when a DEVICE_LOCAL type comes before that system-memory type (the one
// device buffers keep getting); the host-to-device pick does not look at DEVICE_LOCAL. Returns the type that now
// holds the read-back staging buffers, or -1 where the layout is left as it is (lavapipe, unified-memory GPUs,
// discrete GPUs without a host-visible BAR window).
inline int cached_readback_layout(vk_shim::MemoryProperties *mem) {
    using namespace vk_shim;
    const int bar = halide_staging_type(*mem, ~0u, kDeviceToHost);
    if (bar < 0 || (mem->memoryTypes[bar].propertyFlags & kHostCached)) return -1;
    int first_device_local = -1;
    for (int i = 0; i < bar; i++) {
        const uint32_t f = mem->memoryTypes[i].propertyFlags;
        if ((f & kDeviceLocal) && first_device_local < 0) first_device_local = i;
        const uint32_t system = kHostVisible | kHostCoherent | kHostCached;
        if ((f & system) == system && !(f & kDeviceLocal) && first_device_local >= 0) {
            mem->memoryTypes[i].propertyFlags |= kDeviceLocal;
            return i;
        }
    }
    return -1;
}

}  // namespace harness
