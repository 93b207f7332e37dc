// The few Vulkan 1.x declarations the harness's Vulkan code needs without Vulkan headers (ABI-stable): the
// interposer's (vulkan_interpose.cpp) handles, the structures it reads or writes, their offsets and the entry points'
// types; the instance creation, device name and memory types that the probe (vulkan_probe.cpp) and
// vulkan-readback-probe (benchmarks/tools) read; and the device and memory calls of vulkan-readback-probe.
#pragma once
#include <cstddef>
#include <cstdint>

namespace harness {

namespace vk_shim {

using Handle = void *;    // VkPhysicalDevice, VkDevice, VkCommandBuffer, VkQueue
using Object = uint64_t;  // VkShaderModule, VkPipeline, VkQueryPool, VkPipelineCache
using VkResult = int32_t;
constexpr VkResult kSuccess = 0, kInitializationFailed = -3;
constexpr int32_t kStructShaderModule = 16, kStructQueryPool = 11, kStructSubgroupProperties = 1000094000,
                  kStructVulkan11Properties = 50, kStructVulkan13Properties = 54,
                  kStructSubgroupSizeControlProperties = 1000225000;
// Offsets in VkPhysicalDeviceProperties (its VkPhysicalDeviceLimits starts at 296).
constexpr size_t kMaxSharedMemory = 296 + 216, kMaxInvocations = 296 + 232, kMaxWorkGroupSize = 296 + 236,
                 kTimestampCompute = 296 + 420, kTimestampPeriod = 296 + 424;
constexpr size_t kFeatureFloat64 = 39;  // index of shaderFloat64 in VkPhysicalDeviceFeatures

struct ChainHeader {
    int32_t sType;
    void *pNext;
};
struct ShaderModuleCreateInfo {
    int32_t sType;
    const void *pNext;
    uint32_t flags;
    size_t codeSize;
    const uint32_t *pCode;
};
struct SpecializationMapEntry {
    uint32_t constantID, offset;
    size_t size;
};
struct SpecializationInfo {
    uint32_t mapEntryCount;
    const SpecializationMapEntry *pMapEntries;
    size_t dataSize;
    const void *pData;
};
struct ShaderStageCreateInfo {
    int32_t sType;
    const void *pNext;
    uint32_t flags, stage;
    Object module;
    const char *pName;
    const SpecializationInfo *pSpecializationInfo;
};
struct ComputePipelineCreateInfo {
    int32_t sType;
    const void *pNext;
    uint32_t flags;
    ShaderStageCreateInfo stage;
    Object layout, basePipelineHandle;
    int32_t basePipelineIndex;
};
struct QueryPoolCreateInfo {
    int32_t sType = kStructQueryPool;
    const void *pNext = nullptr;
    uint32_t flags = 0, queryType = 2 /* VK_QUERY_TYPE_TIMESTAMP */, queryCount = 0, pipelineStatistics = 0;
};

constexpr int32_t kStructApplicationInfo = 0, kStructInstanceCreateInfo = 1;
struct ApplicationInfo {
    int32_t sType = kStructApplicationInfo;
    const void *pNext = nullptr;
    const char *pApplicationName = "aot-harness";
    uint32_t applicationVersion = 1;
    const char *pEngineName = "aot-harness";
    uint32_t engineVersion = 1;
    uint32_t apiVersion = (1u << 22) | (3u << 12);  // 1.3: ask for the highest the harness's targets use
};
struct InstanceCreateInfo {
    int32_t sType = kStructInstanceCreateInfo;
    const void *pNext = nullptr;
    uint32_t flags = 0;
    const ApplicationInfo *pApplicationInfo = nullptr;
    uint32_t enabledLayerCount = 0;
    const char *const *ppEnabledLayerNames = nullptr;
    uint32_t enabledExtensionCount = 0;
    const char *const *ppEnabledExtensionNames = nullptr;
};
struct PropertiesPrefix {  // VkPhysicalDeviceProperties up to deviceName (limits etc. follow; 824 bytes in all)
    uint32_t apiVersion, driverVersion, vendorID, deviceID, deviceType;
    char deviceName[256];
};
// VkMemoryPropertyFlagBits
constexpr uint32_t kDeviceLocal = 0x1, kHostVisible = 0x2, kHostCoherent = 0x4, kHostCached = 0x8,
                   kLazilyAllocated = 0x10;
struct MemoryProperties {
    uint32_t memoryTypeCount;
    struct {
        uint32_t propertyFlags, heapIndex;
    } memoryTypes[32];
    uint32_t memoryHeapCount;
    struct {
        uint64_t size;
        uint32_t flags;
    } memoryHeaps[16];
};

// Device creation, memory allocation and mapping, and a buffer's memory requirements (vulkan-readback-probe).
constexpr uint64_t kWholeSize = ~0ull;  // VK_WHOLE_SIZE
struct QueueCreateInfo {
    int32_t sType = 2;
    const void *pNext = nullptr;
    uint32_t flags = 0, queueFamilyIndex = 0, queueCount = 1;
    const float *pQueuePriorities = nullptr;
};
struct DeviceCreateInfo {
    int32_t sType = 3;
    const void *pNext = nullptr;
    uint32_t flags = 0, queueCreateInfoCount = 1;
    const QueueCreateInfo *pQueueCreateInfos = nullptr;
    uint32_t enabledLayerCount = 0;
    const char *const *ppEnabledLayerNames = nullptr;
    uint32_t enabledExtensionCount = 0;
    const char *const *ppEnabledExtensionNames = nullptr;
    const void *pEnabledFeatures = nullptr;
};
struct MemoryAllocateInfo {
    int32_t sType = 5;
    const void *pNext = nullptr;
    uint64_t allocationSize = 0;
    uint32_t memoryTypeIndex = 0;
};
struct MappedMemoryRange {
    int32_t sType = 6;
    const void *pNext = nullptr;
    uint64_t memory = 0;  // VkDeviceMemory
    uint64_t offset = 0, size = kWholeSize;
};
struct BufferCreateInfo {
    int32_t sType = 12;
    const void *pNext = nullptr;
    uint32_t flags = 0;
    uint64_t size = 0;
    uint32_t usage = 0, sharingMode = 0, queueFamilyIndexCount = 0;
    const uint32_t *pQueueFamilyIndices = nullptr;
};
struct MemoryRequirements {
    uint64_t size, alignment;
    uint32_t memoryTypeBits;
};

using PFN_Properties = void (*)(Handle, void *);
using PFN_Features = void (*)(Handle, uint32_t *);
using PFN_Features2 = void (*)(Handle, ChainHeader *);
using PFN_CreateShaderModule = VkResult (*)(Handle, const ShaderModuleCreateInfo *, const void *, Object *);
using PFN_CreateComputePipelines = VkResult (*)(Handle, Object, uint32_t, const ComputePipelineCreateInfo *,
                                                const void *, Object *);
using PFN_DestroyObject = void (*)(Handle, Object, const void *);
using PFN_CmdBindPipeline = void (*)(Handle, uint32_t, Object);
using PFN_CmdDispatch = void (*)(Handle, uint32_t, uint32_t, uint32_t);
using PFN_QueueWaitIdle = VkResult (*)(Handle);
using PFN_DestroyDevice = void (*)(Handle, const void *);
using PFN_CreateQueryPool = VkResult (*)(Handle, const QueryPoolCreateInfo *, const void *, Object *);
using PFN_CmdResetQueryPool = void (*)(Handle, Object, uint32_t, uint32_t);
using PFN_CmdWriteTimestamp = void (*)(Handle, uint32_t, Object, uint32_t);
using PFN_GetQueryPoolResults = VkResult (*)(Handle, Object, uint32_t, uint32_t, size_t, void *, uint64_t, uint32_t);

}  // namespace vk_shim

}  // namespace harness
