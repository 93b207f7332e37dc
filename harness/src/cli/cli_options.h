// The command table of aot-harness: every command with its one-line summary, its help and its
// options. The usage text, each command's --help, the option parser, the "unknown command" message
// and the dispatch in cli.cpp are all made from it. Adding an option is one row in its command's
// `options` (plus a field in RunOptions, for `run`). No pipeline, device or file is needed here:
// harness/fuzz/args_fuzz.cpp fuzzes it.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "base/args.h"
#include "matrix/run_options.h"

namespace harness {

struct OptionSpec {
    std::string name;   // without the leading "--"
    std::string value;  // the value's placeholder ("P", "FILE"); "" for a flag
    std::string help;   // one line
};

struct CommandSpec {
    std::string name;
    std::string operands;  // positional words in the synopsis, e.g. "<pipeline>" ("" = none)
    std::string summary;   // one line for the command list
    std::string help;      // what it does, for --help (may span lines)
    std::vector<OptionSpec> options;
    bool hidden = false;  // internal (the child side of run): not listed
    // The words after the name go to the command as they are (its own parser and --help): bench
    // (Google Benchmark's flags) and the tools (cli.h, ToolLocations).
    bool passthrough = false;
};

// The commands, in usage order (hidden ones included).
const std::vector<CommandSpec> &commands();
// The command named `name`; throws Error listing the commands for an unknown one.
const CommandSpec &find_command(const std::string &name);
// Names of every command, hidden ones included, in usage order.
std::vector<std::string> command_names();
// The top-level usage: every visible command with its synopsis and summary, and the exit codes.
std::string usage_text();
// `command --help`: the synopsis, the help paragraph and one line per option.
std::string help_text(const CommandSpec &command);
// "[--pipeline P] [--json]...": the command's options as a synopsis.
std::string synopsis(const CommandSpec &command);

struct CommandOptions {
    std::set<std::string> with_value;  // --name VALUE / --name=VALUE
    std::set<std::string> flags;       // --name
};
// The options `command` accepts; throws Error listing the commands for an unknown one.
CommandOptions command_options(const std::string &command);
// Parses `argv` (the words after the command) with the command's options and checks what needs no
// pipeline: describe takes one name, bless --pipeline or --all, golden verify or recover, report
// --results and --out. Throws Error naming the option and the fix.
Args parse_command_args(const std::string &command, const std::vector<std::string> &argv);

// Checks and converts the options of `run` parsed by parse_command_args("run", ...) into RunOptions
// (run_options.h). Throws Error naming the option and the accepted values.
RunOptions run_options(const Args &args);

}  // namespace harness
