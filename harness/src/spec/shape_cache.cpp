// The settled-shapes cache of derived specs (shape_query.h): per process, and on disk in the shape cache
// folder a run names to its children (--shape-cache, run/child_protocol.h) or ctest names to its runs.
#include "base/files.h"
#include "base/json_reader.h"
#include "base/sha256.h"
#include "spec/shape_query.h"

#include <cstdlib>
#include <map>

namespace harness {

namespace {

std::map<std::string, nlohmann::json> &settled_memo() {
    static std::map<std::string, nlohmann::json> memo;
    return memo;
}

std::string cache_file(const std::string &dir, const std::string &key) {
    return dir + "/shapes-" + key.substr(0, 32) + ".json";
}

}  // namespace

nlohmann::json cached_in_derivation(const std::string &what, const std::function<nlohmann::json()> &compute) {
    const std::string key = sha256_hex(what);
    std::map<std::string, nlohmann::json> &memo = settled_memo();
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    const std::string dir = shape_cache_dir();
    std::string cached;
    if (!dir.empty() && read_file_if_exists(cache_file(dir, key), &cached)) {
        try {
            return memo[key] = parse_json(cached, cache_file(dir, key), "");
        } catch (const std::exception &) {
            // a damaged cache entry: compute it again
        }
    }
    memo[key] = compute();
    if (!dir.empty()) {
        try {
            write_file_atomic(cache_file(dir, key), memo[key].dump());
        } catch (const std::exception &) {
            // the cache is an optimisation only
        }
    }
    return memo[key];
}

namespace {

std::string &chosen_cache_dir() {
    static std::string dir;
    return dir;
}

}  // namespace

std::string shape_cache_dir() {
    if (!chosen_cache_dir().empty()) return chosen_cache_dir();
    const char *env = std::getenv("AOT_HARNESS_SHAPE_CACHE");
    return env ? env : "";
}

void set_shape_cache_dir(const std::string &dir) {
    chosen_cache_dir() = dir;
}

void save_settled_shapes(const std::string &dir) {
    for (const auto &[key, j] : settled_memo())
        write_file_atomic(cache_file(dir, key), j.dump());
}

}  // namespace harness
