// NumPy .npy encoding/decoding of Arrays and the files (see npy.h). The format itself (the preamble, the
// header dict, descr to type) is the verdict core's (npy_core.cpp), which a repro bundle's main compiles
// too. bfloat16 is the structured dtype [('bfloat16', '<u2')]: numpy loads it as it is (a['bfloat16'] holds
// the bits; (bits.astype('<u4') << 16).view('<f4') gives the values) and no other array is read as it.
#include "values/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "values/element_type.h"
#include "base/error.h"
#include "base/files.h"

namespace harness {

namespace {

const char kFixHint[] =
    "re-bless with `aot-harness bless` or re-save it with numpy.save as a little-endian C-order array";

[[noreturn]] void fail(const std::string &what, const std::string &problem) {
    throw Error(what + ": " + problem + "; " + kFixHint);
}

}  // namespace

std::string npy_encode(const Array &a) {
    if (a.type.lanes != 1 || !find_element_type(a.type))
        throw Error("cannot write .npy: unsupported element type " + describe_type(a.type));
    std::string out;
    try {
        out = core::npy_preamble({int(a.type.code), int(a.type.bits)}, a.shape);
    } catch (const core::FormatError &e) {
        throw Error(std::string("cannot write .npy: ") + e.what() + " " + shape_string(a.shape));
    }
    const size_t expected = a.elements() * a.element_bytes();
    if (a.bytes.size() != expected) {
        throw Error("cannot write .npy: array has " + std::to_string(a.bytes.size()) + " bytes but its shape " +
                    shape_string(a.shape) + " needs " + std::to_string(expected));
    }
    out.append(reinterpret_cast<const char *>(a.bytes.data()), a.bytes.size());
    return out;
}

Array npy_decode(const std::string &bytes, const std::string &what) {
    core::NpyHeader h;
    halide_type_t type;
    try {
        h = core::parse_npy_header(bytes);
        const core::ElemType t = core::npy_type(h.descr);
        type = halide_type_t(halide_type_code_t(t.code), uint8_t(t.bits), 1);
    } catch (const core::FormatError &e) {
        const std::string problem = e.what();
        if (problem.rfind("unsupported dtype", 0) == 0) {
            fail(what, problem + " (supported: " + supported_element_types() + "; bfloat16 as [('bfloat16', '<u2')])");
        }
        fail(what, problem);
    }
    if (h.fortran_order) fail(what, "fortran_order True is not supported (save a C-order array)");
    const std::vector<uint64_t> &c_shape = h.c_shape;
    Array a;
    a.type = type;
    size_t count = 1;
    bool overflow = false;
    for (size_t k = c_shape.size(); k-- > 0;) {
        if (c_shape[k] > uint64_t(INT_MAX)) fail(what, "shape extent " + std::to_string(c_shape[k]) + " is too large");
        a.shape.push_back(int(c_shape[k]));
        if (c_shape[k] != 0 && count > SIZE_MAX / 8 / c_shape[k]) overflow = true;
        count *= size_t(c_shape[k]);
    }
    const size_t data_len = bytes.size() - h.data_offset;
    if (overflow) fail(what, "shape " + shape_string(a.shape) + " is too large");
    const size_t expected = count * a.element_bytes();
    if (data_len < expected) {
        fail(what, "truncated data (" + std::to_string(data_len) + " bytes, shape " + shape_string(a.shape) +
                       " needs " + std::to_string(expected) + ")");
    }
    if (data_len > expected) {
        fail(what, "data size mismatch (" + std::to_string(data_len) + " bytes, shape " + shape_string(a.shape) +
                       " needs " + std::to_string(expected) + ")");
    }
    const auto *data = reinterpret_cast<const uint8_t *>(bytes.data()) + h.data_offset;
    a.bytes.assign(data, data + expected);
    return a;
}

Array npy_load(const std::string &path) {
    return npy_decode(read_file(path), path);
}

void npy_save(const std::string &path, const Array &a) {
    write_file_atomic(path, npy_encode(a));
}

}  // namespace harness
