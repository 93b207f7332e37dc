// The aot-harness command line (tools/aot_harness.cpp is only `return harness::cli_main(...)`).
#pragma once
#include <string>

namespace harness {

// Parses argv, runs the subcommand and returns the process exit code: for `run`, the code of the
// worst outcome (0 PASS, 1 FAIL, 2 ERROR, 3 CRASH, 4 TEARDOWN_FAULT, 5 TIMEOUT, 77 SKIP); for a
// usage or configuration error, one line on stderr and 2.
int cli_main(int argc, char **argv);

// Whether `command` (a name of the command table, cli_options.h) has a handler.
bool cli_has_handler(const std::string &command);

}  // namespace harness
