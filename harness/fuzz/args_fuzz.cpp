// Fuzz target: the CLI's argument parsing without running anything: Args (harness/src/base/args.cpp)
// with each command's options, and the pipeline-free option checks (harness/src/cli/cli_options.cpp).
//
// Input: argv words separated by NUL bytes; the first word is the command (list, describe, env, run,
// __run-one, bless, golden, report, or anything else: an unknown command). E.g.
//   "run\0--profile\0opencl\0--timeout=5\0--mode\0all"
// Expected rejections: harness::Error. Invariants of an accepted command line: option values come
// back as given, numbers are in range, and writing the parsed options out again as --name=value /
// --name words followed by the positionals parses to the same options and positionals.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "base/args.h"
#include "variant/buffers.h"
#include "cli/cli_options.h"
#include "base/error.h"

namespace {

std::vector<std::string> split_words(const uint8_t *data, size_t size) {
    std::vector<std::string> words(1);
    for (size_t i = 0; i < size; i++) {
        if (data[i] == 0)
            words.emplace_back();
        else
            words.back() += static_cast<char>(data[i]);
    }
    return words;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::vector<std::string> words = split_words(data, size);
    const std::string command = words[0];
    const std::vector<std::string> argv(words.begin() + 1, words.end());
    try {
        const harness::CommandOptions &o = harness::command_options(command);
        const harness::Args args = harness::parse_command_args(command, argv);

        // Round trip: the parsed options as --name=value / --name, then the positionals behind "--"-free
        // words. A positional that starts with "--" can only be "--" itself.
        std::vector<std::string> again;
        for (const auto &name : o.with_value) {
            if (args.has(name)) again.push_back("--" + name + "=" + args.get(name));
        }
        for (const auto &name : o.flags) {
            if (args.has(name)) again.push_back("--" + name);
        }
        for (const auto &p : args.positional()) {
            FUZZ_CHECK(p.rfind("--", 0) != 0 || p == "--", "positional taken for an option: " + p);
            again.push_back(p);
        }
        const harness::Args reparsed = harness::parse_command_args(command, again);
        FUZZ_CHECK(reparsed.positional() == args.positional(), "positionals changed in the round trip");
        for (const auto &name : o.with_value) {
            FUZZ_CHECK(reparsed.has(name) == args.has(name) && reparsed.get(name) == args.get(name), name);
        }
        for (const auto &name : o.flags)
            FUZZ_CHECK(reparsed.has(name) == args.has(name), name);

        if (command == "run") {
            const harness::RunOptions r = harness::run_options(args);
            FUZZ_CHECK(r.timeout >= 1 && r.timeout <= 86400, "timeout out of range");
            FUZZ_CHECK(r.repeats >= 1 && r.repeats <= 100, "repeats out of range");
            FUZZ_CHECK(!r.modes.empty(), "no buffer mode");
            for (const auto &m : r.modes)
                harness::buffer_mode_from_name(m);  // a known mode (throws otherwise)
            FUZZ_CHECK(r.fallback.empty() || r.fallback == "cpu", r.fallback);
        }
    } catch (const harness::Error &) {}
    return 0;
}
