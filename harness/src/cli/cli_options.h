// The command table of aot-harness (cli_table.cpp): every command with its one-line summary, its help and
// its options, each option one row with its type, default, range and help (OptionSpec, base/args.h). The
// usage text, each command's --help, the option parser and its checks, the "unknown command" message and
// the dispatch in cli.cpp are all made from it. Adding an option is one row in its command's `options`
// (plus a field in RunOptions, for `run`). No pipeline, device or file is needed here:
// harness/fuzz/args_fuzz.cpp fuzzes it.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "base/args.h"
#include "matrix/run_options.h"

namespace harness {

struct CommandSpec {
    std::string name;
    // The positional word in the synopsis ("<pipeline>"; "verify|recover": one of these words); a command
    // with operands takes exactly one, one without takes none. "" = none.
    std::string operands;
    std::string summary;              // one line for the command list
    std::string help;                 // what it does, for --help (may span lines)
    std::vector<OptionSpec> options;  // each option's type, default, range and help (base/args.h)
    bool hidden = false;              // internal (the child side of run): not listed
    // The words after the name go to the command as they are (its own parser and --help): bench
    // (Google Benchmark's flags) and the tools (cli.h, ToolLocations).
    bool passthrough = false;
    void (*check)(const Args &) = nullptr;  // what the rows cannot say (bless: --pipeline or --all)
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
// Parses `argv` (the words after the command) with the command's rows and checks what needs no pipeline:
// numbers in range, required options, the operands, and the command's own check. Throws Error naming the
// option and the fix.
Args parse_command_args(const std::string &command, const std::vector<std::string> &argv);

// Checks and converts the options of `run` parsed by parse_command_args("run", ...) into RunOptions
// (run_options.h). Throws Error naming the option and the accepted values.
RunOptions run_options(const Args &args);

}  // namespace harness
