// Usage, --help and the parser made from the command table, and the checks of options that need no pipeline
// (cli_options.h).
#include "cli/cli_options.h"

#include <algorithm>
#include <cstdlib>

#include "variant/buffers.h"
#include "base/error.h"
#include "base/outcome.h"
#include "base/output_pattern.h"
#include "matrix/shard.h"
#include "devices/device_personality.h"

namespace harness {

std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const auto &c : commands())
        names.push_back(c.name);
    return names;
}

const CommandSpec &find_command(const std::string &name) {
    std::string known;
    for (const auto &c : commands()) {
        if (c.name == name) return c;
        if (!c.hidden) known += (known.empty() ? "" : ", ") + c.name;
    }
    throw Error("unknown command '" + name + "'; commands: " + known + "; see aot-harness --help");
}

namespace {

// The synopsis as words: the operands, then "[--name VALUE]" per option.
std::vector<std::string> synopsis_words(const CommandSpec &command) {
    std::vector<std::string> words;
    if (!command.operands.empty()) words.push_back(command.operands);
    for (const auto &o : command.options)
        words.push_back("[--" + o.name + (o.value.empty() ? "" : " " + o.value) + "]");
    return words;
}

}  // namespace

std::string synopsis(const CommandSpec &command) {
    std::string s;
    for (const auto &w : synopsis_words(command))
        s += (s.empty() ? "" : " ") + w;
    return s;
}

std::string usage_text() {
    std::string s = "usage: aot-harness <command> [options]\n\n"
                    "Runs AOT-compiled Halide pipelines on every target profile, each run in its own process, and\n"
                    "compares the results with the goldens in golden/.\n\ncommands:\n";
    for (const auto &c : commands()) {
        if (c.hidden) continue;
        const std::string head = c.name + (c.operands.empty() ? "" : " " + c.operands);
        s += "  " + head + std::string(head.size() < 22 ? 22 - head.size() : 1, ' ') + c.summary + "\n";
    }
    s += "\nEach command has --help; --version prints the harness version and git commit. Exit codes of run (the worst "
         "outcome wins, see `aot-harness outcomes`):\n ";
    for (const auto &o : outcome_table())
        s += " " + std::to_string(o.exit_code) + " " + o.name + ",";
    s.back() = '.';
    return s + "\n";
}

std::string help_text(const CommandSpec &command) {
    std::string s = "usage: aot-harness " + command.name;
    const size_t indent = s.size();
    size_t column = indent;
    for (const auto &w : synopsis_words(command)) {  // wrapped at about 100 columns
        if (column + 1 + w.size() > 100 && column > indent) {
            s += "\n" + std::string(indent, ' ');
            column = indent;
        }
        s += " " + w;
        column += 1 + w.size();
    }
    s += "\n";
    if (!command.help.empty()) s += "\n" + command.help + "\n";
    if (!command.options.empty()) s += "\noptions:\n";
    for (const auto &o : command.options) {
        const std::string head = "--" + o.name + (o.value.empty() ? "" : " " + o.value);
        const std::string tail = o.default_and_range();
        std::string text = o.help + (tail.empty() ? "" : " " + tail);  // continuation lines under the first
        for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 1))
            text.insert(at + 1, 26, ' ');
        s += "  " + head + std::string(head.size() < 24 ? 24 - head.size() : 1, ' ') + text + "\n";
    }
    return s;
}

CommandOptions command_options(const std::string &command) {
    CommandOptions o;
    for (const auto &opt : find_command(command).options)
        (opt.type == OptionType::Flag ? o.flags : o.with_value).insert(opt.name);
    return o;
}

Args parse_command_args(const std::string &command, const std::vector<std::string> &argv) {
    const CommandSpec &spec = find_command(command);
    Args args(command, argv, spec.options);
    for (const auto &o : spec.options) {
        if (o.required && !args.has(o.name)) {
            throw Error(command + " needs --" + o.name + " " + o.value + "; see aot-harness " + command + " --help");
        }
    }
    const auto &words = args.positional();
    if (spec.operands.empty() && !words.empty()) {
        throw Error("'" + command + "' takes no argument '" + words[0] + "'; see aot-harness " + command + " --help");
    }
    if (!spec.operands.empty()) {
        const bool choice = spec.operands.find('|') != std::string::npos;
        if (words.size() != 1 ||
            (choice && ("|" + spec.operands + "|").find("|" + words[0] + "|") == std::string::npos))
            throw Error("usage: aot-harness " + command + " " + spec.operands + "; see aot-harness " + command +
                        " --help" + (choice ? "" : " and aot-harness list"));
    }
    if (spec.check) spec.check(args);
    return args;
}

namespace {
double g_default_run_timeout = 120;  // set_default_run_timeout(): the build's ctest limit
}  // namespace

void set_default_run_timeout(double seconds) {
    if (seconds > 0) g_default_run_timeout = seconds;
}

RunOptions run_options(const Args &args) {
    RunOptions r;
    r.pipeline = args.get("pipeline");
    r.profile = args.get("profile");
    r.case_name = args.get("case");
    r.golden_dir = args.get("golden-dir");
    r.artifacts = args.get("artifacts");
    if (r.artifacts.empty() && args.has("report")) r.artifacts = args.get("report") + "/artifacts";
    r.xfail = args.get("xfail");
    r.json = args.get("json");
    r.junit = args.get("junit");
    r.report = args.get("report");
    r.timeout = args.has("timeout") ? args.number("timeout") : g_default_run_timeout;
    r.repeats = static_cast<int>(args.whole("repeats"));
    r.fail_on_output = args.get("fail-on-output");
    if (!r.fail_on_output.empty()) OutputPattern check(r.fail_on_output);
    const std::string mode = args.get("mode");
    if (mode == "all") {
        for (BufferMode m : all_buffer_modes())
            r.modes.push_back(buffer_mode_name(m));
    } else {
        r.modes = {buffer_mode_name(buffer_mode_from_name(mode))};
    }
    r.fallback = args.get("fallback");
    if (!r.fallback.empty() && r.fallback != "cpu") throw Error("--fallback takes 'cpu' (the only fallback profile)");
    r.strict_xfail = args.has("strict-xfail");
    r.jobs = static_cast<int>(args.whole("jobs"));
    r.gpu_jobs = static_cast<int>(args.whole("gpu-jobs"));
    r.batch = static_cast<int>(args.whole("batch"));
    const std::string shard = args.get("shard");
    if (!shard.empty()) r.shard = parse_shard(shard);
    r.flake_retries = static_cast<int>(args.whole("flake-retries"));
    r.baseline = args.get("baseline");
    r.baseline_out = args.get("baseline-out");
    r.no_device_release = args.has("no-device-release");
    r.repro_bundles = args.get("repro-bundles");
    r.device = args.get("device");
    if (!r.device.empty() && r.device != "none") find_device_personality(r.device);  // unknown: lists the known ones
    const char *env_device = std::getenv("AOT_HARNESS_EXPECT_DEVICE");
    const char *env_driver = std::getenv("AOT_HARNESS_EXPECT_DRIVER");
    r.expect_device = args.get("expect-device", env_device ? env_device : "");
    r.expect_driver = args.get("expect-driver", env_driver ? env_driver : "");
    return r;
}

}  // namespace harness
