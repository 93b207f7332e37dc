// The cl_kernel cache of the OpenCL interposer (opencl_kernel_cache.h): one entry per kernel object, keyed by
// its program and name, idle or in use.
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "devices/opencl_kernel_cache.h"

namespace harness {

namespace {

std::atomic<bool> cache_on{false};

struct Entry {
    cl_program program;
    std::string name;
    bool in_use;
};

// Never destroyed: Halide releases its programs from a destructor at exit, through the interposer.
std::mutex &cache_mutex = *new std::mutex;
std::map<cl_kernel, Entry> &entries = *new std::map<cl_kernel, Entry>;

}  // namespace

void set_opencl_kernel_cache(bool on) {
    cache_on = on;
}

bool opencl_kernel_cache_on() {
    return cache_on;
}

namespace cl_shim {

cl_kernel kernel_cache_take(cl_program prog, const char *name) {
    if (!name) return nullptr;
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (auto &[k, e] : entries) {
        if (!e.in_use && e.program == prog && e.name == name) {
            e.in_use = true;
            return k;
        }
    }
    return nullptr;
}

void kernel_cache_add(cl_program prog, const char *name, cl_kernel k) {
    if (!k || !name) return;
    std::lock_guard<std::mutex> lock(cache_mutex);
    entries[k] = Entry{prog, name, true};
}

bool kernel_cache_give_back(cl_kernel k) {
    std::lock_guard<std::mutex> lock(cache_mutex);
    const auto it = entries.find(k);
    if (it == entries.end()) return false;
    it->second.in_use = false;
    return true;
}

std::vector<cl_kernel> kernel_cache_drop_program(cl_program prog) {
    std::vector<cl_kernel> out;
    std::lock_guard<std::mutex> lock(cache_mutex);
    for (auto it = entries.begin(); it != entries.end();) {
        if (it->second.program == prog) {
            out.push_back(it->first);
            it = entries.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

}  // namespace cl_shim

}  // namespace harness
