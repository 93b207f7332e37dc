// The passthrough commands of aot-harness (cli_commands.h): `bench`, whose implementation the bench
// library hooks in (harness/bench/bench.h), and the installed tools (nightly, history, compare, bisect-commit,
// dashboard, driver-diff, merge, device-ctest, lava-job, explore), run with the words as they are and told,
// through the environment, which project, build and goldens they work on:
//   AOT_HARNESS_EXE, AOT_HARNESS_BIN, AOT_HARNESS_BUILD_DIR   this aot-harness, its bin/ and build dir
//   AOT_HARNESS_PROJECT_DIR                                   the project's source dir (out/ lives there)
//   AOT_HARNESS_GOLDEN_DIR                                    the goldens this aot-harness uses
//   AOT_HARNESS_CMAKE_DIR                                     the package's CMake files
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>

#include "base/error.h"
#include "base/files.h"
#include "base/profile.h"
#include "cli/cli_commands.h"
#include "golden/golden.h"
#include "harness/cli.h"
#include "harness/registry.h"

namespace harness {

namespace {

std::map<std::string, CommandHook> &hooks() {
    static std::map<std::string, CommandHook> h;
    return h;
}

ToolLocations &locations() {
    static ToolLocations where;
    return where;
}

std::string parent_dir(const std::string &path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

void set_env(const char *name, const std::string &value) {
    if (!value.empty()) setenv(name, value.c_str(), 1);
}

[[noreturn]] void exec_tool(const std::string &name, const std::vector<std::string> &words) {
    const char *env = std::getenv("AOT_HARNESS_TOOLS");
    const std::string dir = env && *env ? env : locations().tools_dir;
    if (dir.empty()) {
        throw Error("this aot-harness was built without the tools' location, so `" + name +
                    "` cannot run; build it with aot_harness_finalize() of the installed package, or set "
                    "AOT_HARNESS_TOOLS to <prefix>/libexec/aot-harness");
    }
    const std::string tool = dir + "/" + name;
    if (access(tool.c_str(), X_OK) != 0) {
        throw Error("the " + name + " tool is missing: " + tool + " (" + std::strerror(errno) +
                    "); reinstall the package (cmake --install) or set AOT_HARNESS_TOOLS to its libexec/aot-harness");
    }
    const std::string exe = self_exe_path();
    set_env("AOT_HARNESS_EXE", exe);
    set_env("AOT_HARNESS_BIN", parent_dir(exe));
    set_env("AOT_HARNESS_BUILD_DIR", parent_dir(parent_dir(exe)));
    set_env("AOT_HARNESS_PROJECT_DIR", locations().project_dir);
    set_env("AOT_HARNESS_GOLDEN_DIR", default_golden_dir());
    set_env("AOT_HARNESS_CMAKE_DIR", locations().cmake_dir);
    std::vector<char *> argv{const_cast<char *>(tool.c_str())};
    for (const auto &w : words)
        argv.push_back(const_cast<char *>(w.c_str()));
    argv.push_back(nullptr);
    std::fflush(stdout);
    execv(tool.c_str(), argv.data());
    throw Error("cannot run " + tool + ": " + std::strerror(errno) + "; check that python3 is installed");
}

}  // namespace

void set_command_hook(const std::string &command, CommandHook hook) {
    hooks()[command] = hook;
}

void set_tool_locations(const ToolLocations &where) {
    locations() = where;
}

bool run_passthrough_exists(const std::string &command) {
    for (const auto &c : commands()) {
        if (c.name == command) return c.passthrough;
    }
    return false;
}

int run_passthrough(const CommandSpec &command, const std::vector<std::string> &words) {
    const auto hook = hooks().find(command.name);
    if (hook != hooks().end()) {
        start_up(command, nullptr);
        return hook->second(words);
    }
    if (command.name == "bench" || command.name == "__bench-one") {
        throw Error("this aot-harness was built without Google Benchmark, so it has no `bench`; build it with the "
                    "package's bench library (aot_harness_finalize() links it when the package has it; this "
                    "repository: HARNESS_BUILD_BENCHMARKS=ON)");
    }
    exec_tool(command.name, words);
}

}  // namespace harness
