// Sharding the run matrix over machines: `--shard i/n` runs the tests of shard i of n. A test's shard
// is a pure function of its name (pipeline/profile/case, the CTest name) and n: deterministic on every
// machine, and a test added to the suite never moves the others. The shards of one n are disjoint and
// together are the whole matrix.
#pragma once
#include <cstdint>
#include <string>

namespace harness {

struct Shard {
    int index = 1;  // 1..count
    int count = 1;

    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }  // "i/n"
};

// Parses "i/n" (1 <= i <= n <= 10000); throws Error naming the problem and the expected form.
Shard parse_shard(const std::string &spec);

// FNV-1a 64-bit hash of the bytes of `s`.
uint64_t fnv1a64(const std::string &s);

// Jump consistent hash (Lamping & Veach 2014): a bucket in [0, buckets) for `key`. Going from n to n+1
// buckets moves only about 1/(n+1) of the keys.
int jump_consistent_hash(uint64_t key, int buckets);

// 1-based shard of `test_name` among `count` shards.
int shard_of(const std::string &test_name, int count);

inline bool in_shard(const std::string &test_name, const Shard &s) {
    return shard_of(test_name, s.count) == s.index;
}

}  // namespace harness
