// version_text() (version.h): the harness version and commit, Halide's version and the build platform.
#include "base/version.h"

#include "HalideRuntime.h"
#include "base/profile.h"

namespace harness {

std::string version_text() {
    return "aot-harness " + harness_version() + " (git " + harness_git_commit() + ")\nHalide " +
           std::to_string(HALIDE_VERSION_MAJOR) + "." + std::to_string(HALIDE_VERSION_MINOR) + "." +
           std::to_string(HALIDE_VERSION_PATCH) + ", platform " + build_platform() + "\n";
}

}  // namespace harness
