// The aot-harness command line (tools/aot_harness.cpp is only `return harness::cli_main(...)`).
#pragma once
#include <string>
#include <vector>

namespace harness {

// Parses argv, runs the subcommand and returns the process exit code: for `run`, the code of the
// worst outcome (0 PASS, 1 FAIL, 2 ERROR, 3 CRASH, 4 TEARDOWN_FAULT, 5 TIMEOUT, 77 SKIP); for a
// usage or configuration error, one line on stderr and 2.
int cli_main(int argc, char **argv);

// Whether `command` (a name of the command table, cli_options.h) has a handler.
bool cli_has_handler(const std::string &command);

// A command of the table implemented outside the harness library (`bench`, by the bench library:
// harness/bench/bench.h), called with the words after the command's name. Set before cli_main();
// without it the command is a one-line error saying what to link (cli_tools.cpp).
using CommandHook = int (*)(const std::vector<std::string> &words);
void set_command_hook(const std::string &command, CommandHook hook);

// Where `aot-harness nightly|history|compare|dashboard|driver-diff|merge|device-ctest|lava-job` find
// the installed tools (one entry point each, cli_tools.cpp) and the project they work on. The main()
// sets it from its build (HARNESS_TOOLS_DIR ...); $AOT_HARNESS_TOOLS overrides tools_dir.
struct ToolLocations {
    std::string tools_dir;    // the entry points: <prefix>/libexec/aot-harness, or the build's libexec/aot-harness
    std::string project_dir;  // the project's source directory (out/ and the history's git commit)
    std::string cmake_dir;    // the package's CMake files (device-ctest's HarnessWriteCaseTests.cmake)
};
void set_tool_locations(const ToolLocations &where);

// The default of run's --timeout (seconds): the limit of the build's ctest tests, which main() sets from
// its build (HARNESS_CASE_TIMEOUT: aot_harness_finalize(TIMEOUT), 120 unless given), so that a case does
// not PASS under ctest and TIMEOUT under `aot-harness run`.
void set_default_run_timeout(double seconds);

}  // namespace harness
