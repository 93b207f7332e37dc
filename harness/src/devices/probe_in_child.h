// Runs a device probe in a forked child that reports over a pipe and leaves with _exit(), so a driver that crashes
// while loading or tearing down cannot take the harness with it. The OpenCL, CUDA and Vulkan probes
// (opencl_probe.h, cuda_probe.h, vulkan_probe.h) all run through it, once per process each.
#pragma once
#include <dlfcn.h>

#include <functional>
#include <mutex>

#include <nlohmann/json.hpp>

namespace harness {

// Runs `fn` in a forked child and returns the JSON it produced ({"error": ...} if the child died or printed garbage).
nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what);

// A probe that runs once per process, in a forked child: start() forks it and returns at once (so the
// OpenCL, CUDA and Vulkan probes, each started before any is waited for, run at the same time, each in
// its own child); get() starts it if needed, waits for it the first time and keeps its result.
class ProbeOnce {
public:
    ProbeOnce(std::function<nlohmann::json()> fn, const char *what) : fn_(std::move(fn)), what_(what) {}
    void start();
    const nlohmann::json &get();

private:
    void start_locked();
    std::function<nlohmann::json()> fn_;
    const char *what_;
    std::mutex m_;
    int pid_ = -1, fd_ = -1;
    bool done_ = false;
    nlohmann::json result_;
};

// A driver library's symbol `name` as a function pointer of type F (nullptr if absent), for the probes'
// children that dlopen() the driver (cuda_probe.cpp, vulkan_probe.cpp).
template<typename F>
F probe_symbol(void *lib, const char *name) {
    return reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace harness
