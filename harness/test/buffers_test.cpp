// Unit tests of guarded outputs and buffer modes (variant/buffers.h) and of PNG artifacts (values/images.h).
#include "variant/buffers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "base/error.h"
#include "halide_types.h"
#include "values/images.h"

namespace harness {
namespace {

TEST(GuardedArray, ViewCoversExactlyTheShapeAndFillSetsCanary) {
    GuardedArray g(kU8, {5, 3, 2}, 4);
    auto &v = g.view();
    EXPECT_EQ(v.dimensions(), 3);
    EXPECT_EQ(v.dim(0).extent(), 5);
    EXPECT_EQ(v.dim(1).extent(), 3);
    EXPECT_EQ(v.dim(2).extent(), 2);
    g.fill(0xCD);
    const Array a = g.interior();
    ASSERT_EQ(a.shape, (std::vector<int>{5, 3, 2}));
    for (uint8_t b : a.bytes)
        EXPECT_EQ(b, 0xCD);
    EXPECT_EQ(g.check_guards(), "");
}

TEST(GuardedArray, InteriorWritesAreKeptAndGuardsStayIntact) {
    GuardedArray g(kU8, {5, 3}, 4);
    g.fill(0);
    auto &v = g.view();
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 5; x++) {
            static_cast<uint8_t *>(v.data())[x * v.dim(0).stride() + y * v.dim(1).stride()] = x + 10 * y;
        }
    }
    EXPECT_EQ(g.check_guards(), "");
    const Array a = g.interior();
    EXPECT_EQ(a.bytes[7], 2 + 10 * 1);
}

TEST(GuardedArray, WritesOutsideTheShapeAreFound) {
    for (const std::vector<int> &at : {std::vector<int>{-1, 0}, {5, 2}, {0, -1}, {4, 3}}) {
        GuardedArray g(kU8, {5, 3}, 4);
        g.fill(0);
        auto &v = g.view();
        uint8_t *origin = static_cast<uint8_t *>(v.data());
        origin[at[0] * v.dim(0).stride() + at[1] * v.dim(1).stride()] = 1;
        const std::string msg = g.check_guards();
        EXPECT_NE(msg.find("1 guard byte(s) written outside the output, first at (" + std::to_string(at[0]) + "," +
                           std::to_string(at[1]) + ")"),
                  std::string::npos)
            << msg;
    }
}

// Every host buffer starts where Halide's Runtime::Buffer would put it (128 bytes), whatever its guard
// bands, odd widths, mins, element size or storage order: a generator that declares
// set_host_alignment() must not fail its own assertion here (it did when guard bands offset the interior).
TEST(GuardedArray, EveryHostPointerIsAlignedAsHalideAllocates) {
    const auto aligned = [](const void *p) { return reinterpret_cast<uintptr_t>(p) % kHostAlignment == 0; };
    for (halide_type_t t : {kU8, halide_type_t(halide_type_uint, 16), kF32}) {
        for (const std::vector<int> &shape : {std::vector<int>{67, 37, 3}, {1, 1}, {5, 3}, {834, 17}, {13}}) {
            for (int guard : {-1, 0, 3, 4, 64}) {
                GuardedArray g(t, shape, guard, std::vector<int>(shape.size(), -3));
                EXPECT_TRUE(aligned(g.view().data())) << shape_string(shape) << " guard " << guard;
                g.fill(0x11);
                EXPECT_EQ(g.check_guards(), "");
                // A write just before the interior is still caught as a guard write.
                if (guard > 0) {
                    static_cast<uint8_t *>(g.view().data())[-1] = 0;
                    EXPECT_NE(g.check_guards(), "") << shape_string(shape) << " guard " << guard;
                }
            }
            Array a(t, shape);
            EXPECT_TRUE(aligned(a.view().data())) << shape_string(shape);
            Array staged;
            strided_view(staged, t, shape, {}, shape.size() == 3 ? std::vector<int>{2, 0, 1} : std::vector<int>{});
            EXPECT_TRUE(aligned(staged.bytes.data())) << shape_string(shape);
        }
    }
}

TEST(BufferModes, NamesRoundTripAndUnavailableModesSayWhy) {
    for (BufferMode m : all_buffer_modes())
        EXPECT_EQ(buffer_mode_from_name(buffer_mode_name(m)), m);
    EXPECT_THROW(buffer_mode_from_name("zero-copy"), Error);
    EXPECT_EQ(buffer_mode_unavailable_reason(BufferMode::Host, "none"), "");
    EXPECT_NE(buffer_mode_unavailable_reason(BufferMode::Device, "none"), "");
    EXPECT_NE(buffer_mode_unavailable_reason(BufferMode::WrappedHostVisible, "cuda").find("OpenCL"), std::string::npos);
    // Vulkan: Halide-managed and device-resident run; wrapping needs a halide_vulkan_wrap_* Halide 21 lacks.
    EXPECT_EQ(buffer_mode_unavailable_reason(BufferMode::Host, "vulkan"), "");
    EXPECT_EQ(buffer_mode_unavailable_reason(BufferMode::Device, "vulkan"), "");
    for (BufferMode m : {BufferMode::WrappedHostVisible, BufferMode::WrappedDeviceOnly}) {
        const std::string why = buffer_mode_unavailable_reason(m, "vulkan");
        EXPECT_NE(why.find(std::string("mode ") + buffer_mode_name(m)), std::string::npos) << why;
        EXPECT_NE(why.find("no halide_vulkan_wrap_vk_buffer"), std::string::npos) << why;
    }
    EXPECT_EQ(cl_error_name(-30), "CL_INVALID_VALUE");
}

TEST(Images, WritesThreePngsForImagesAndNoneForOtherShapes) {
    Array g(kU8, {8, 4, 3}), o(kU8, {8, 4, 3});
    o.bytes[5] = 200;
    const std::string prefix = "/tmp/images_test_" + std::to_string(getpid());
    ASSERT_TRUE(write_comparison_pngs(g, o, prefix));
    for (const char *k : {".golden.png", ".output.png", ".diff.png"}) {
        EXPECT_EQ(access((prefix + k).c_str(), F_OK), 0) << k;
        unlink((prefix + k).c_str());
    }
    EXPECT_FALSE(write_comparison_pngs(Array(kU8, {8}), Array(kU8, {8}), prefix));
}

}  // namespace
}  // namespace harness
