#include "harness/inputs.h"

#include <gtest/gtest.h>

#include "harness/error.h"

namespace harness {
namespace {

TEST(SplitMix64, MatchesReferenceSequence) {
    // Reference values of Vigna's splitmix64.c for seed 1234567.
    SplitMix64 rng(1234567);
    EXPECT_EQ(rng.next(), 6457827717110365317ull);
    EXPECT_EQ(rng.next(), 3203168211198807973ull);
    EXPECT_EQ(rng.next(), 9817491932198370423ull);
}

TEST(SplitMix64, UniformIntStaysInRange) {
    SplitMix64 rng(7);
    bool saw_lo = false, saw_hi = false;
    for (int i = 0; i < 10000; i++) {
        const int64_t v = rng.uniform_int(-3, 3);
        ASSERT_GE(v, -3);
        ASSERT_LE(v, 3);
        saw_lo |= v == -3;
        saw_hi |= v == 3;
    }
    EXPECT_TRUE(saw_lo && saw_hi);
}

TEST(MakeInput, SameRecipeSameBytesDifferentSeedDifferentBytes) {
    BufferSpec b{"in", {halide_type_uint, 8, 1}, {17, 5, 3}, {Recipe::Kind::UniformInt, 0, 255, 42}};
    const Array a1 = make_input(b), a2 = make_input(b);
    EXPECT_EQ(a1.bytes, a2.bytes);
    EXPECT_EQ(a1.bytes.size(), 17u * 5 * 3);
    b.recipe.seed = 43;
    EXPECT_NE(make_input(b).bytes, a1.bytes);
}

TEST(MakeInput, FloatRecipeIsInHalfOpenRange) {
    BufferSpec b{"in", {halide_type_float, 32, 1}, {100}, {Recipe::Kind::UniformFloat, -1, 1, 3}};
    const Array a = make_input(b);
    for (size_t i = 0; i < a.elements(); i++) {
        EXPECT_GE(a.data<float>()[i], -1.0f);
        EXPECT_LT(a.data<float>()[i], 1.0f);
    }
}

TEST(MakeInput, RangeThatDoesNotFitTheTypeIsAnError) {
    BufferSpec b{"in", {halide_type_uint, 8, 1}, {4}, {Recipe::Kind::UniformInt, 0, 300, 1}};
    EXPECT_THROW(make_input(b), Error);
    b.recipe = {Recipe::Kind::UniformFloat, 0, 1, 1};
    EXPECT_THROW(make_input(b), Error);
}

}  // namespace
}  // namespace harness
