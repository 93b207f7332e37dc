// The handlers of the aot-harness commands (private to cli*.cpp). Each gets its arguments parsed
// and checked against the command table (harness/cli_options.h) and returns the exit code.
#pragma once
#include <string>
#include <vector>

#include "base/args.h"
#include "cli/cli_options.h"
#include "base/outcome.h"

namespace harness {

int cmd_list(const Args &args);                // cli_info.cpp
int cmd_describe(const Args &args);            // cli_info.cpp
int cmd_env(const Args &args);                 // cli_info.cpp
int cmd_machine(const Args &args);             // cli_info.cpp
int cmd_describe_resources(const Args &args);  // cli_resources.cpp: describe --resources
int cmd_repro(const Args &args);               // cli_triage.cpp
int cmd_bisect(const Args &args);              // cli_triage.cpp
// run --repro-bundles: a repro bundle of each failing record into `dir`, named in its artifacts
// ("repro_bundle"), so that the report links it; a bundle that cannot be made is named in the message.
void attach_repro_bundles(std::vector<RunRecord> &runs, const std::string &dir, const std::string &golden_dir);

// The one start-up of every command that uses pipelines, the passthrough ones (bench) too: the embedded
// profiles and the devices they name checked, the registry validated, derived specs given the case trial; a
// child of run first takes its parent's shape cache (`args`: the parsed options, null for a passthrough).
void start_up(const CommandSpec &command, const Args *args);  // cli.cpp

// A passthrough command (bench, the tools): its hook, or the installed tool, with the words as they are.
int run_passthrough(const CommandSpec &command, const std::vector<std::string> &words);  // cli_tools.cpp
bool run_passthrough_exists(const std::string &command);                                 // cli_tools.cpp

}  // namespace harness
