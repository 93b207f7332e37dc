// The options of every aot-harness command, and the checks of them that need no pipeline, device or
// file. cli.cpp parses its commands with these; harness/fuzz/args_fuzz.cpp fuzzes them.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "harness/args.h"

namespace harness {

struct CommandOptions {
    std::set<std::string> with_value;  // --name VALUE / --name=VALUE
    std::set<std::string> flags;       // --name
};

// The commands, in usage order: list, describe, env, run, __run-one (the child side of run), bless,
// golden, report.
const std::vector<std::string> &command_names();
// The options `command` accepts; throws Error listing the commands for an unknown one.
const CommandOptions &command_options(const std::string &command);
// Parses `argv` (the words after the command) with the command's options and checks what needs no
// pipeline: describe takes one name, bless --pipeline or --all, golden the word verify, report
// --results and --out. Throws Error naming the option and the fix.
Args parse_command_args(const std::string &command, const std::vector<std::string> &argv);

// `run`'s options, checked.
struct RunOptions {
    double timeout = 60;              // --timeout, seconds, 1..86400
    int repeats = 3;                  // --repeats, 1..100
    std::string fail_on_output;       // --fail-on-output, a valid POSIX ERE ("" = none)
    std::vector<std::string> modes;   // --mode: one buffer mode, or every mode for "all"
    std::string fallback;             // --fallback: "" or "cpu"
    bool strict_xfail = false;        // --strict-xfail
};
// Checks and converts the options of `run` parsed by parse_command_args("run", ...). Throws Error
// naming the option and the accepted values.
RunOptions run_options(const Args &args);

}  // namespace harness
