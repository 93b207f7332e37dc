// The core that judges an output against its golden, compiled both by the harness and by the standalone
// main of an `aot-harness repro` bundle (harness/repro/repro_main.cpp: the bundle's main.cpp is this
// header, verdict_core.cpp and that main, as text), so that a bundle gives the verdict the harness gave:
// the 16-bit float conversions, the aligned host allocator, the .npy format, the tolerance rules with
// their case.txt words, and the verdict of one output. Only the C++ standard library: element types are
// Halide's (code, bits), with halide_type_code_t's numbers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace harness::core {

// --- element types and the 16-bit floats ---

enum TypeCode { Int = 0, UInt = 1, Float = 2, BFloat = 4 };  // halide_type_code_t
struct ElemType {
    int code = UInt;
    int bits = 8;
};
inline bool is_float(ElemType t) {
    return t.code == Float || t.code == BFloat;
}

// The bits of `v` rounded to nearest even in a float of `exponent_bits` / `mantissa_bits` (1 sign bit; IEEE
// half 5/10, bfloat16 8/7); overflow gives infinity, NaN a quiet NaN of the same sign.
uint16_t float_bits_from_double(double v, int exponent_bits, int mantissa_bits);
double double_from_float_bits(uint16_t bits, int exponent_bits, int mantissa_bits);
// Element i of `data` (little-endian, `t`) as a double.
double element_value(const uint8_t *data, ElemType t, size_t i);

// --- host buffers ---

// Buffers start this aligned, as Halide's Runtime::Buffer allocates them (a generator may declare
// set_host_alignment), in the harness and in a bundle alike.
inline constexpr size_t kHostAlignment = 128;

template<typename T>
struct HostAlignedAllocator {
    using value_type = T;
    HostAlignedAllocator() = default;
    template<typename U>
    HostAlignedAllocator(const HostAlignedAllocator<U> &) {}
    T *allocate(size_t n) { return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(kHostAlignment))); }
    void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(kHostAlignment)); }
    template<typename U>
    bool operator==(const HostAlignedAllocator<U> &) const {
        return true;
    }
    template<typename U>
    bool operator!=(const HostAlignedAllocator<U> &) const {
        return false;
    }
};

// --- .npy ---

// A malformed file or value; the message is the problem alone (the caller names the file and the fix).
struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct NpyHeader {
    std::string descr;  // '<f4', '|u1'; bfloat16's structured form as "[bfloat16:<u2]"
    bool fortran_order = false;
    std::vector<uint64_t> c_shape;  // outermost first, as the file has it
    size_t data_offset = 0;         // where the data starts
};
// Reads the preamble and the header dict of an .npy file (versions 1.0 and 2.0). Throws FormatError.
NpyHeader parse_npy_header(const std::string &bytes);
// The element type of a descr; throws FormatError for a big-endian, unordered or unsupported one.
ElemType npy_type(const std::string &descr);
// The descr literal the harness writes for `t` ("'<f4'", "[('bfloat16', '<u2')]"); throws FormatError.
std::string npy_descr_literal(ElemType t);
// The preamble and padded header of an array of `t` with `shape` in Halide order (dim 0 innermost), as
// numpy writes it: the data follows at a multiple of 64 bytes. Throws FormatError.
std::string npy_preamble(ElemType t, const std::vector<int> &shape);

// --- tolerances ---

// A tolerance (harness/tolerance.h states the rules): how far an output may be from its golden.
struct Rule {
    enum Kind { Exact, Absolute, AbsRel, Ulp, MismatchFraction, Psnr };
    Kind kind = Exact;
    double atol = 0, rtol = 0;
    int64_t ulp = 0;
    double max_fraction = 0, min_db = 0;
    bool nan_equal = false;
    std::shared_ptr<const Rule> inner;  // MismatchFraction only
};
// case.txt's words for a rule: exact | absolute A | abs_rel A R | ulp N | psnr DB, each followed by nan_equal
// where NaN matches NaN, or fraction F [nan_equal] <inner>; and back. Throws FormatError for unknown words.
std::string rule_words(const Rule &r);
Rule parse_rule_words(std::istream &in);

// One element pair and the error measures every rule needs.
struct Pair {
    double e = 0, a = 0;
    bool nan = false;       // either side is NaN
    bool inf = false;       // either side is infinite (and neither is NaN)
    bool equal = false;     // same value (+0 == -0; NaN never equal here)
    double abs_err = 0;     // exact for integers; inf for inf vs finite; 0 for equal infinities
    uint64_t int_diff = 0;  // integers: |a - e| exactly
};
// A pair of floats; of integers, with their exact difference.
Pair float_pair(double e, double a);
Pair int_pair(double e, double a, uint64_t int_diff);
// Distance in units in the last place of `t` (16, 32 or 64 bits; bfloat16); inf with a NaN.
double ulp_distance(double e, double a, ElemType t);
// Whether the pair is within the rule's element test (a MismatchFraction's: its inner rule's).
bool within(const Rule &r, const Pair &p, bool nan_equal, ElemType t);
// PSNR's peak: the type's maximum for integers, 1.0 for floats.
double psnr_peak(ElemType t);

// What a comparison counted, and the verdict the rule gives on it.
struct Tally {
    size_t count = 0, mismatches = 0;
    size_t nan_mismatches = 0;  // mismatching pairs with a NaN on either side
    size_t output_nans = 0;     // mismatching pairs with NaN in the output where the golden has none
    double sse = 0;             // of the non-NaN pairs' errors
};
double psnr_db(const Tally &t, ElemType type);
bool passes(const Rule &r, const Tally &t, ElemType type);

// The whole comparison of two dense arrays of one type (the bundle's): counts, the worst element (largest
// error, NaN first), and the verdict.
struct Judgement {
    Tally tally;
    bool passed = false;
    double max_abs_error = 0;
    size_t worst = 0;  // == count when nothing mismatched
};
Judgement judge(const uint8_t *golden, const uint8_t *output, size_t count, ElemType t, const Rule &r);

}  // namespace harness::core
