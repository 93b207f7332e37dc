// The harness's own version (the CMake project version) and the git commit it was built from
// (cmake/HarnessVersion.cmake, refreshed on every build; "-dirty" for uncommitted changes).
#pragma once
#include <string>

namespace harness {

std::string harness_version();
std::string harness_git_commit();

// `aot-harness --version`: "aot-harness 0.1.0 (git 1a2b3c4d5e6f)\nHalide 21.0.0, platform x86-64-linux\n".
std::string version_text();

}  // namespace harness
