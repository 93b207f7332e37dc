// Unit tests for compare.h: every tolerance kind, NaN/Inf/zero/denormal rules, integer types,
// shape and type mismatches, mismatch coordinates, messages and JSON.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness/array.h"
#include "harness/compare.h"
#include "base/error.h"
#include "values/default_tolerance.h"
#include "values/float16.h"

namespace harness {
namespace {

const float kNanF = std::numeric_limits<float>::quiet_NaN();
const float kInfF = std::numeric_limits<float>::infinity();

template<typename T>
Array make(const char *dtype, const std::vector<T> &values, std::vector<int> shape = {}) {
    if (shape.empty()) shape = {int(values.size())};
    Array a(dtype_from_name(dtype), shape);
    for (size_t i = 0; i < values.size(); i++)
        a.data<T>()[i] = values[i];
    return a;
}

Array f32(const std::vector<float> &v, std::vector<int> shape = {}) {
    return make<float>("float32", v, shape);
}
Array f64(const std::vector<double> &v) {
    return make<double>("float64", v);
}
Array u8(const std::vector<uint8_t> &v) {
    return make<uint8_t>("uint8", v);
}

bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

TEST(Compare, ExactPassAndFail) {
    const CompareResult same = compare(u8({1, 5, 9, 200}), u8({1, 5, 9, 200}), Tolerance::exact());
    EXPECT_TRUE(same.passed);
    EXPECT_EQ(same.message, "all 4 elements within Exact (max abs error 0)");
    EXPECT_EQ(same.count, 4u);
    EXPECT_TRUE(std::isinf(same.psnr_db) && same.psnr_db > 0);
    EXPECT_TRUE(same.first_mismatch.empty());

    const CompareResult diff = compare(u8({1, 5, 9, 200}), u8({1, 6, 9, 200}), Tolerance::exact());
    EXPECT_FALSE(diff.passed);
    EXPECT_EQ(diff.mismatches, 1u);
    EXPECT_EQ(diff.mismatch_fraction, 0.25);
    EXPECT_EQ(diff.max_abs_error, 1.0);
    EXPECT_EQ(diff.message, "1 of 4 elements (25%) outside Exact; worst at (1): expected 5, got 6");
}

TEST(Compare, AbsolutePassAndFail) {
    const Array e = f32({0.5f, 1.0f, 2.0f}), a = f32({0.5f, 1.25f, 2.0f});
    const CompareResult ok = compare(e, a, Tolerance::absolute(0.25));
    EXPECT_TRUE(ok.passed) << ok.message;
    EXPECT_EQ(ok.max_abs_error, 0.25);
    EXPECT_EQ(ok.max_rel_error, 0.25);
    const CompareResult bad = compare(e, a, Tolerance::absolute(0.2));
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.message, "1 of 3 elements (33.33%) outside Absolute{atol=0.2}; worst at (1): expected 1, got 1.25");
}

TEST(Compare, AbsRelPassAndFail) {
    const Array e = f64({100.0, 1.0, 0.0}), a = f64({101.0, 1.001, 0.005});
    EXPECT_TRUE(compare(e, a, Tolerance::abs_rel(0.01, 0.01)).passed);
    const CompareResult bad = compare(e, a, Tolerance::abs_rel(0.01, 0.001));
    EXPECT_FALSE(bad.passed);
    EXPECT_EQ(bad.mismatches, 1u);
    EXPECT_EQ(bad.worst_mismatch, std::vector<int>{0});
    EXPECT_NEAR(bad.max_rel_error, 0.01, 1e-12);  // the 0 golden is skipped for relative error
    EXPECT_NEAR(bad.max_abs_error, 1.0, 1e-12);
}

TEST(Compare, MessageFormat) {
    Array e(dtype_from_name("float32"), {64, 48}), a(dtype_from_name("float32"), {64, 48});
    for (size_t i = 0; i < e.elements(); i++)
        e.data<float>()[i] = a.data<float>()[i] = 0.25f;
    for (int k = 0; k < 11; k++)
        a.data<float>()[100 + k] = 0.26f;
    e.data<float>()[3 + 7 * 64] = 0.5f;
    a.data<float>()[3 + 7 * 64] = 0.52f;
    const CompareResult r = compare(e, a, Tolerance::abs_rel(0.001, 0.0001));
    EXPECT_EQ(
        r.message,
        "12 of 3072 elements (0.39%) outside AbsRel{atol=0.001, rtol=0.0001}; worst at (3,7): expected 0.5, got 0.52");
    EXPECT_EQ(r.first_mismatch, (std::vector<int>{36, 1}));
}

TEST(Compare, UlpPassAndFail) {
    const float one = 1.0f, two_up = std::nextafter(std::nextafter(one, 2.0f), 2.0f);
    const CompareResult r = compare(f32({one, 3.0f}), f32({two_up, 3.0f}), Tolerance::ulps(2));
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_EQ(r.max_ulp_error, 2.0);
    EXPECT_FALSE(compare(f32({one}), f32({two_up}), Tolerance::ulps(1)).passed);

    const double d = 1.0, d_up = std::nextafter(d, 2.0);
    EXPECT_TRUE(compare(f64({d}), f64({d_up}), Tolerance::ulps(1)).passed);
    EXPECT_FALSE(compare(f64({d}), f64({d_up}), Tolerance::ulps(0)).passed);
    // Across zero: -denorm to +denorm is two steps.
    const float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(compare(f32({-tiny}), f32({tiny}), Tolerance::exact()).max_ulp_error, 2.0);
}

TEST(Compare, UlpDistance) {
    EXPECT_EQ(ulp_distance(0.0, -0.0, 32), 0.0);
    EXPECT_EQ(ulp_distance(-0.0, 0.0, 64), 0.0);
    EXPECT_EQ(ulp_distance(std::numeric_limits<float>::denorm_min(), 0.0, 32), 1.0);
    EXPECT_EQ(ulp_distance(0.0, -double(std::numeric_limits<float>::denorm_min()), 32), 1.0);
    EXPECT_EQ(ulp_distance(std::numeric_limits<double>::denorm_min(), 0.0, 64), 1.0);
    EXPECT_EQ(ulp_distance(1.0, std::nextafter(1.0, 0.0), 64), 1.0);
    EXPECT_EQ(ulp_distance(1.0, 1.0 + 0x1p-23, 32), 1.0);
    EXPECT_EQ(ulp_distance(-1.0, -1.0 - 0x1p-22, 32), 2.0);
    EXPECT_EQ(ulp_distance(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), 64),
              2.0 * double(0x7fefffffffffffffull));
    EXPECT_EQ(ulp_distance(1.0, 1.0 + 0x1p-10, 16), 1.0);  // IEEE half: 10 mantissa bits
    EXPECT_EQ(ulp_distance(0.0, -0x1p-24, 16), 1.0);
    EXPECT_THROW(ulp_distance(1, 2, 8), Error);
}

Array f16(const std::vector<double> &v) {
    Array a(dtype_from_name("float16"), {int(v.size())});
    for (size_t i = 0; i < v.size(); i++)
        a.data<float16>()[i] = float16(v[i]);
    return a;
}
Array bf16(const std::vector<double> &v) {
    Array a(dtype_from_name("bfloat16"), {int(v.size())});
    for (size_t i = 0; i < v.size(); i++)
        a.data<bfloat16>()[i] = bfloat16(v[i]);
    return a;
}

TEST(Compare, SixteenBitFloatsUnderTheirDefaultTolerances) {
    const halide_type_t half = dtype_from_name("float16"), brain = dtype_from_name("bfloat16");
    std::string why;
    const Tolerance th = default_tolerance(half, &why);
    EXPECT_EQ(th.name(), "AbsRel{atol=0.001, rtol=0.01, nan_equal}");
    EXPECT_NE(why.find("float16"), std::string::npos) << why;
    const Tolerance tb = default_tolerance(brain, &why);
    EXPECT_EQ(tb.name(), "AbsRel{atol=0.01, rtol=0.05, nan_equal}");
    EXPECT_NE(why.find("bfloat16"), std::string::npos) << why;
    // float16: one ULP at 1 (2^-10) passes, 0.05 at 1 does not; the message reads the halves.
    CompareResult r = compare(f16({1.0, 2.0, -0.5}), f16({1.0 + 0x1p-10, 2.0, -0.5}), th);
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_EQ(r.max_ulp_error, 1.0);
    EXPECT_EQ(measured_error(r, half), "max abs error 0.000977, max rel error 0.000977, max ULP 1");
    r = compare(f16({1.0, 2.0}), f16({1.05, 2.0}), th);
    EXPECT_FALSE(r.passed);
    EXPECT_TRUE(contains(r.message, "worst at (0): expected 1, got 1.0498046875")) << r.message;
    // bfloat16: 0.1 and its neighbour (one ULP = 2^-11 there) pass; 1 vs 1.25 does not.
    r = compare(bf16({0.1, 1.0}), bf16({0.1 + 0x1p-11, 1.0}), tb);
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_EQ(r.max_ulp_error, 1.0);
    EXPECT_FALSE(compare(bf16({1.0}), bf16({1.25}), tb).passed);
    EXPECT_TRUE(compare(bf16({1.0}), bf16({1.0 + 0x1p-7}), Tolerance::ulps(1)).passed);
    EXPECT_FALSE(compare(bf16({1.0}), bf16({1.0 + 0x1p-6}), Tolerance::ulps(1)).passed);
    // The same bits as float16 and bfloat16 are different types.
    EXPECT_TRUE(
        contains(compare(f16({1.0}), bf16({1.0}), th).message, "type mismatch: golden float16, output bfloat16"));
}

TEST(Compare, DenormalsUnderUlp) {
    const float tiny = std::numeric_limits<float>::denorm_min();
    const CompareResult r = compare(f32({0.0f}), f32({tiny}), Tolerance::ulps(1));
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.max_ulp_error, 1.0);
    EXPECT_FALSE(compare(f32({0.0f}), f32({tiny}), Tolerance::exact()).passed);
}

TEST(Compare, SignedZerosAreEqual) {
    const CompareResult r = compare(f32({0.0f, -0.0f}), f32({-0.0f, 0.0f}), Tolerance::exact());
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_EQ(r.max_ulp_error, 0.0);
    EXPECT_TRUE(compare(f64({0.0}), f64({-0.0}), Tolerance::ulps(0)).passed);
}

TEST(Compare, NanVersusNumberFails) {
    for (const Tolerance &t :
         {Tolerance::exact(), Tolerance::absolute(1e30), Tolerance::abs_rel(1, 1), Tolerance::ulps(1000),
          Tolerance::mismatch_fraction(Tolerance::absolute(1), 0.9), Tolerance::psnr(-1000)}) {
        const CompareResult out_nan = compare(f32({1, 2, 3}), f32({1, kNanF, 3}), t);
        EXPECT_FALSE(out_nan.passed) << t.name();
        EXPECT_EQ(out_nan.nan_mismatches, 1u) << t.name();
        EXPECT_TRUE(contains(out_nan.message, "NaN")) << out_nan.message;
        EXPECT_TRUE(std::isnan(out_nan.first_actual));
        Tolerance lenient = t;
        lenient.nan_equal = true;
        EXPECT_FALSE(compare(f32({1, 2, 3}), f32({1, kNanF, 3}), lenient).passed) << t.name();
    }
    const CompareResult golden_nan = compare(f32({kNanF}), f32({1}), Tolerance::absolute(1e30));
    EXPECT_FALSE(golden_nan.passed);
    EXPECT_EQ(golden_nan.nan_mismatches, 1u);
}

TEST(Compare, NanVersusNan) {
    const Array e = f32({kNanF, 1}), a = f32({kNanF, 1});
    const CompareResult strict = compare(e, a, Tolerance::exact());
    EXPECT_FALSE(strict.passed);
    EXPECT_EQ(strict.nan_mismatches, 1u);
    Tolerance lenient = Tolerance::exact();
    lenient.nan_equal = true;
    EXPECT_EQ(lenient.name(), "Exact{nan_equal}");
    const CompareResult ok = compare(e, a, lenient);
    EXPECT_TRUE(ok.passed) << ok.message;
    EXPECT_EQ(ok.nan_mismatches, 0u);
    Tolerance abs = Tolerance::absolute(0.5);
    EXPECT_FALSE(compare(e, a, abs).passed);
    abs.nan_equal = true;
    EXPECT_TRUE(compare(e, a, abs).passed);
}

TEST(Compare, Infinities) {
    const Tolerance wide = Tolerance::absolute(1e300);
    EXPECT_TRUE(compare(f32({kInfF, -kInfF}), f32({kInfF, -kInfF}), Tolerance::exact()).passed);
    EXPECT_TRUE(compare(f32({kInfF}), f32({kInfF}), wide).passed);
    EXPECT_FALSE(compare(f32({kInfF}), f32({-kInfF}), wide).passed);
    const CompareResult big = compare(f32({kInfF}), f32({3e38f}), wide);
    EXPECT_FALSE(big.passed);
    EXPECT_TRUE(std::isinf(big.max_abs_error));
    EXPECT_EQ(big.to_json()["max_abs_error"], "inf");
    EXPECT_FALSE(compare(f32({3e38f}), f32({kInfF}), Tolerance::abs_rel(1e300, 1)).passed);
    EXPECT_FALSE(compare(f64({1e308}), f64({std::numeric_limits<double>::infinity()}), Tolerance::ulps(100)).passed);
}

TEST(Compare, IntegerTypes) {
    const int64_t big = int64_t(1) << 60;  // beyond double precision: the comparison must be exact
    EXPECT_FALSE(compare(make<int64_t>("int64", {big}), make<int64_t>("int64", {big + 1}), Tolerance::exact()).passed);
    const uint64_t top = std::numeric_limits<uint64_t>::max();
    const CompareResult u64 =
        compare(make<uint64_t>("uint64", {top}), make<uint64_t>("uint64", {top - 3}), Tolerance::absolute(2));
    EXPECT_FALSE(u64.passed);
    EXPECT_EQ(u64.max_abs_error, 3.0);
    EXPECT_TRUE(contains(u64.message, "expected 18446744073709551615, got 18446744073709551612")) << u64.message;
    const CompareResult i8 = compare(make<int8_t>("int8", {-128}), make<int8_t>("int8", {127}), Tolerance::exact());
    EXPECT_EQ(i8.max_abs_error, 255.0);
    EXPECT_TRUE(
        compare(make<int16_t>("int16", {-300, 7}), make<int16_t>("int16", {-301, 8}), Tolerance::absolute(1)).passed);
    EXPECT_TRUE(compare(make<uint32_t>("uint32", {10}), make<uint32_t>("uint32", {12}), Tolerance::ulps(2)).passed);
    EXPECT_FALSE(compare(make<uint32_t>("uint32", {10}), make<uint32_t>("uint32", {12}), Tolerance::ulps(1)).passed);
    EXPECT_EQ(compare(make<int32_t>("int32", {-5}), make<int32_t>("int32", {5}), Tolerance::exact()).max_ulp_error,
              0.0);
}

TEST(Compare, ShapeAndTypeMismatch) {
    const Array a(dtype_from_name("uint8"), {64, 48, 3}), b(dtype_from_name("uint8"), {64, 48});
    const CompareResult shape = compare(a, b, Tolerance::exact());
    EXPECT_FALSE(shape.passed);
    EXPECT_EQ(shape.message, "shape mismatch: golden 64x48x3, output 64x48");
    const Array c(dtype_from_name("float32"), {64, 48, 3});
    const CompareResult type = compare(a, c, Tolerance::absolute(1));
    EXPECT_FALSE(type.passed);
    EXPECT_EQ(type.message, "type mismatch: golden uint8, output float32");
}

TEST(Compare, FirstAndWorstCoordinates) {
    std::vector<float> e(12, 1.0f), a(12, 1.0f);
    a[5] = 1.5f;   // (1,1)
    a[10] = 3.0f;  // (2,2), the worst
    a[11] = 2.0f;  // (3,2)
    const CompareResult r = compare(f32(e, {4, 3}), f32(a, {4, 3}), Tolerance::absolute(0.1));
    EXPECT_EQ(r.mismatches, 3u);
    EXPECT_EQ(r.first_mismatch, (std::vector<int>{1, 1}));
    EXPECT_EQ(r.first_expected, 1.0);
    EXPECT_EQ(r.first_actual, 1.5);
    EXPECT_EQ(r.worst_mismatch, (std::vector<int>{2, 2}));
    EXPECT_EQ(r.worst_actual, 3.0);
    EXPECT_EQ(r.max_abs_error, 2.0);
    EXPECT_TRUE(contains(r.message, "worst at (2,2): expected 1, got 3")) << r.message;
    const nlohmann::json j = r.to_json();
    EXPECT_EQ(j["first_mismatch"], nlohmann::json::array({1, 1}));
    EXPECT_EQ(j["worst_mismatch"], nlohmann::json::array({2, 2}));
    EXPECT_EQ(j["mismatches"], 3);
}

TEST(Compare, MismatchFractionAroundTheLimit) {
    const Tolerance t = Tolerance::mismatch_fraction(Tolerance::absolute(0.1), 0.05);
    EXPECT_EQ(t.name(), "MismatchFraction{inner=Absolute{atol=0.1}, max_fraction=0.05}");
    auto run = [&](int bad) {
        std::vector<float> e(100, 0.0f), a(100, 0.0f);
        for (int i = 0; i < bad; i++)
            a[size_t(i * 7)] = 1.0f;
        return compare(f32(e), f32(a), t);
    };
    const CompareResult under = run(4), at = run(5), over = run(6);
    EXPECT_TRUE(under.passed) << under.message;
    EXPECT_TRUE(at.passed) << at.message;
    EXPECT_EQ(at.message, "5 of 100 elements (5%) outside Absolute{atol=0.1}, within " + t.name());
    EXPECT_FALSE(over.passed);
    EXPECT_EQ(over.mismatches, 6u);
    EXPECT_EQ(over.message, "6 of 100 elements (6%) outside Absolute{atol=0.1}, more than the 5% allowed by " +
                                t.name() + "; worst at (0): expected 0, got 1");
}

TEST(Compare, PsnrMatchesHandComputation) {
    // One error of 10 in four uint8 elements: MSE = 100 / 4 = 25, PSNR = 10 log10(255^2 / 25) = 34.1514 dB.
    const Array e = u8({10, 20, 30, 40}), a = u8({10, 20, 30, 50});
    const CompareResult r = compare(e, a, Tolerance::psnr(34));
    EXPECT_NEAR(r.psnr_db, 34.15140352195873, 1e-9);
    EXPECT_TRUE(r.passed) << r.message;
    EXPECT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.message, "PSNR 34.15 dB >= 34 dB (Psnr{min_db=34}); 1 of 4 elements differ");
    const CompareResult bad = compare(e, a, Tolerance::psnr(35));
    EXPECT_FALSE(bad.passed);
    EXPECT_TRUE(contains(bad.message, "PSNR 34.15 dB below 35 dB")) << bad.message;
    // Floats use peak 1.0: MSE = 0.01 / 2 = 0.005, PSNR = 10 log10(200) = 23.0103 dB.
    EXPECT_NEAR(compare(f64({0.0, 0.5}), f64({0.1, 0.5}), Tolerance::psnr(20)).psnr_db, 23.010299956639813, 1e-9);
    const CompareResult same = compare(e, e, Tolerance::psnr(100));
    EXPECT_TRUE(same.passed);
    EXPECT_EQ(same.to_json()["psnr_db"], "inf");
}

TEST(Compare, ToleranceNamesAndJson) {
    EXPECT_EQ(Tolerance::exact().name(), "Exact");
    EXPECT_EQ(Tolerance::absolute(1).name(), "Absolute{atol=1}");
    EXPECT_EQ(Tolerance::abs_rel(0.001, 0.0001).name(), "AbsRel{atol=0.001, rtol=0.0001}");
    EXPECT_EQ(Tolerance::ulps(4).name(), "Ulp{n=4}");
    EXPECT_EQ(Tolerance::psnr(40).name(), "Psnr{min_db=40}");
    EXPECT_EQ(Tolerance::absolute(1500).name(), "Absolute{atol=1500}");
    EXPECT_EQ(Tolerance::absolute(1e20).name(), "Absolute{atol=1e+20}");
    EXPECT_EQ(Tolerance::absolute(0.1).name(), "Absolute{atol=0.1}");
    const nlohmann::json j = Tolerance::mismatch_fraction(Tolerance::abs_rel(1e-5, 0.5), 0.01).to_json();
    EXPECT_EQ(j["kind"], "MismatchFraction");
    EXPECT_EQ(j["name"], "MismatchFraction{inner=AbsRel{atol=1e-05, rtol=0.5}, max_fraction=0.01}");
    EXPECT_EQ(j["max_fraction"], 0.01);
    EXPECT_EQ(j["inner"]["kind"], "AbsRel");
    EXPECT_EQ(j["inner"]["atol"], 1e-5);
    EXPECT_EQ(j["inner"]["rtol"], 0.5);
    EXPECT_EQ(Tolerance::ulps(3).to_json()["ulp"], 3);
    EXPECT_EQ(Tolerance::psnr(40).to_json()["min_db"], 40.0);
    const nlohmann::json r = compare(u8({1}), u8({1}), Tolerance::exact()).to_json();
    EXPECT_EQ(r["passed"], true);
    EXPECT_EQ(r["count"], 1);
    EXPECT_FALSE(r.contains("first_mismatch"));
}

TEST(Compare, InvalidTolerancesThrow) {
    EXPECT_THROW(Tolerance::absolute(-1), Error);
    EXPECT_THROW(Tolerance::abs_rel(0, std::nan("")), Error);
    EXPECT_THROW(Tolerance::ulps(-1), Error);
    EXPECT_THROW(Tolerance::mismatch_fraction(Tolerance::exact(), 1.5), Error);
    EXPECT_THROW(Tolerance::mismatch_fraction(Tolerance::psnr(30), 0.1), Error);
}

TEST(Compare, EmptyArraysPass) {
    const Array e(dtype_from_name("float32"), {0, 5});
    const CompareResult r = compare(e, e, Tolerance::abs_rel(0, 0));
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.count, 0u);
}

TEST(Compare, MismatchesOnlyAtTheEdgePointAtTheBoundaryCondition) {
    Array golden(dtype_from_name("uint8"), {16, 12});
    Array edge = golden, interior = golden;
    edge.data<uint8_t>()[0] = 9;               // (0,0)
    edge.data<uint8_t>()[16 * 5 + 14] = 9;     // (14,5): one element in from the right edge
    interior.data<uint8_t>()[16 * 6 + 8] = 9;  // (8,6)
    const CompareResult e = compare(golden, edge, Tolerance::exact());
    EXPECT_FALSE(e.passed);
    EXPECT_EQ(e.max_edge_distance, 1);
    EXPECT_TRUE(contains(e.message, "every mismatch lies within 2 element(s) of the image edge")) << e.message;
    EXPECT_EQ(e.to_json()["max_edge_distance"], 1);
    const CompareResult in = compare(golden, interior, Tolerance::exact());
    EXPECT_EQ(in.max_edge_distance, 5);
    EXPECT_FALSE(contains(in.message, "image edge")) << in.message;
    // 1-D arrays are not images: no edge note.
    const CompareResult line = compare(u8({1, 2, 3}), u8({9, 2, 3}), Tolerance::exact());
    EXPECT_EQ(line.max_edge_distance, -1);
    EXPECT_FALSE(contains(line.message, "image edge"));
}

}  // namespace
}  // namespace harness
