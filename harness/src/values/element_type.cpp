// The element type table (element_type.h).
#include "values/element_type.h"

#include "base/error.h"

namespace harness {

const std::vector<ElementType> &element_types() {
    static const std::vector<ElementType> t{
#define HARNESS_TABLE_ROW(T, code_, bits_, name, npy) {halide_type_t(code_, bits_, 1), name, npy},
        HARNESS_ELEMENT_TYPES(HARNESS_TABLE_ROW)
#undef HARNESS_TABLE_ROW
    };
    return t;
}

const ElementType *find_element_type(halide_type_t t) {
    for (const auto &e : element_types()) {
        if (e.type.code == t.code && e.type.bits == t.bits && e.type.lanes == t.lanes) return &e;
    }
    return nullptr;
}

const ElementType *find_element_type(const std::string &name) {
    for (const auto &e : element_types()) {
        if (name == e.name) return &e;
    }
    return nullptr;
}

std::string supported_element_types() {
    std::string s;
    for (const auto &e : element_types())
        s += (s.empty() ? "" : ", ") + std::string(e.name);
    return s;
}

std::string describe_type(halide_type_t t) {
    if (const ElementType *e = find_element_type(t)) return e->name;  // "bool", not "uint1"
    static const char *const codes[] = {"int", "uint", "float", "handle", "bfloat"};
    const std::string code = t.code < 5 ? codes[t.code] : "code" + std::to_string(int(t.code));
    std::string s = code + std::to_string(int(t.bits));
    if (t.lanes != 1) s += "x" + std::to_string(int(t.lanes));
    return s;
}

void throw_unsupported_type(halide_type_t t, const std::string &where) {
    throw Error((where.empty() ? "" : where + ": ") + "unsupported element type " + describe_type(t) +
                "; the harness supports " + supported_element_types());
}

}  // namespace harness
