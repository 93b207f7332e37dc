// Halide 21's staging-buffer memory type and the harness shim's layout (devices/vulkan_staging.h) on the memory layouts
// real drivers report: the pick vulkan-readback-probe prints can be checked only where the driver has several
// host-visible types, which lavapipe (one type with every flag) has not.
#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

#include "devices/vulkan_staging.h"

namespace {

using namespace harness::vk_shim;
using harness::cached_readback_layout, harness::halide_staging_type, harness::kDeviceToHost, harness::kHostToDevice;

MemoryProperties layout(std::initializer_list<uint32_t> flags) {
    MemoryProperties mem{};
    for (uint32_t f : flags)
        mem.memoryTypes[mem.memoryTypeCount++] = {f, 0};
    return mem;
}

constexpr uint32_t kAll = ~0u;

// An NVIDIA discrete GPU with resizable BAR: system memory uncached (3) and cached (4), the BAR window (5).
const MemoryProperties kNvidiaRebar =
    layout({0, kDeviceLocal, kDeviceLocal, kHostVisible | kHostCoherent, kHostVisible | kHostCoherent | kHostCached,
            kDeviceLocal | kHostVisible | kHostCoherent});

TEST(VulkanStaging, DeviceToHostGetsTheBarWindowNotCachedSystemMemory) {
    EXPECT_EQ(halide_staging_type(kNvidiaRebar, kAll, kDeviceToHost), 5);
    EXPECT_EQ(halide_staging_type(kNvidiaRebar, kAll, kHostToDevice), 3);
}

TEST(VulkanStaging, OnlyTypesTheBufferAllowsCount) {
    EXPECT_EQ(halide_staging_type(kNvidiaRebar, kAll & ~(1u << 3), kHostToDevice), 4);
    // Without a type holding every wanted flag the allocation fails: no fallback to HOST_VISIBLE alone.
    EXPECT_EQ(halide_staging_type(kNvidiaRebar, kAll & ~(1u << 5), kDeviceToHost), -1);
}

TEST(VulkanStaging, NonCoherentMemoryIsNeverPicked) {
    const MemoryProperties arm = layout({kDeviceLocal, kDeviceLocal | kHostVisible | kHostCached});
    EXPECT_EQ(halide_staging_type(arm, kAll, kDeviceToHost), -1);
    EXPECT_EQ(halide_staging_type(arm, kAll, kHostToDevice), -1);
}

TEST(VulkanStaging, LavapipesSingleTypeServesBoth) {
    const MemoryProperties lavapipe = layout({kDeviceLocal | kHostVisible | kHostCoherent | kHostCached});
    EXPECT_EQ(halide_staging_type(lavapipe, kAll, kDeviceToHost), 0);
    EXPECT_EQ(halide_staging_type(lavapipe, kAll, kHostToDevice), 0);
}

// Halide's DeviceOnly pick: the lowest-index DEVICE_LOCAL type.
int device_only_type(const MemoryProperties &mem) {
    for (uint32_t i = 0; i < mem.memoryTypeCount; i++)
        if (mem.memoryTypes[i].propertyFlags & kDeviceLocal) return int(i);
    return -1;
}

TEST(VulkanStaging, TheShimMovesOnlyTheReadBackToCachedSystemMemory) {
    MemoryProperties mem = kNvidiaRebar;
    EXPECT_EQ(cached_readback_layout(&mem), 4);
    EXPECT_EQ(halide_staging_type(mem, kAll, kDeviceToHost), 4);               // host-cached, not the BAR window
    EXPECT_EQ(halide_staging_type(mem, kAll, kHostToDevice), 3);               // unchanged
    EXPECT_EQ(device_only_type(mem), device_only_type(kNvidiaRebar));          // device buffers stay in VRAM
    EXPECT_EQ(halide_staging_type(mem, kAll & ~(1u << 4), kDeviceToHost), 5);  // a buffer that excludes it
}

TEST(VulkanStaging, TheShimLeavesOtherLayoutsAsTheyAre) {
    const auto unchanged = [](MemoryProperties mem) {
        const MemoryProperties before = mem;
        EXPECT_EQ(cached_readback_layout(&mem), -1);
        for (uint32_t i = 0; i < mem.memoryTypeCount; i++)
            EXPECT_EQ(mem.memoryTypes[i].propertyFlags, before.memoryTypes[i].propertyFlags) << "type " << i;
    };
    unchanged(layout({kDeviceLocal | kHostVisible | kHostCoherent | kHostCached}));  // lavapipe
    unchanged(layout({kDeviceLocal, kDeviceLocal | kHostVisible | kHostCoherent,     // unified memory
                      kDeviceLocal | kHostVisible | kHostCoherent | kHostCached}));
    unchanged(layout({kDeviceLocal, kHostVisible | kHostCoherent, kHostVisible | kHostCoherent | kHostCached}));
    // The cached system type before every device-local one: device buffers would land there.
    unchanged(layout(
        {kHostVisible | kHostCoherent | kHostCached, kDeviceLocal, kDeviceLocal | kHostVisible | kHostCoherent}));
    // The BAR window before the cached system type: the shim would have to hide it, which it does not.
    unchanged(layout(
        {kDeviceLocal, kDeviceLocal | kHostVisible | kHostCoherent, kHostVisible | kHostCoherent | kHostCached}));
}

}  // namespace
