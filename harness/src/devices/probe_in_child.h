// Runs a device probe in a forked child that reports over a pipe and leaves with _exit(), so a driver that crashes
// while loading or tearing down (seed 000) cannot take the harness with it. The OpenCL, CUDA and Vulkan probes
// (opencl_probe.h, cuda_probe.h, vulkan_probe.h) all run through it, once per process each.
#pragma once
#include <functional>

#include <nlohmann/json.hpp>

namespace harness {

// Runs `fn` in a forked child and returns the JSON it produced ({"error": ...} if the child died or printed garbage).
nlohmann::json probe_in_child(const std::function<nlohmann::json()> &fn, const char *what);

}  // namespace harness
