// What a Vulkan compute pipeline asks of the device, read from its SPIR-V module (the words Halide's runtime hands
// vkCreateShaderModule) and the specialization constants it is created with: each entry point's work-group size
// and the workgroup (shared) memory its function uses, and whether the module declares fp64/fp16. The Vulkan
// interposer (vulkan_interpose.cpp) checks a pipeline against a device personality with it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace harness {

// A value that is a literal, a constant or a specialization constant (then `spec_id` >= 0 overrides `value`).
struct SpirvValue {
    uint64_t value = 1;
    int64_t spec_id = -1;
    uint64_t resolve(const std::map<uint32_t, uint64_t> &spec) const {
        const auto it = spec_id >= 0 ? spec.find(static_cast<uint32_t>(spec_id)) : spec.end();
        return it == spec.end() ? value : it->second;
    }
};

// One workgroup-memory variable: `element_bytes` x `count` elements.
struct SpirvSharedVar {
    uint64_t element_bytes = 0;
    SpirvValue count;
};

struct SpirvEntryPoint {
    std::string name;
    SpirvValue local_size[3];
    std::vector<SpirvSharedVar> shared;  // the workgroup variables its function uses
};

struct SpirvModule {
    bool valid = false;  // a SPIR-V module (magic number) that parsed to the end
    bool float64 = false, float16 = false;
    std::vector<SpirvEntryPoint> entries;
    const SpirvEntryPoint *entry(const std::string &name) const;
};

// Parses `words` (a SPIR-V module). Never throws: an unreadable module is !valid.
SpirvModule reflect_spirv(const uint32_t *words, size_t count);

// An entry point's work-group size and shared memory bytes once the specialization constants are known.
struct SpirvDispatchShape {
    uint64_t local[3] = {1, 1, 1};
    uint64_t shared_bytes = 0;
};
SpirvDispatchShape resolve_entry(const SpirvEntryPoint &e, const std::map<uint32_t, uint64_t> &spec);

}  // namespace harness
