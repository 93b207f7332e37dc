// Unit tests of --shard (matrix/shard.h): hash test vectors, disjoint and stable shards, balance.
#include "matrix/shard.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "error_of.h"

namespace harness {
namespace {

// A matrix shaped like the suite's (pipeline/profile/case), larger.
std::vector<std::string> names(int pipelines, int first = 0) {
    std::vector<std::string> out;
    for (int p = first; p < first + pipelines; p++) {
        for (const char *prof : {"cpu", "host", "opencl-mali", "opencl", "cuda"}) {
            for (const char *c : {"small", "odd", "large"})
                out.push_back("pipe" + std::to_string(p) + "/" + prof + "/" + c);
        }
    }
    return out;
}

TEST(Shard, Fnv1aMatchesThePublishedTestVectors) {
    // From the FNV reference (isthe.com/chongo/tech/comp/fnv), 64-bit FNV-1a.
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(Shard, JumpHashStaysInRangeAndOneBucketIsZero) {
    for (uint64_t k = 0; k < 2000; k++) {
        EXPECT_EQ(jump_consistent_hash(k * 0x9e3779b97f4a7c15ULL, 1), 0);
        const int b = jump_consistent_hash(k * 0x9e3779b97f4a7c15ULL, 7);
        EXPECT_GE(b, 0);
        EXPECT_LT(b, 7);
    }
}

TEST(Shard, ShardsAreDisjointAndCoverTheMatrix) {
    const auto all = names(40);
    for (int n = 1; n <= 16; n++) {
        std::map<std::string, int> owners;
        for (int i = 1; i <= n; i++) {
            for (const auto &t : all) {
                if (in_shard(t, Shard{i, n})) owners[t]++;
            }
        }
        EXPECT_EQ(owners.size(), all.size()) << n << " shards miss a test";
        for (const auto &[t, k] : owners)
            EXPECT_EQ(k, 1) << t << " is in " << k << " of " << n << " shards";
    }
}

TEST(Shard, AddingTestsMovesNoExistingTest) {
    const auto before = names(40), added = names(15, 40);
    for (int n : {2, 3, 8}) {
        std::map<std::string, int> was;
        for (const auto &t : before)
            was[t] = shard_of(t, n);
        std::vector<std::string> after = before;
        after.insert(after.begin() + 17, added.begin(), added.end());  // order does not matter either
        for (const auto &t : after) {
            if (was.count(t)) EXPECT_EQ(shard_of(t, n), was[t]) << t;
        }
    }
}

TEST(Shard, GoingFromEightToNineShardsMovesAboutANinth) {
    const auto all = names(200);
    int moved = 0;
    for (const auto &t : all)
        moved += shard_of(t, 8) != shard_of(t, 9);
    EXPECT_LT(moved, static_cast<int>(all.size()) * 2 / 9) << moved << " of " << all.size();
    EXPECT_GT(moved, 0);
}

TEST(Shard, ShardsAreRoughlyBalanced) {
    const auto all = names(200);  // 3000 tests
    std::map<int, int> size;
    for (const auto &t : all)
        size[shard_of(t, 8)]++;
    ASSERT_EQ(size.size(), 8u);
    for (const auto &[i, k] : size) {
        EXPECT_GT(k, 375 * 80 / 100) << "shard " << i;
        EXPECT_LT(k, 375 * 120 / 100) << "shard " << i;
    }
}

TEST(Shard, ParseAcceptsIOfNAndRejectsTheRest) {
    const Shard s = parse_shard("3/8");
    EXPECT_EQ(s.index, 3);
    EXPECT_EQ(s.count, 8);
    for (const char *bad : {"", "3", "/8", "3/", "0/8", "9/8", "-1/8", "a/b", "3/0", "1/100000", "3/8/2", " 3/8"}) {
        const std::string msg = error_of([&] { parse_shard(bad); });
        EXPECT_NE(msg.find("--shard"), std::string::npos) << bad;
        EXPECT_NE(msg.find("e.g. --shard 2/4"), std::string::npos) << bad << ": " << msg;
    }
}

}  // namespace
}  // namespace harness
