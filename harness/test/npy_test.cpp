// Unit tests for npy.h and array.h: .npy round trips, numpy's exact bytes, malformed files, atomic writes.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/array.h"
#include "error_of.h"
#include "base/error.h"
#include "base/temp_dir.h"
#include "values/npy.h"

namespace harness {
namespace {

// np.save of np.arange(6, dtype='<u2').reshape(2, 3), produced by numpy 2.4.
const char kNumpyU2[] = "\x93NUMPY\x01\x00v\x00{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }"
                        "                                                          "
                        "\x0a\x00\x00\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00";
// numpy.lib.format.write_array(f, np.arange(6, dtype='<i2').reshape(2, 3) - 3, version=(2, 0)).
const char kNumpyI2V2[] = "\x93NUMPY\x02\x00t\x00\x00\x00{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }"
                          "                                                        "
                          "\x0a\xfd\xff\xfe\xff\xff\xff\x00\x00\x01\x00\x02\x00";

std::string numpy_u2() {
    return std::string(kNumpyU2, sizeof kNumpyU2 - 1);
}

// `bytes` with the first occurrence of `from` replaced by `to`.
std::string patched(std::string bytes, const std::string &from, const std::string &to) {
    const size_t at = bytes.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return bytes.replace(at, from.size(), to);
}

std::vector<std::string> list_dir(const std::string &dir) {
    std::vector<std::string> names;
    DIR *d = opendir(dir.c_str());
    if (!d) return names;
    while (dirent *e = readdir(d)) {
        const std::string n = e->d_name;
        if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
    return names;
}

TEST(Npy, RoundTripEveryDtypeAndRank) {
    const char *const dtypes[] = {"bool",  "uint8", "uint16",  "uint32",   "uint64",  "int8",   "int16",
                                  "int32", "int64", "float16", "bfloat16", "float32", "float64"};
    const std::vector<std::vector<int>> shapes = {{}, {7}, {5, 3}, {4, 3, 2}, {0, 3}};
    for (const char *name : dtypes) {
        for (const auto &shape : shapes) {
            Array a(dtype_from_name(name), shape);
            for (size_t i = 0; i < a.bytes.size(); i++)
                a.bytes[i] = uint8_t(i * 37 + 11);
            if (a.type.bits == 1) {
                for (size_t i = 0; i < a.bytes.size(); i++)
                    a.bytes[i] = i % 3 == 0;
            }
            const std::string encoded = npy_encode(a);
            EXPECT_EQ((encoded.size() - a.bytes.size()) % 64, 0u) << name;
            EXPECT_EQ(encoded[encoded.size() - a.bytes.size() - 1], '\n') << name;
            const Array b = npy_decode(encoded, "test");
            EXPECT_EQ(dtype_name(b.type), name);
            EXPECT_EQ(b.shape, shape) << name << " " << shape_string(shape);
            EXPECT_EQ(b.bytes, a.bytes) << name << " " << shape_string(shape);
        }
    }
}

TEST(Npy, EncodeMatchesNumpyBytes) {
    Array a(dtype_from_name("uint16"), {3, 2});  // Halide order: x = 3, y = 2; numpy shape (2, 3)
    for (int i = 0; i < 6; i++)
        a.data<uint16_t>()[i] = uint16_t(i);
    EXPECT_EQ(npy_encode(a), numpy_u2());
}

TEST(Npy, DecodeNumpyVersion1) {
    const Array a = npy_decode(numpy_u2(), "arange.npy");
    EXPECT_EQ(dtype_name(a.type), "uint16");
    EXPECT_EQ(a.shape, (std::vector<int>{3, 2}));
    for (size_t i = 0; i < 6; i++)
        EXPECT_EQ(a.value(i), double(i));
    EXPECT_EQ(a.coords(5), (std::vector<int>{2, 1}));
}

TEST(Npy, DecodeNumpyVersion2) {
    const Array a = npy_decode(std::string(kNumpyI2V2, sizeof kNumpyI2V2 - 1), "v2.npy");
    EXPECT_EQ(dtype_name(a.type), "int16");
    EXPECT_EQ(a.shape, (std::vector<int>{3, 2}));
    for (size_t i = 0; i < 6; i++)
        EXPECT_EQ(a.value(i), double(i) - 3);
}

TEST(Npy, TruncatedFilesThrow) {
    const std::string good = numpy_u2();
    const std::string data_cut = error_of([&] { npy_decode(good.substr(0, good.size() - 1), "cut.npy"); });
    EXPECT_NE(data_cut.find("cut.npy"), std::string::npos) << data_cut;
    EXPECT_NE(data_cut.find("truncated data"), std::string::npos) << data_cut;
    EXPECT_NE(data_cut.find("aot-harness bless"), std::string::npos) << data_cut;
    EXPECT_EQ(data_cut.find('\n'), std::string::npos);
    const std::string header_cut = error_of([&] { npy_decode(good.substr(0, 40), "h.npy"); });
    EXPECT_NE(header_cut.find("truncated header"), std::string::npos) << header_cut;
    EXPECT_NE(error_of([&] { npy_decode(good.substr(0, 9), "x"); }), "");
    EXPECT_NE(error_of([&] { npy_decode("", "x"); }), "");
    const std::string extra = error_of([&] { npy_decode(good + "\x01", "long.npy"); });
    EXPECT_NE(extra.find("size mismatch"), std::string::npos) << extra;
}

TEST(Npy, BadMagicThrows) {
    const std::string msg = error_of([&] { npy_decode(patched(numpy_u2(), "NUMPY", "NUMPX"), "m.npy"); });
    EXPECT_NE(msg.find("m.npy"), std::string::npos) << msg;
    EXPECT_NE(msg.find("magic"), std::string::npos) << msg;
    EXPECT_NE(error_of([&] { npy_decode("PK\x03\x04 not numpy at all", "zip"); }), "");
}

TEST(Npy, UnsupportedVersionThrows) {
    const std::string msg = error_of([&] { npy_decode(patched(numpy_u2(), "NUMPY\x01", "NUMPY\x04"), "v.npy"); });
    EXPECT_NE(msg.find("version 4.0"), std::string::npos) << msg;
}

TEST(Npy, FortranOrderThrows) {
    const std::string msg = error_of([&] { npy_decode(patched(numpy_u2(), "False", "True "), "f.npy"); });
    EXPECT_NE(msg.find("fortran_order"), std::string::npos) << msg;
}

TEST(Npy, BigEndianThrows) {
    const std::string msg = error_of([&] { npy_decode(patched(numpy_u2(), "'<u2'", "'>u2'"), "be.npy"); });
    EXPECT_NE(msg.find("big-endian"), std::string::npos) << msg;
    // Byte order does not matter for one-byte types.
    Array a(dtype_from_name("int8"), {2});
    EXPECT_EQ(npy_decode(patched(npy_encode(a), "'|i1'", "'>i1'"), "x").shape, a.shape);
}

// np.save(f, np.array([1.0, -2.0, 0.5, 65504.0], dtype='<f2')), numpy 2.4.
const char kNumpyF2[] = "\x93NUMPY\x01\x00v\x00{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }"
                        "                                                            \n"
                        "\x00\x3c\x00\xc0\x00\x38\xff\x7b";
// np.save(f, np.array([0x3f80, 0xc020, 0x3dcd], dtype='<u2').view([('bfloat16', '<u2')])), numpy 2.4:
// bfloat16 1.0, -2.5 and 0.10009765625 as the harness stores them.
const char kNumpyBf16[] = "\x93NUMPY\x01\x00v\x00{'descr': [('bfloat16', '<u2')], 'fortran_order': False, "
                          "'shape': (3,), }                                            \n"
                          "\x80\x3f\x20\xc0\xcd\x3d";

TEST(Npy, Float16AndBfloat16AsNumpyWritesThem) {
    const Array h = npy_decode(std::string(kNumpyF2, sizeof kNumpyF2 - 1), "h.npy");
    EXPECT_EQ(dtype_name(h.type), "float16");
    ASSERT_EQ(h.shape, std::vector<int>{4});
    EXPECT_EQ(h.value(0), 1.0);
    EXPECT_EQ(h.value(1), -2.0);
    EXPECT_EQ(h.value(2), 0.5);
    EXPECT_EQ(h.value(3), 65504.0);
    EXPECT_NE(npy_encode(h).find("'descr': '<f2'"), std::string::npos);
    const Array b = npy_decode(std::string(kNumpyBf16, sizeof kNumpyBf16 - 1), "b.npy");
    EXPECT_EQ(dtype_name(b.type), "bfloat16");
    ASSERT_EQ(b.shape, std::vector<int>{3});
    EXPECT_EQ(b.value(0), 1.0);
    EXPECT_EQ(b.value(1), -2.5);
    EXPECT_EQ(b.value(2), 0.10009765625);
    // Written back with the same descr, so numpy (and the harness) read it as the same bits.
    const std::string again = npy_encode(b);
    EXPECT_NE(again.find("'descr': [('bfloat16', '<u2')], "), std::string::npos) << again;
    EXPECT_EQ(npy_decode(again, "again").bytes, b.bytes);
    // A plain 2-byte void is no bfloat16: nothing says so.
    EXPECT_NE(error_of([&] {
                  npy_decode(patched(std::string(kNumpyF2, sizeof kNumpyF2 - 1), "'<f2'", "'<V2'"), "v.npy");
              }).find("unsupported dtype"),
              std::string::npos);
    EXPECT_NE(error_of([&] {
                  npy_decode(patched(std::string(kNumpyBf16, sizeof kNumpyBf16 - 1), "'bfloat16'", "'bfloat17'"),
                             "s.npy");
              }).find("unsupported dtype"),
              std::string::npos);
}

TEST(Npy, UnsupportedDtypeThrows) {
    for (const char *descr : {"'<e2'", "'<c8'", "'<U2'", "'|O8'"}) {
        const std::string msg = error_of([&] { npy_decode(patched(numpy_u2(), "'<u2'", descr), "d.npy"); });
        EXPECT_NE(msg.find("unsupported dtype"), std::string::npos) << descr << ": " << msg;
    }
}

TEST(Npy, MalformedHeaderThrows) {
    const std::string good = numpy_u2();
    EXPECT_NE(error_of([&] { npy_decode(patched(good, "'shape'", "'shapf'"), "x"); }).find("unexpected header key"),
              std::string::npos);
    EXPECT_NE(error_of([&] { npy_decode(patched(good, "(2, 3)", "(2,-3)"), "x"); }), "");
    EXPECT_NE(error_of([&] { npy_decode(patched(good, "{", " "), "x"); }), "");
    EXPECT_NE(
        error_of([&] { npy_decode(patched(good, "'descr': '<u2', ", "                "), "x"); }).find("no 'descr'"),
        std::string::npos);
}

TEST(Npy, ArrayHelpers) {
    EXPECT_EQ(shape_string({64, 48, 3}), "64x48x3");
    EXPECT_NE(error_of([] { dtype_from_name("float8"); }).find("float32"), std::string::npos);
    EXPECT_NE(error_of([] { dtype_name(halide_type_t(halide_type_float, 8, 1)); }), "");
    Array a(dtype_from_name("int16"), {4, 3});
    EXPECT_EQ(a.elements(), 12u);
    EXPECT_EQ(a.bytes.size(), 24u);
    a.data<int16_t>()[7] = -5;
    EXPECT_EQ(a.value(7), -5.0);
    EXPECT_EQ(a.coords(7), (std::vector<int>{3, 1}));
    Halide::Runtime::Buffer<void> v = a.view();
    EXPECT_EQ(v.dimensions(), 2);
    EXPECT_EQ(v.dim(0).extent(), 4);
    EXPECT_EQ(v.dim(1).stride(), 4);
    EXPECT_EQ(v.data(), static_cast<void *>(a.bytes.data()));
}

TEST(Npy, AtomicWriteReplacesAndLeavesNoTemp) {
    TempDir dir("npy_test");
    const std::string path = dir.path() + "/out.npy";
    write_file_atomic(path, "first contents, longer");
    EXPECT_EQ(read_file(path), "first contents, longer");
    write_file_atomic(path, "second");
    EXPECT_EQ(read_file(path), "second");
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"out.npy"});
}

TEST(Npy, AtomicWriteFailureCleansUp) {
    TempDir dir("npy_test");
    const std::string missing = dir.path() + "/no/such/dir/out.npy";
    const std::string msg = error_of([&] { write_file_atomic(missing, "x"); });
    EXPECT_NE(msg.find(missing), std::string::npos) << msg;
    EXPECT_NE(msg.find("No such file"), std::string::npos) << msg;
    // Renaming a file over a non-empty directory fails after the temp file was written.
    const std::string target = dir.path() + "/target";
    ASSERT_EQ(mkdir(target.c_str(), 0755), 0);
    write_file_atomic(target + "/keep", "k");
    EXPECT_NE(error_of([&] { write_file_atomic(target, "payload"); }).find(target), std::string::npos);
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"target"});
    EXPECT_EQ(read_file(target + "/keep"), "k");
    unlink((target + "/keep").c_str());
}

TEST(Npy, ReadFileErrorNamesPath) {
    const std::string msg = error_of([] { read_file("/nonexistent/harness/file.npy"); });
    EXPECT_NE(msg.find("/nonexistent/harness/file.npy"), std::string::npos) << msg;
}

TEST(Npy, SaveAndLoadFile) {
    TempDir dir("npy_test");
    Array a(dtype_from_name("float32"), {3, 2, 2});
    for (size_t i = 0; i < a.elements(); i++)
        a.data<float>()[i] = float(i) * 0.25f - 1;
    npy_save(dir.path() + "/a.npy", a);
    const Array b = npy_load(dir.path() + "/a.npy");
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.bytes, a.bytes);
    EXPECT_NE(error_of([&] { npy_load(dir.path() + "/missing.npy"); }).find("missing.npy"), std::string::npos);
}

}  // namespace
}  // namespace harness
