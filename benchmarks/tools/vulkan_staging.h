// Which memory type Halide 21's Vulkan runtime gives its staging buffers, for vulkan-readback-probe (and its test on
// real drivers' memory layouts). The rule (src/runtime/vulkan_memory.h, select_memory_type; the requests in
// vulkan.cpp): both staging buffers ask for MemoryCaching::UncachedCoherent; device-to-host (a TransferDst buffer)
// needs HOST_VISIBLE and wants DEVICE_LOCAL and HOST_COHERENT, host-to-device (TransferSrc) needs HOST_VISIBLE and
// wants HOST_COHERENT. The pick is the lowest-index type allowed by the buffer's memoryTypeBits that has every needed
// and every wanted flag; with none, the allocation fails (there is no fallback to the needed flags alone).
#pragma once
#include <cstdint>

#include "devices/vulkan_abi.h"

namespace bench {

struct StagingRequest {
    const char *what;
    uint32_t usage;  // VkBufferUsageFlags of Halide's staging buffer: STORAGE plus TRANSFER_DST or TRANSFER_SRC
    uint32_t need, want;
    bool read;  // the host reads it (device-to-host), else writes it
};
namespace vk = harness::vk_shim;
inline constexpr StagingRequest kDeviceToHost{"device-to-host", 0x20 | 0x2, vk::kHostVisible,
                                              vk::kDeviceLocal | vk::kHostCoherent, true};
inline constexpr StagingRequest kHostToDevice{"host-to-device", 0x20 | 0x1, vk::kHostVisible, vk::kHostCoherent, false};

// The type Halide 21 picks among those `allowed` (a memoryTypeBits mask), or -1: its allocation fails.
inline int halide_staging_type(const vk::MemoryProperties &mem, uint32_t allowed, const StagingRequest &request) {
    const uint32_t all = request.need | request.want;
    for (uint32_t i = 0; i < mem.memoryTypeCount && i < 32; i++)
        if ((allowed >> i & 1) && (mem.memoryTypes[i].propertyFlags & all) == all) return int(i);
    return -1;
}

}  // namespace bench
