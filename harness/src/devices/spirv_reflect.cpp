// The SPIR-V reader of the Vulkan interposer (spirv_reflect.h): only what a compute pipeline's limits need.
#include "devices/spirv_reflect.h"

#include <set>

namespace harness {

namespace spirv_ops {

// Opcodes, decorations and enumerants of the SPIR-V specification (unified, 1.0-1.6).
enum : uint32_t {
    kMagic = 0x07230203,
    OpName = 5,
    OpEntryPoint = 15,
    OpExecutionMode = 16,
    OpCapability = 17,
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeArray = 28,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpSpecConstant = 50,
    OpFunction = 54,
    OpFunctionEnd = 56,
    OpVariable = 59,
    OpLoad = 61,
    OpStore = 62,
    OpAccessChain = 65,
    OpInBoundsAccessChain = 66,
    OpPtrAccessChain = 67,
    OpDecorate = 71,
    OpExecutionModeId = 331,
    ExecutionModeLocalSize = 17,
    ExecutionModeLocalSizeId = 38,
    DecorationSpecId = 1,
    StorageClassWorkgroup = 4,
    CapabilityFloat16 = 9,
    CapabilityFloat64 = 10,
};

// Atomic instructions (OpAtomicLoad 227 .. OpAtomicXor 242, OpAtomicFlagTestAndSet 318, OpAtomicFMinEXT ...
// OpAtomicFAddEXT 5614/6035): their pointer is operand 3, as a load's.
bool is_atomic(uint32_t op) {
    return (op >= 227 && op <= 242) || op == 318 || op == 319 || op == 6035 || op == 5614 || op == 5615 || op == 5616;
}

}  // namespace spirv_ops

const SpirvEntryPoint *SpirvModule::entry(const std::string &name) const {
    for (const auto &e : entries) {
        if (e.name == name) return &e;
    }
    return nullptr;
}

SpirvModule reflect_spirv(const uint32_t *w, size_t n) {
    using namespace spirv_ops;
    SpirvModule m;
    if (!w || n < 5 || w[0] != kMagic) return m;
    std::map<uint32_t, uint64_t> type_bytes;                        // type id -> bytes
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> array_of;     // array type -> (element type, length id)
    std::map<uint32_t, uint32_t> pointee;                           // workgroup pointer type -> pointee type
    std::map<uint32_t, SpirvValue> values;                          // constant / spec constant id -> value
    std::map<uint32_t, uint32_t> spec_ids;                          // id -> SpecId decoration
    std::map<uint32_t, SpirvSharedVar> shared_vars;                 // workgroup variable id -> its size
    std::map<uint32_t, std::string> entry_names;                    // function id -> entry point name
    std::map<uint32_t, std::vector<uint32_t>> local_size_ids;       // function id -> LocalSizeId operands
    std::map<uint32_t, std::vector<uint64_t>> local_size_literals;  // function id -> LocalSize operands
    std::map<uint32_t, std::set<uint32_t>> uses;                    // function id -> workgroup variables it touches
    uint32_t function = 0;
    size_t i = 5;
    for (; i < n;) {
        const uint32_t count = w[i] >> 16, op = w[i] & 0xFFFF;
        if (count == 0 || i + count > n) return m;
        const uint32_t *a = w + i;  // a[1..count-1]: the operands
        switch (op) {
        case OpCapability:
            if (a[1] == CapabilityFloat64) m.float64 = true;
            if (a[1] == CapabilityFloat16) m.float16 = true;
            break;
        case OpEntryPoint:
            if (count >= 4) entry_names[a[2]] = std::string(reinterpret_cast<const char *>(a + 3));
            break;
        case OpExecutionMode:
            if (count >= 6 && a[2] == ExecutionModeLocalSize) local_size_literals[a[1]] = {a[3], a[4], a[5]};
            break;
        case OpExecutionModeId:
            if (count >= 6 && a[2] == ExecutionModeLocalSizeId) local_size_ids[a[1]] = {a[3], a[4], a[5]};
            break;
        case OpDecorate:
            if (count >= 4 && a[2] == DecorationSpecId) spec_ids[a[1]] = a[3];
            break;
        case OpTypeBool:
            type_bytes[a[1]] = 4;
            break;
        case OpTypeInt:
        case OpTypeFloat:
            if (count >= 3) type_bytes[a[1]] = a[2] / 8;
            break;
        case OpTypeVector:
            if (count >= 4) type_bytes[a[1]] = type_bytes[a[2]] * a[3];
            break;
        case OpTypeArray:
            if (count >= 4) array_of[a[1]] = {a[2], a[3]};
            break;
        case OpTypeStruct: {
            uint64_t total = 0;
            for (uint32_t k = 2; k < count; k++)
                total += type_bytes[a[k]];
            type_bytes[a[1]] = total;
            break;
        }
        case OpTypePointer:
            if (count >= 4 && a[2] == StorageClassWorkgroup) pointee[a[1]] = a[3];
            break;
        case OpConstant:
        case OpSpecConstant:
            if (count >= 4) {
                SpirvValue v;
                v.value = a[3];
                if (count >= 5 && type_bytes[a[1]] == 8) v.value |= static_cast<uint64_t>(a[4]) << 32;
                // Decorations come before types and constants in a module: the SpecId is known here.
                if (op == OpSpecConstant && spec_ids.count(a[2])) v.spec_id = spec_ids[a[2]];
                values[a[2]] = v;
            }
            break;
        case OpVariable:
            if (count >= 4 && a[3] == StorageClassWorkgroup && pointee.count(a[1])) {
                const uint32_t t = pointee[a[1]];
                SpirvSharedVar var;
                const auto arr = array_of.find(t);
                if (arr != array_of.end()) {
                    var.element_bytes = type_bytes[arr->second.first];
                    if (const auto v = values.find(arr->second.second); v != values.end()) var.count = v->second;
                } else {
                    var.element_bytes = type_bytes[t];
                }
                shared_vars[a[2]] = var;
            }
            break;
        case OpFunction:
            if (count >= 3) function = a[2];
            break;
        case OpFunctionEnd:
            function = 0;
            break;
        default:
            break;
        }
        if (function) {
            uint32_t pointer = 0;
            if ((op == OpLoad || op == OpAccessChain || op == OpInBoundsAccessChain || op == OpPtrAccessChain ||
                 is_atomic(op)) &&
                count >= 4) {
                pointer = a[3];
            } else if (op == OpStore && count >= 3) {
                pointer = a[1];
            }
            if (pointer && shared_vars.count(pointer)) uses[function].insert(pointer);
        }
        i += count;
    }
    for (const auto &[fn, name] : entry_names) {
        SpirvEntryPoint e;
        e.name = name;
        if (const auto lit = local_size_literals.find(fn); lit != local_size_literals.end()) {
            for (int d = 0; d < 3; d++)
                e.local_size[d].value = lit->second[d];
        }
        if (const auto ids = local_size_ids.find(fn); ids != local_size_ids.end()) {
            for (int d = 0; d < 3; d++) {
                if (const auto v = values.find(ids->second[d]); v != values.end()) e.local_size[d] = v->second;
            }
        }
        for (uint32_t var : uses[fn])
            e.shared.push_back(shared_vars[var]);
        m.entries.push_back(e);
    }
    m.valid = true;
    return m;
}

SpirvDispatchShape resolve_entry(const SpirvEntryPoint &e, const std::map<uint32_t, uint64_t> &spec) {
    SpirvDispatchShape s;
    for (int d = 0; d < 3; d++)
        s.local[d] = e.local_size[d].resolve(spec);
    for (const auto &v : e.shared)
        s.shared_bytes += v.element_bytes * v.count.resolve(spec);
    return s;
}

}  // namespace harness
