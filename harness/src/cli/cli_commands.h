// The handlers of the aot-harness commands (private to cli*.cpp). Each gets its arguments parsed
// and checked against the command table (harness/cli_options.h) and returns the exit code.
#pragma once
#include "base/args.h"

namespace harness {

int cmd_list(const Args &args);      // cli_info.cpp
int cmd_describe(const Args &args);  // cli_info.cpp
int cmd_env(const Args &args);       // cli_info.cpp

}  // namespace harness
