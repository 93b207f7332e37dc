// vulkan-readback-probe: how fast the host reads and writes mapped memory of each host-visible Vulkan memory type,
// and which type Halide 21's Vulkan runtime stages its copies in: a discrete GPU's DEVICE_LOCAL|HOST_VISIBLE type
// is the PCIe BAR window, which the CPU reads uncached, while a HOST_CACHED system-memory type reads at memcpy
// speed. A diagnostic run on the device, not a test. Per type: the flags, the heap, then the median over `reps`
// repetitions (after 2 warm-ups), wall clock on the host, of (a) memcpy from the mapped memory into a host buffer,
// after vkInvalidateMappedMemoryRanges when the type is not HOST_COHERENT (a read-back), and (b) memcpy from a
// host buffer into the mapped memory, then vkFlushMappedMemoryRanges when not HOST_COHERENT (an upload).
//
// Which type Halide 21 picks for its device-to-host and host-to-device staging buffers, and which the harness's runtime
// shim makes it pick for read-backs (HARNESS_VULKAN_SHIM, vulkan_runtime_shim.cpp): devices/vulkan_staging.h.
//   vulkan-readback-probe [--device N] [--bytes N] [--reps N]   (defaults: 0, 8388608 = 1920x1080 RGBA u8, 20)
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "devices/vulkan_abi.h"
#include "devices/vulkan_staging.h"

namespace {

namespace vk = harness::vk_shim;
using vk::BufferCreateInfo, vk::DeviceCreateInfo, vk::MappedMemoryRange, vk::MemoryAllocateInfo, vk::MemoryRequirements,
    vk::QueueCreateInfo, vk::kWholeSize;
using Handle = void *;    // VkInstance, VkPhysicalDevice, VkDevice
using Memory = uint64_t;  // VkDeviceMemory, VkBuffer
using Fn = void (*)();

// Everything created is released here, last first, on every path out of main.
struct Cleanup {
    std::vector<std::function<void()>> steps;
    ~Cleanup() {
        for (auto it = steps.rbegin(); it != steps.rend(); ++it)
            (*it)();
    }
};

// Exit 2: the command line; 1: Vulkan or the machine.
int fail(const std::string &message, int code = 1) {
    std::fprintf(stderr, "vulkan-readback-probe: %s\n", message.c_str());
    return code;
}

bool parse_count(const char *text, long long min, long long *out) {
    char *end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (end == text || *end || v < min) return false;
    *out = v;
    return true;
}

std::string flag_names(uint32_t f) {
    static const std::pair<uint32_t, const char *> names[] = {
        {vk::kDeviceLocal, "DEVICE_LOCAL"},         {vk::kHostVisible, "HOST_VISIBLE"},
        {vk::kHostCoherent, "HOST_COHERENT"},       {vk::kHostCached, "HOST_CACHED"},
        {vk::kLazilyAllocated, "LAZILY_ALLOCATED"}, {0x20, "PROTECTED"}};
    std::string s;
    for (const auto &[bit, name] : names)
        if (f & bit) s += (s.empty() ? "" : "|") + std::string(name);
    return s.empty() ? "none" : s;
}

double median_ms(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

struct Measured {
    bool ok = false;
    double read_ms = 0, write_ms = 0;
};

}  // namespace

int main(int argc, char **argv) {
    long long device_index = 0, bytes = 8ll << 20, reps = 20;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::printf("usage: vulkan-readback-probe [--device N] [--bytes N] [--reps N]\n");
            return 0;
        }
        long long *target = arg == "--device" ? &device_index :
                            arg == "--bytes"  ? &bytes :
                            arg == "--reps"   ? &reps :
                                                nullptr;
        if (!target) return fail("unknown option '" + arg + "'; use --device N, --bytes N or --reps N", 2);
        const long long min = arg == "--device" ? 0 : 1;
        if (i + 1 >= argc || !parse_count(argv[i + 1], min, target))
            return fail(arg + " needs a whole number >= " + std::to_string(min) +
                            (i + 1 < argc ? ", not '" + std::string(argv[i + 1]) + "'" : ""),
                        2);
        i++;
    }
    Cleanup cleanup;
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);  // the name Halide's runtime loads
    if (!lib) return fail("no Vulkan loader (libvulkan.so.1 not found); install libvulkan1 and a Vulkan driver");
    cleanup.steps.push_back([lib] { dlclose(lib); });
    const auto get_instance_proc = reinterpret_cast<Fn (*)(Handle, const char *)>(dlsym(lib, "vkGetInstanceProcAddr"));
    if (!get_instance_proc) return fail("libvulkan.so.1 exports no vkGetInstanceProcAddr; install a Vulkan 1.x loader");
    const auto create_instance = reinterpret_cast<int32_t (*)(const vk::InstanceCreateInfo *, const void *, Handle *)>(
        get_instance_proc(nullptr, "vkCreateInstance"));
    vk::ApplicationInfo app;
    app.apiVersion = 1u << 22;  // 1.0: all the probe calls
    vk::InstanceCreateInfo instance_info;
    instance_info.pApplicationInfo = &app;
    Handle instance = nullptr;
    if (!create_instance || create_instance(&instance_info, nullptr, &instance) != 0)
        return fail(
            "vkCreateInstance failed: no Vulkan driver; install a GPU driver or mesa-vulkan-drivers (lavapipe)");
#define INSTANCE_FN(name, type) const auto name = reinterpret_cast<type>(get_instance_proc(instance, "vk" #name))
    INSTANCE_FN(DestroyInstance, void (*)(Handle, const void *));
    cleanup.steps.push_back([=] { DestroyInstance(instance, nullptr); });
    INSTANCE_FN(EnumeratePhysicalDevices, int32_t(*)(Handle, uint32_t *, Handle *));
    INSTANCE_FN(GetPhysicalDeviceProperties, void (*)(Handle, void *));
    INSTANCE_FN(GetPhysicalDeviceMemoryProperties, void (*)(Handle, vk::MemoryProperties *));
    INSTANCE_FN(CreateDevice, int32_t(*)(Handle, const DeviceCreateInfo *, const void *, Handle *));
    INSTANCE_FN(GetDeviceProcAddr, Fn(*)(Handle, const char *));
    uint32_t count = 0;
    EnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<Handle> physical(count);
    if (count) EnumeratePhysicalDevices(instance, &count, physical.data());
    if (count == 0) return fail("no Vulkan device; install a GPU driver or mesa-vulkan-drivers (lavapipe)");
    if (device_index >= count)
        return fail("--device " + std::to_string(device_index) + ": only " + std::to_string(count) +
                        " Vulkan device(s) here; use 0.." + std::to_string(count - 1),
                    2);
    Handle gpu = physical[device_index];
    alignas(8) unsigned char properties[1024] = {0};  // VkPhysicalDeviceProperties is 824 bytes
    GetPhysicalDeviceProperties(gpu, properties);
    vk::PropertiesPrefix prefix;
    std::memcpy(&prefix, properties, sizeof prefix);
    vk::MemoryProperties mem{};
    GetPhysicalDeviceMemoryProperties(gpu, &mem);

    const float priority = 1.0f;
    QueueCreateInfo queue;  // family 0: every device has one, and mapping memory needs no queue
    queue.pQueuePriorities = &priority;
    DeviceCreateInfo device_info;
    device_info.pQueueCreateInfos = &queue;
    Handle device = nullptr;
    if (int32_t err = CreateDevice(gpu, &device_info, nullptr, &device); err != 0)
        return fail("vkCreateDevice failed with VkResult " + std::to_string(err) + " on '" + prefix.deviceName +
                    "'; try another --device or check the driver");
#define DEVICE_FN(name, type) const auto name = reinterpret_cast<type>(GetDeviceProcAddr(device, "vk" #name))
    DEVICE_FN(DestroyDevice, void (*)(Handle, const void *));
    cleanup.steps.push_back([=] { DestroyDevice(device, nullptr); });
    DEVICE_FN(AllocateMemory, int32_t(*)(Handle, const MemoryAllocateInfo *, const void *, Memory *));
    DEVICE_FN(FreeMemory, void (*)(Handle, Memory, const void *));
    DEVICE_FN(MapMemory, int32_t(*)(Handle, Memory, uint64_t, uint64_t, uint32_t, void **));
    DEVICE_FN(UnmapMemory, void (*)(Handle, Memory));
    DEVICE_FN(InvalidateMappedMemoryRanges, int32_t(*)(Handle, uint32_t, const MappedMemoryRange *));
    DEVICE_FN(FlushMappedMemoryRanges, int32_t(*)(Handle, uint32_t, const MappedMemoryRange *));
    DEVICE_FN(CreateBuffer, int32_t(*)(Handle, const BufferCreateInfo *, const void *, Memory *));
    DEVICE_FN(GetBufferMemoryRequirements, void (*)(Handle, Memory, MemoryRequirements *));
    DEVICE_FN(DestroyBuffer, void (*)(Handle, Memory, const void *));

    std::printf("vulkan device %lld: %s, %lld bytes, median of %lld reps, wall clock\n", device_index,
                prefix.deviceName, bytes, reps);
    void *host = std::malloc(size_t(bytes));
    if (!host) return fail("cannot allocate " + std::to_string(bytes) + " host bytes; give a smaller --bytes", 2);
    cleanup.steps.push_back([host] { std::free(host); });
    std::memset(host, 1, size_t(bytes));  // touched, so no page fault lands in a timed copy
    std::vector<Measured> measured(mem.memoryTypeCount);
    for (uint32_t t = 0; t < mem.memoryTypeCount && t < 32; t++) {
        const uint32_t flags = mem.memoryTypes[t].propertyFlags, heap = mem.memoryTypes[t].heapIndex;
        char line[256];
        std::snprintf(line, sizeof line, "type %2u heap %u (%.1f GiB) %-50s", t, heap,
                      heap < 16 ? double(mem.memoryHeaps[heap].size) / (1 << 30) : 0.0, flag_names(flags).c_str());
        if (!(flags & vk::kHostVisible)) {
            std::printf("%s not host-visible\n", line);
            continue;
        }
        MemoryAllocateInfo alloc;
        alloc.allocationSize = uint64_t(bytes);
        alloc.memoryTypeIndex = t;
        Memory memory = 0;
        if (int32_t err = AllocateMemory(device, &alloc, nullptr, &memory); err != 0) {
            std::printf("%s vkAllocateMemory failed (VkResult %d)\n", line, err);
            continue;
        }
        void *mapped = nullptr;
        if (int32_t err = MapMemory(device, memory, 0, kWholeSize, 0, &mapped); err != 0) {
            FreeMemory(device, memory, nullptr);
            std::printf("%s vkMapMemory failed (VkResult %d)\n", line, err);
            continue;
        }
        MappedMemoryRange range;
        range.memory = memory;
        const bool coherent = flags & vk::kHostCoherent;
        auto time_ms = [&](const std::function<void()> &body) {
            std::vector<double> ms;
            for (long long r = 0; r < reps + 2; r++) {
                const auto t0 = std::chrono::steady_clock::now();
                body();
                const auto t1 = std::chrono::steady_clock::now();
                if (r >= 2) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            return median_ms(ms);
        };
        Measured &m = measured[t];
        m.write_ms = time_ms([&] {  // first, so the reads copy bytes that were written
            std::memcpy(mapped, host, size_t(bytes));
            if (!coherent) FlushMappedMemoryRanges(device, 1, &range);
        });
        std::memset(host, 0, size_t(bytes));
        m.read_ms = time_ms([&] {
            if (!coherent) InvalidateMappedMemoryRanges(device, 1, &range);
            std::memcpy(host, mapped, size_t(bytes));
        });
        UnmapMemory(device, memory);
        FreeMemory(device, memory, nullptr);
        const auto *back = static_cast<const unsigned char *>(host);  // the reads brought the written bytes back
        if (back[0] != 1 || back[bytes - 1] != 1) {
            std::printf("%s read back other bytes than were written\n", line);
            std::memset(host, 1, size_t(bytes));
            continue;
        }
        m.ok = true;
        std::printf("%s read %8.3f ms %7.2f GB/s   write %8.3f ms %7.2f GB/s\n", line, m.read_ms,
                    double(bytes) / m.read_ms / 1e6, m.write_ms, double(bytes) / m.write_ms / 1e6);
    }
    std::fflush(stdout);

    // The staging buffers as Halide creates them (usage STORAGE plus TRANSFER_DST or _SRC) say which types they allow.
    for (const harness::StagingRequest &s : {harness::kDeviceToHost, harness::kHostToDevice}) {
        BufferCreateInfo buffer_info;
        buffer_info.size = uint64_t(bytes);
        buffer_info.usage = s.usage;
        Memory buffer = 0;
        MemoryRequirements req{0, 0, ~0u};
        if (CreateBuffer(device, &buffer_info, nullptr, &buffer) == 0) {
            GetBufferMemoryRequirements(device, buffer, &req);
            DestroyBuffer(device, buffer, nullptr);
        }
        auto speed = [&](int t) {
            const double ms = s.read ? measured[t].read_ms : measured[t].write_ms;
            return measured[t].ok ? double(bytes) / ms / 1e6 : 0.0;
        };
        const char *verb = s.read ? "read" : "write";
        int best = -1;
        for (int t = 0; t < int(measured.size()); t++)
            if (measured[t].ok && (best < 0 || speed(t) > speed(best))) best = t;
        const int pick = harness::halide_staging_type(mem, req.memoryTypeBits, s);
        std::string text = std::string(s.what) + " staging: Halide 21 picks ";
        char num[64];
        if (pick < 0) {
            text += "no type (needs HOST_VISIBLE|" + flag_names(s.want) + "; its allocation fails)";
        } else {
            std::snprintf(num, sizeof num, "%.2f", speed(pick));
            text += "type " + std::to_string(pick) + " (" + flag_names(mem.memoryTypes[pick].propertyFlags) +
                    "): " + verb + " " + (measured[pick].ok ? std::string(num) + " GB/s" : "not measured");
        }
        if (best >= 0) {
            std::snprintf(num, sizeof num, "%.2f", speed(best));
            text += "; fastest " + std::string(verb) + ": type " + std::to_string(best) + " (" +
                    flag_names(mem.memoryTypes[best].propertyFlags) + ") " + num + " GB/s";
        }
        std::printf("%s\n", text.c_str());
        vk::MemoryProperties shimmed = mem;
        if (s.read && harness::cached_readback_layout(&shimmed) >= 0) {
            const int t = harness::halide_staging_type(shimmed, req.memoryTypeBits, s);
            std::snprintf(num, sizeof num, "%.2f", t >= 0 ? speed(t) : 0.0);
            std::printf("%s staging under the harness's runtime shim: type %d, %s %s GB/s\n", s.what, t, verb, num);
        }
    }
    return std::any_of(measured.begin(), measured.end(), [](const Measured &m) { return m.ok; }) ?
               0 :
               fail("no host-visible memory type could be allocated and mapped; try a smaller --bytes");
}
