// The element type table and its dispatch (element_type.h) agree row for row, and every reader of
// element types (dtype names, .npy descrs, Array::value) follows the table.
#include "values/element_type.h"

#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>

#include "error_of.h"
#include "harness/array.h"
#include "values/npy.h"

namespace harness {
namespace {

TEST(ElementType, DispatchMatchesEveryRowOfTheTable) {
    ASSERT_EQ(element_types().size(), 11u);
    for (const auto &e : element_types()) {
        const halide_type_t t = e.type;
        dispatch_element_type(t, [&](auto tag) {
            using T = typename decltype(tag)::type;
            constexpr bool is_bool = std::is_same_v<T, bool>, is_float = std::is_floating_point_v<T>;
            constexpr bool is_signed_int = std::is_signed_v<T> && !is_float;
            EXPECT_EQ(is_bool ? 1 : int(sizeof(T) * 8), int(t.bits)) << e.name;
            EXPECT_EQ(is_float, t.code == halide_type_float) << e.name;
            EXPECT_EQ(is_signed_int, t.code == halide_type_int) << e.name;
        });
        EXPECT_EQ(dtype_name(t), e.name);
        EXPECT_EQ(find_element_type(std::string(e.name)), &e);
        // Array::value reads through the same dispatch: a 1 stored as T reads back as 1.0.
        Array a(t, {1});
        dispatch_element_type(t, [&](auto tag) {
            const typename decltype(tag)::type one = 1;
            std::memcpy(a.bytes.data(), &one, sizeof one);
        });
        EXPECT_EQ(a.value(0), 1.0) << e.name;
        EXPECT_EQ(npy_decode(npy_encode(a), "x").type.bits, t.bits) << e.name;
    }
}

TEST(ElementType, UnsupportedTypesAreOneErrorNamingTheList) {
    const halide_type_t f16(halide_type_float, 16, 1);
    EXPECT_EQ(error_of([&] {
                  dispatch_element_type(
                      f16, [](auto) {}, "input 'x'");
              }),
              "input 'x': unsupported element type float16; the harness supports " + supported_element_types());
    EXPECT_EQ(find_element_type(halide_type_t(halide_type_uint, 8, 4)), nullptr);
    EXPECT_EQ(describe_type(halide_type_t(halide_type_uint, 8, 4)), "uint8x4");
    EXPECT_EQ(supported_element_types().rfind("bool, uint8, ", 0), 0u);
}

}  // namespace
}  // namespace harness
