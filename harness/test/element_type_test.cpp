// The element type table and its dispatch (element_type.h) agree row for row, and every reader of
// element types (dtype names, .npy descrs, Array::value) follows the table.
#include "values/element_type.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <type_traits>

#include "error_of.h"
#include "harness/array.h"
#include "values/npy.h"

namespace harness {
namespace {

TEST(ElementType, DispatchMatchesEveryRowOfTheTable) {
    ASSERT_EQ(element_types().size(), 13u);
    for (const auto &e : element_types()) {
        const halide_type_t t = e.type;
        dispatch_element_type(t, [&](auto tag) {
            using T = typename decltype(tag)::type;
            constexpr bool is_bool = std::is_same_v<T, bool>, is_float = is_float_element_v<T>;
            constexpr bool is_signed_int = std::is_signed_v<T> && !is_float;
            EXPECT_EQ(is_bool ? 1 : int(sizeof(T) * 8), int(t.bits)) << e.name;
            EXPECT_EQ(is_float, t.code == halide_type_float || t.code == halide_type_bfloat) << e.name;
            EXPECT_EQ(is_signed_int, t.code == halide_type_int) << e.name;
        });
        EXPECT_EQ(dtype_name(t), e.name);
        EXPECT_EQ(describe_type(t), e.name);
        EXPECT_EQ(find_element_type(std::string(e.name)), &e);
        // Array::value reads through the same dispatch: a 1 stored as T reads back as 1.0.
        Array a(t, {1});
        dispatch_element_type(t, [&](auto tag) {
            const auto one = static_cast<typename decltype(tag)::type>(1);
            std::memcpy(a.bytes.data(), &one, sizeof one);
        });
        EXPECT_EQ(a.value(0), 1.0) << e.name;
        const Array back = npy_decode(npy_encode(a), "x");
        EXPECT_EQ(back.type.bits, t.bits) << e.name;
        EXPECT_EQ(back.type.code, t.code) << e.name;
    }
}

TEST(ElementType, SixteenBitFloatsRoundToNearestEven) {
    EXPECT_EQ(float16(1.0).bits, 0x3c00);
    EXPECT_EQ(float16(-2.0).bits, 0xc000);
    EXPECT_EQ(float16(-0.0).bits, 0x8000);
    EXPECT_EQ(float16(65504.0).bits, 0x7bff);                     // the largest half
    EXPECT_EQ(float16(65519.99).bits, 0x7bff);                    // below the midpoint to 2^16
    EXPECT_EQ(float16(65520.0).bits, 0x7c00);                     // the midpoint rounds to even: infinity
    EXPECT_EQ(float16(1 + std::ldexp(1, -11)).bits, 0x3c00);      // a tie goes to the even mantissa
    EXPECT_EQ(float16(1 + 3 * std::ldexp(1, -11)).bits, 0x3c02);  // ... up here
    EXPECT_EQ(float16(std::ldexp(1, -24)).bits, 0x0001);          // the smallest subnormal
    EXPECT_EQ(float16(std::ldexp(1, -25)).bits, 0x0000);          // half of it: a tie, to even (zero)
    EXPECT_EQ(float16(3 * std::ldexp(1, -25)).bits, 0x0002);
    EXPECT_EQ(float16(std::ldexp(1023.5, -24)).bits, 0x0400);  // rounds up into the smallest normal
    EXPECT_EQ(float16(std::nan("")).bits & 0x7e00, 0x7e00);
    EXPECT_TRUE(std::isnan(double(float16::from_bits(0x7e00))));
    EXPECT_EQ(double(float16::from_bits(0xfc00)), -INFINITY);
    EXPECT_EQ(bfloat16(1.0).bits, 0x3f80);
    EXPECT_EQ(bfloat16(0.1).bits, 0x3dcd);  // float32 0x3dcccccd, rounded up
    EXPECT_EQ(bfloat16(-2.5).bits, 0xc020);
    EXPECT_EQ(bfloat16(std::ldexp(1, -133)).bits, 0x0001);
    EXPECT_EQ(bfloat16(3.4e38).bits, 0x7f80);  // beyond bfloat16's largest (3.39e38): infinity
    // Every non-NaN bit pattern reads as a value that converts back to the same bits.
    for (uint32_t b = 0; b < 0x10000; b++) {
        const float16 h = float16::from_bits(uint16_t(b));
        const bfloat16 g = bfloat16::from_bits(uint16_t(b));
        if (!std::isnan(double(h))) ASSERT_EQ(float16(double(h)).bits, b) << std::hex << b;
        if (!std::isnan(double(g))) ASSERT_EQ(bfloat16(double(g)).bits, b) << std::hex << b;
    }
    // bfloat16 is the top half of a float32.
    for (float f : {1.5f, -3.25f, 0x1p-100f, 0x1.02p16f}) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        EXPECT_EQ(double(bfloat16::from_bits(uint16_t(u >> 16))), double(f)) << f;
    }
}

TEST(ElementType, UnsupportedTypesAreOneErrorNamingTheList) {
    const halide_type_t vec(halide_type_int, 32, 4);
    EXPECT_EQ(error_of([&] {
                  dispatch_element_type(
                      vec, [](auto) {}, "input 'x'");
              }),
              "input 'x': unsupported element type int32x4; the harness supports " + supported_element_types());
    EXPECT_NE(supported_element_types().find("float16, bfloat16, float32"), std::string::npos);
    EXPECT_EQ(find_element_type(halide_type_t(halide_type_uint, 8, 4)), nullptr);
    EXPECT_EQ(describe_type(halide_type_t(halide_type_uint, 8, 4)), "uint8x4");
    EXPECT_EQ(supported_element_types().rfind("bool, uint8, ", 0), 0u);
}

}  // namespace
}  // namespace harness
