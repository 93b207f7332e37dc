// The handlers of the aot-harness commands (private to cli*.cpp). Each gets its arguments parsed
// and checked against the command table (harness/cli_options.h) and returns the exit code.
#pragma once
#include <string>
#include <vector>

#include "base/args.h"
#include "cli/cli_options.h"

namespace harness {

int cmd_list(const Args &args);      // cli_info.cpp
int cmd_describe(const Args &args);  // cli_info.cpp
int cmd_env(const Args &args);       // cli_info.cpp

// A passthrough command (bench, the tools): its hook, or the installed tool, with the words as they are.
int run_passthrough(const CommandSpec &command, const std::vector<std::string> &words);  // cli_tools.cpp
bool run_passthrough_exists(const std::string &command);                                 // cli_tools.cpp

}  // namespace harness
