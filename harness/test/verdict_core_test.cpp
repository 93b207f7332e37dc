// The verdict core (harness/verdict_core.h) is the one judgement: for every tolerance kind, the harness's
// compare() and a repro bundle's path (the tolerance written as case.txt words, read back, then core::judge
// on the raw bytes, as the bundle's main does) give the same verdict on the same arrays, for integer and
// float types, NaN, infinities and signed zeros included. And the bundle's main is the core's text.
#include "harness/verdict_core.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "harness/compare.h"
#include "triage/repro.h"
#include "values/element_type.h"
#include "values/npy.h"

namespace harness {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

Array filled(halide_type_t t, const std::vector<double> &values) {
    Array a(t, {int(values.size())});
    dispatch_element_type(t, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (size_t i = 0; i < values.size(); i++)
            a.data<T>()[i] = T(values[i]);
    });
    return a;
}

// The verdict of a bundle: the rule through case.txt's words, then the core's judgement of the bytes.
bool bundle_verdict(const Array &golden, const Array &output, const Tolerance &tol) {
    std::istringstream words(core::rule_words(tol.to_rule()));
    const core::Rule rule = core::parse_rule_words(words);
    return core::judge(golden.bytes.data(), output.bytes.data(), golden.elements(),
                       {int(golden.type.code), int(golden.type.bits)}, rule)
        .passed;
}

std::vector<Tolerance> every_kind() {
    std::vector<Tolerance> t{Tolerance::exact(),
                             Tolerance::absolute(1),
                             Tolerance::absolute(0.25),
                             Tolerance::abs_rel(0, 0.1),
                             Tolerance::abs_rel(0.5, 0.01),
                             Tolerance::ulps(0),
                             Tolerance::ulps(1),
                             Tolerance::ulps(4),
                             Tolerance::psnr(20),
                             Tolerance::psnr(60),
                             Tolerance::mismatch_fraction(Tolerance::exact(), 0.2),
                             Tolerance::mismatch_fraction(Tolerance::absolute(1), 0.5)};
    const size_t n = t.size();
    for (size_t i = 0; i < n; i++) {
        Tolerance nan_equal = t[i];
        nan_equal.nan_equal = true;
        t.push_back(nan_equal);
    }
    return t;
}

TEST(VerdictCore, EveryToleranceKindGivesTheHarnessVerdictInABundle) {
    const std::vector<double> golden{0, 1, 2, 3, 100, 5, 0.5, 7};  // 0.5 is 0 in integer types
    const std::vector<std::vector<double>> outputs{golden,
                                                   {0, 1, 2, 3, 101, 5, 0.5, 7},
                                                   {0, 2, 2, 3, 100, 5, 0.5, 9},
                                                   {1, 2, 3, 4, 101, 6, 1.5, 8},
                                                   {0, 1, 2, 3, 100, 5, 0.5, 70},
                                                   {0, 1, 2, 3, 100.25, 5, 0.5, 7.001}};
    size_t checked = 0, passed = 0;
    for (const halide_type_t t :
         {halide_type_t(halide_type_uint, 8), halide_type_t(halide_type_int, 16), halide_type_t(halide_type_int, 64),
          halide_type_t(halide_type_float, 16), halide_type_t(halide_type_bfloat, 16),
          halide_type_t(halide_type_float, 32), halide_type_t(halide_type_float, 64)}) {
        const Array g = filled(t, golden);
        for (const auto &o : outputs) {
            const Array out = filled(t, o);
            for (const Tolerance &tol : every_kind()) {
                const bool harness = compare(g, out, tol).passed;
                EXPECT_EQ(harness, bundle_verdict(g, out, tol))
                    << tol.name() << (tol.nan_equal ? " nan_equal" : "") << " type code " << int(t.code) << " bits "
                    << int(t.bits) << " output[1] " << o[1];
                checked++;
                passed += harness;
            }
        }
    }
    EXPECT_GT(passed, 0u);  // both verdicts occur
    EXPECT_LT(passed, checked);
}

TEST(VerdictCore, NanInfinityAndSignedZeroGiveTheSameVerdict) {
    const std::vector<double> golden{0.0, kNan, kInf, -kInf, 1, 2};
    for (const halide_type_t t : {halide_type_t(halide_type_float, 16), halide_type_t(halide_type_bfloat, 16),
                                  halide_type_t(halide_type_float, 32), halide_type_t(halide_type_float, 64)}) {
        const Array g = filled(t, golden);
        for (const std::vector<double> &o : {std::vector<double>{-0.0, kNan, kInf, -kInf, 1, 2},
                                             {0.0, 1.0, kInf, -kInf, 1, 2},
                                             {0.0, kNan, 1e4, -kInf, 1, 2},
                                             {0.0, kNan, kInf, -kInf, kNan, 2},
                                             {0.0, kNan, -kInf, kInf, 1, 2}}) {
            const Array out = filled(t, o);
            for (const Tolerance &tol : every_kind())
                EXPECT_EQ(compare(g, out, tol).passed, bundle_verdict(g, out, tol))
                    << tol.name() << " " << tol.nan_equal;
        }
    }
}

TEST(VerdictCore, CaseTxtWordsRoundTrip) {
    for (const Tolerance &tol : every_kind()) {
        const std::string words = core::rule_words(tol.to_rule());
        std::istringstream in(words);
        EXPECT_EQ(core::rule_words(core::parse_rule_words(in)), words);
    }
    std::istringstream bad("nearly 3");
    EXPECT_THROW(core::parse_rule_words(bad), core::FormatError);
}

// The .npy bytes the harness writes are what the core (and so a bundle) reads back.
TEST(VerdictCore, NpyIsOneFormat) {
    const Array a = filled(halide_type_t(halide_type_bfloat, 16), {1, 2, 3});
    const std::string bytes = npy_encode(a);
    const core::NpyHeader h = core::parse_npy_header(bytes);
    const core::ElemType t = core::npy_type(h.descr);
    EXPECT_EQ(t.code, core::BFloat);
    EXPECT_EQ(h.c_shape, std::vector<uint64_t>{3});
    EXPECT_EQ(bytes.substr(h.data_offset), std::string(reinterpret_cast<const char *>(a.bytes.data()), 6));
}

// The bundle's main.cpp is the core's text followed by repro_main.cpp's (harness/CMakeLists.txt).
TEST(VerdictCore, TheBundleMainIsTheCoresText) {
    const std::string main_cpp = repro_main_source();
    for (const char *part : {"harness/include/harness/verdict_core.h", "harness/src/values/npy_core.cpp",
                             "harness/src/values/verdict_core.cpp", "harness/repro/repro_main.cpp"})
        EXPECT_NE(main_cpp.find(std::string("// ---- ") + part), std::string::npos) << part;
    EXPECT_EQ(main_cpp.find("#include \"harness/verdict_core.h\""), std::string::npos);
    EXPECT_NE(main_cpp.find("Judgement judge("), std::string::npos);
}

}  // namespace
}  // namespace harness
