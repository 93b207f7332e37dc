// --shard i/n (shard.h): parsing, FNV-1a and jump consistent hashing of test names.
#include "matrix/shard.h"

#include <cstdlib>

#include "base/error.h"

namespace harness {

Shard parse_shard(const std::string &spec) {
    const auto bad = [&](const std::string &why) {
        return Error("--shard '" + spec + "': " + why + "; expected i/n with 1 <= i <= n, e.g. --shard 2/4");
    };
    const size_t slash = spec.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == spec.size()) throw bad("not of the form i/n");
    const std::string a = spec.substr(0, slash), b = spec.substr(slash + 1);
    for (const std::string *part : {&a, &b}) {
        if (part->size() > 9 || part->find_first_not_of("0123456789") != std::string::npos)
            throw bad("i and n must be whole numbers");
    }
    Shard s;
    s.index = std::atoi(a.c_str());
    s.count = std::atoi(b.c_str());
    if (s.count < 1 || s.count > 10000) throw bad("n must be between 1 and 10000");
    if (s.index < 1 || s.index > s.count) throw bad("i must be between 1 and n");
    return s;
}

uint64_t fnv1a64(const std::string &s) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

int jump_consistent_hash(uint64_t key, int buckets) {
    int64_t b = -1, j = 0;
    while (j < buckets) {
        b = j;
        key = key * 2862933555777941757ULL + 1;
        j = static_cast<int64_t>(static_cast<double>(b + 1) *
                                 (static_cast<double>(1LL << 31) / static_cast<double>((key >> 33) + 1)));
    }
    return static_cast<int>(b);
}

int shard_of(const std::string &test_name, int count) {
    return jump_consistent_hash(fnv1a64(test_name), count) + 1;
}

}  // namespace harness
