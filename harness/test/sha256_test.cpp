// Unit tests for sha256.h: the FIPS 180-4 / NIST example digests and padding boundaries.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "base/sha256.h"

namespace harness {
namespace {

// Bytes 0, 1, 2, ... (mod 256) of length n.
std::string counting(size_t n) {
    std::string s;
    for (size_t i = 0; i < n; i++)
        s += char(i % 256);
    return s;
}

TEST(Sha256, EmptyString) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, Nist448BitMessage) {
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, Nist896BitMessage) {
    EXPECT_EQ(
        sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopq"
                   "rsmnopqrstnopqrstu"),
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, OneMillionA) {
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the one-block/two-block padding boundary (reference digests from Python's hashlib).
TEST(Sha256, PaddingBoundaries) {
    EXPECT_EQ(sha256_hex(counting(55)), "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59");
    EXPECT_EQ(sha256_hex(counting(56)), "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562");
    EXPECT_EQ(sha256_hex(counting(63)), "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488");
    EXPECT_EQ(sha256_hex(counting(64)), "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108");
    EXPECT_EQ(sha256_hex(counting(65)), "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781");
    EXPECT_EQ(sha256_hex(counting(119)), "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6");
    EXPECT_EQ(sha256_hex(counting(120)), "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c");
}

// The known digests above hold for whichever path sha256_hex takes here; this holds the two paths to each
// other on every length up to four blocks and on a 1920x1080 f32 image's bytes (pseudo-random).
TEST(Sha256, CpuExtensionsMatchPortableRounds) {
    if (!sha256_uses_cpu_extensions()) GTEST_SKIP() << "this CPU has no SHA extensions: one path only";
    std::string s;
    uint32_t x = 12345;
    for (size_t n = 0; n <= 256; n++) {
        ASSERT_EQ(sha256_hex(s), sha256_hex_portable(s)) << "length " << n;
        x = x * 1664525u + 1013904223u;
        s += char(x >> 24);
    }
    s.resize(1920 * 1080 * 4);
    for (char &c : s) {
        x = x * 1664525u + 1013904223u;
        c = char(x >> 24);
    }
    EXPECT_EQ(sha256_hex(s), sha256_hex_portable(s));
}

}  // namespace
}  // namespace harness
