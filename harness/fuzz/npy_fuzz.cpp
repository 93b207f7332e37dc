// Fuzz target: npy_decode (harness/src/values/npy.cpp) on arbitrary bytes.
// Expected rejections: harness::Error. Invariants of an accepted file: its bytes fill its shape, its
// dtype has a name, and npy_encode writes it back (64-byte aligned) as bytes that decode to the same
// type, shape and data and re-encode identically.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "harness/array.h"
#include "base/error.h"
#include "values/npy.h"

namespace {

bool same_array(const harness::Array &a, const harness::Array &b) {
    return a.type.code == b.type.code && a.type.bits == b.type.bits && a.type.lanes == b.type.lanes &&
           a.shape == b.shape && a.bytes == b.bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    harness::Array a;
    try {
        a = harness::npy_decode(bytes, "fuzz.npy");
    } catch (const harness::Error &) {
        return 0;  // a rejected file: the expected outcome for most inputs
    }
    FUZZ_CHECK(a.bytes.size() == a.elements() * a.element_bytes(), "decoded bytes do not fill the shape");
    const std::string dtype = harness::dtype_name(a.type);  // an accepted dtype has a name (throws otherwise)
    FUZZ_CHECK(harness::dtype_from_name(dtype).bits == a.type.bits, dtype);
    if (a.elements() > 0) {
        a.value(0);
        a.value(a.elements() - 1);
        FUZZ_CHECK(a.coords(a.elements() - 1).size() == a.shape.size(), "coords of the last element");
    }

    std::string encoded;
    try {
        encoded = harness::npy_encode(a);
    } catch (const harness::Error &e) {
        // Format 1.0 has a 16-bit header length; a 2.0 file with a huge rank cannot be written back.
        FUZZ_CHECK(std::strstr(e.what(), "header too long") != nullptr, e.what());
        return 0;
    }
    const size_t header_len = static_cast<unsigned char>(encoded[8]) | size_t(static_cast<unsigned char>(encoded[9]))
                                                                           << 8;
    FUZZ_CHECK((10 + header_len) % 64 == 0, "npy_encode's data is not 64-byte aligned");
    const harness::Array b = harness::npy_decode(encoded, "re-encoded.npy");  // an Error here is a finding
    FUZZ_CHECK(same_array(a, b), "decode(encode(a)) differs from a");
    FUZZ_CHECK(harness::npy_encode(b) == encoded, "encode is not stable");
    return 0;
}
