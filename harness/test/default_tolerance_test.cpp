// The tolerances outputs get when no spec states one (values/default_tolerance.h): NaN where the golden has
// NaN is the same result under every float type's, and only there.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/compare.h"
#include "values/default_tolerance.h"
#include "values/element_type.h"
#include "values/float16.h"

using namespace harness;

namespace {

Array of_type(const std::string &t, const std::vector<double> &v) {
    Array a(dtype_from_name(t), {int(v.size())});
    for (size_t i = 0; i < v.size(); i++) {
        if (t == "float16") a.data<float16>()[i] = float16(v[i]);
        if (t == "bfloat16") a.data<bfloat16>()[i] = bfloat16(v[i]);
        if (t == "float32") a.data<float>()[i] = float(v[i]);
        if (t == "float64") a.data<double>()[i] = v[i];
    }
    return a;
}

}  // namespace

// Debian's resnet50 said "FAIL expected nan, got nan".
TEST(DefaultTolerance, NanWhereTheGoldenHasNanIsTheSameResult) {
    const double nan = std::nan("");
    for (const std::string t : {"float32", "float64", "float16", "bfloat16"}) {
        const Tolerance tol = default_tolerance(dtype_from_name(t));
        EXPECT_TRUE(tol.nan_equal) << t;
        CompareResult r = compare(of_type(t, {1.0, nan, 0.5}), of_type(t, {1.0, nan, 0.5}), tol);
        EXPECT_TRUE(r.passed) << t << ": " << r.message;
        EXPECT_FALSE(compare(of_type(t, {1.0, nan}), of_type(t, {1.0, 2.0}), tol).passed) << t;
        EXPECT_FALSE(compare(of_type(t, {1.0, 2.0}), of_type(t, {1.0, nan}), tol).passed) << t;
    }
    EXPECT_FALSE(default_tolerance(dtype_from_name("int32")).nan_equal);
}

// A float64 output computed from float32 arithmetic moves by a float32 ULP (2^29 float64 ULP) where one
// target contracts an fma (genfuzz seed 2: host against cpu): float32's tolerance without float64 inputs.
TEST(DefaultTolerance, Float64OutputsWithoutFloat64InputsGetFloat32s) {
    const halide_type_t f64 = dtype_from_name("float64");
    std::string why;
    const Tolerance narrow = default_tolerance(f64, &why, false, false);
    EXPECT_EQ(narrow.name(), default_tolerance(dtype_from_name("float32")).name());
    EXPECT_NE(why.find("without float64 inputs"), std::string::npos) << why;
    const Array golden = of_type("float64", {0.6163038015365601}), host = of_type("float64", {0.6163038611412048});
    EXPECT_TRUE(compare(golden, host, narrow).passed);
    EXPECT_FALSE(compare(golden, host, default_tolerance(f64, nullptr, true, true)).passed);
}
