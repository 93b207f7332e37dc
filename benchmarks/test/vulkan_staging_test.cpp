// Halide 21's staging-buffer memory type (tools/vulkan_staging.h) on the memory layouts real drivers report: the pick
// vulkan-readback-probe prints can be checked only where the driver has several host-visible types, which lavapipe
// (one type with every flag) has not.
#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

#include "tools/vulkan_staging.h"

namespace {

using namespace harness::vk_shim;
using bench::halide_staging_type, bench::kDeviceToHost, bench::kHostToDevice;

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

}  // namespace
