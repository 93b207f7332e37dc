// Options of the aot-harness commands and their pipeline-free checks (see cli_options.h).
#include "harness/cli_options.h"

#include <map>

#include "harness/buffers.h"
#include "harness/error.h"
#include "harness/output_pattern.h"

namespace harness {

namespace {

const std::map<std::string, CommandOptions> &table() {
    static const std::map<std::string, CommandOptions> t{
        {"list", {{}, {"json"}}},
        {"describe", {{}, {"json"}}},
        {"env", {{}, {"json"}}},
        {"run",
         {{"pipeline", "profile", "case", "mode", "json", "timeout", "golden-dir", "artifacts", "report", "repeats",
           "fallback", "xfail", "fail-on-output"},
          {"strict-xfail"}}},
        {"__run-one", {{"pipeline", "profile", "case", "mode", "golden-dir", "record", "artifacts", "repeats"}, {}}},
        {"bless", {{"pipeline", "case", "golden-dir"}, {"all"}}},
        {"golden", {{"golden-dir"}, {}}},
        {"report", {{"results", "out"}, {}}},
    };
    return t;
}

}  // namespace

const std::vector<std::string> &command_names() {
    static const std::vector<std::string> names{"list", "describe", "env", "run", "__run-one", "bless", "golden", "report"};
    return names;
}

const CommandOptions &command_options(const std::string &command) {
    const auto it = table().find(command);
    if (it == table().end()) {
        throw Error("unknown command '" + command + "'; commands: list, describe, env, run, bless, golden verify, report");
    }
    return it->second;
}

Args parse_command_args(const std::string &command, const std::vector<std::string> &argv) {
    const CommandOptions &o = command_options(command);
    Args args(command, argv, o.with_value, o.flags);
    if (command == "describe" && args.positional().size() != 1) {
        throw Error("describe takes one pipeline name; see aot-harness list");
    }
    if (command == "bless" && args.has("pipeline") == args.has("all")) {
        throw Error("bless needs --pipeline P or --all; see aot-harness list");
    }
    if (command == "golden" && args.positional() != std::vector<std::string>{"verify"}) {
        throw Error("usage: aot-harness golden verify [--golden-dir DIR]");
    }
    if (command == "report" && (!args.has("results") || !args.has("out"))) {
        throw Error("report needs --results FILE and --out DIR");
    }
    if (command == "__run-one") args.number("repeats", 3, 1, 100);
    return args;
}

RunOptions run_options(const Args &args) {
    RunOptions r;
    r.timeout = args.number("timeout", 60, 1, 86400);
    r.repeats = static_cast<int>(args.number("repeats", 3, 1, 100));
    r.fail_on_output = args.get("fail-on-output");
    if (!r.fail_on_output.empty()) OutputPattern check(r.fail_on_output);
    const std::string mode = args.get("mode", "host");
    if (mode == "all") {
        for (BufferMode m : all_buffer_modes()) r.modes.push_back(buffer_mode_name(m));
    } else {
        r.modes = {buffer_mode_name(buffer_mode_from_name(mode))};
    }
    r.fallback = args.get("fallback");
    if (!r.fallback.empty() && r.fallback != "cpu") throw Error("--fallback takes 'cpu' (the only fallback profile)");
    r.strict_xfail = args.has("strict-xfail");
    return r;
}

}  // namespace harness
