// Unit tests for cli_options.h: each command's options and the pipeline-free checks of `run`.
#include "cli/cli_options.h"

#include <gtest/gtest.h>

#include "error_of.h"
#include "harness/cli.h"
#include "base/error.h"
#include "base/outcome.h"

namespace harness {
namespace {

TEST(CliOptions, EveryCommandHasItsOptions) {
    for (const auto &c : command_names())
        EXPECT_NO_THROW(command_options(c)) << c;
    EXPECT_THROW(command_options("frobnicate"), Error);
    EXPECT_EQ(command_options("run").flags, (std::set<std::string>{"strict-xfail", "no-device-release"}));
    EXPECT_EQ(command_options("bless").flags, (std::set<std::string>{"all", "platform-hash"}));
}

TEST(CliOptions, ChecksWhatNeedsNoPipeline) {
    EXPECT_THROW(parse_command_args("describe", {}), Error);
    EXPECT_NO_THROW(parse_command_args("describe", {"blur3x3", "--json"}));
    EXPECT_THROW(parse_command_args("bless", {}), Error);
    EXPECT_THROW(parse_command_args("bless", {"--all", "--pipeline", "sobel"}), Error);
    EXPECT_THROW(parse_command_args("golden", {"check"}), Error);
    EXPECT_NO_THROW(parse_command_args("golden", {"verify", "--golden-dir=g"}));
    EXPECT_NO_THROW(parse_command_args("golden", {"recover"}));
    EXPECT_THROW(parse_command_args("bless", {"--all", "--wait", "-1"}), Error);
    EXPECT_THROW(parse_command_args("run", {"stray"}), Error);
    EXPECT_THROW(parse_command_args("report", {"--results", "r.json"}), Error);
    EXPECT_THROW(parse_command_args("__run-one", {"--repeats", "0"}), Error);
    EXPECT_THROW(parse_command_args("list", {"--json=yes"}), Error);
    EXPECT_THROW(parse_command_args("run", {"--repeats", "101"}), Error);  // the row's range, when parsed
    EXPECT_THROW(parse_command_args("bisect", {"blur3x3"}), Error);        // --profile is required
    EXPECT_THROW(parse_command_args("repro", {"a/b/c", "d"}), Error);
}

// --repeats is one row shared by run and its children: the same default and range everywhere, and --help
// says them from the row.
TEST(CliOptions, RepeatsIsOneRow) {
    for (const char *c : {"run", "__run-one", "__run-batch"}) {
        EXPECT_EQ(parse_command_args(c, {}).whole("repeats"), 3) << c;
        EXPECT_EQ(parse_command_args(c, {"--repeats=100"}).whole("repeats"), 100) << c;
        EXPECT_THROW(parse_command_args(c, {"--repeats", "0"}), Error) << c;
    }
    EXPECT_NE(help_text(find_command("run")).find("own output canary (default 3; 1 to 100)"), std::string::npos);
    EXPECT_NE(help_text(find_command("bench")).find("(default 3600; 1 to 86400)"), std::string::npos);
}

// Usage, --help, the parser and the dispatch all come from the command table: nothing can drift.
TEST(CliOptions, UsageHelpParserAndDispatchComeFromTheTable) {
    const std::string usage = usage_text();
    for (const auto &c : commands()) {
        EXPECT_TRUE(cli_has_handler(c.name)) << c.name;
        if (c.hidden) {
            EXPECT_EQ(usage.find("  " + c.name), std::string::npos) << c.name;
            continue;
        }
        EXPECT_NE(usage.find("  " + c.name + " "), std::string::npos) << c.name;
        EXPECT_NE(usage.find(c.summary), std::string::npos) << c.name;
        const std::string help = help_text(c);
        const CommandOptions o = command_options(c.name);
        EXPECT_EQ(o.with_value.size() + o.flags.size(), c.options.size()) << c.name;
        for (const auto &opt : c.options) {
            EXPECT_NE(help.find("[--" + opt.name), std::string::npos) << c.name << " --" << opt.name;
            EXPECT_NE(help.find("  --" + opt.name), std::string::npos) << c.name << " --" << opt.name;
            EXPECT_FALSE(opt.help.empty()) << c.name << " --" << opt.name;
        }
    }
    for (const char *o : {"--xfail FILE", "--strict-xfail", "--fail-on-output REGEX"}) {
        EXPECT_NE(synopsis(find_command("run")).find(o), std::string::npos) << o;
    }
    for (const auto &o : outcome_table()) {
        EXPECT_NE(usage.find(std::to_string(o.exit_code) + " " + o.name), std::string::npos) << o.name;
    }
    EXPECT_EQ(
        error_of([] { find_command("frobnicate"); }),
        "unknown command 'frobnicate'; commands: list, describe, env, machine, run, bench, bless, golden, report, "
        "repro, bisect, outcomes, "
        "nightly, history, compare, dashboard, driver-diff, merge, device-ctest, lava-job, bisect-commit, explore; see "
        "aot-harness --help");
}

TEST(CliOptions, RunOptions) {
    const RunOptions d = run_options(parse_command_args("run", {}));
    // The limit of the tests harness_discover_cases writes (cmake/HarnessPipeline.cmake, aot_harness_finalize):
    // a case does not PASS under ctest and TIMEOUT under `run`.
    EXPECT_EQ(d.timeout, 120);
    set_default_run_timeout(300);  // aot_harness_finalize(TIMEOUT 300)
    EXPECT_EQ(run_options(parse_command_args("run", {})).timeout, 300);
    EXPECT_EQ(run_options(parse_command_args("run", {"--timeout", "7"})).timeout, 7);
    set_default_run_timeout(120);
    EXPECT_EQ(d.repeats, 3);
    EXPECT_EQ(d.modes, std::vector<std::string>{"host"});
    EXPECT_FALSE(d.shard.has_value());  // the whole matrix
    const RunOptions r =
        run_options(parse_command_args("run", {"--timeout=5", "--repeats", "2", "--mode", "all", "--fallback", "cpu",
                                               "--strict-xfail", "--fail-on-output", "Invalid (read|write)"}));
    EXPECT_EQ(r.timeout, 5);
    EXPECT_EQ(r.repeats, 2);
    EXPECT_EQ(r.modes.size(), 4u);
    EXPECT_EQ(r.fallback, "cpu");
    EXPECT_TRUE(r.strict_xfail);
    EXPECT_EQ(r.fail_on_output, "Invalid (read|write)");
    // --shard is parsed here, once: the run matrix takes the Shard as it is.
    const RunOptions s = run_options(parse_command_args("run", {"--shard", "3/8"}));
    ASSERT_TRUE(s.shard.has_value());
    EXPECT_EQ(s.shard->index, 3);
    EXPECT_EQ(s.shard->count, 8);
    EXPECT_EQ(s.shard->text(), "3/8");
    for (std::vector<std::string> bad : {std::vector<std::string>{"--timeout", "0"},
                                         {"--shard", "0/4"},
                                         {"--repeats", "nan"},
                                         {"--mode", "zero-copy"},
                                         {"--fallback", "host"},
                                         {"--fail-on-output", "(x"},
                                         {"--fail-on-output", "0++"},
                                         {"--fail-on-output", "a*{2}"},
                                         {"--fail-on-output", std::string(1025, 'a')}}) {
        EXPECT_THROW(run_options(parse_command_args("run", bad)), Error) << bad[0] << " " << bad[1];
    }
}

TEST(CliOptions, ReportKeepsArtifactsBesideItUnlessToldOtherwise) {
    EXPECT_EQ(run_options(parse_command_args("run", {})).artifacts, "");
    EXPECT_EQ(run_options(parse_command_args("run", {"--report", "out/rep"})).artifacts, "out/rep/artifacts");
    EXPECT_EQ(run_options(parse_command_args("run", {"--report", "out/rep", "--artifacts", "a"})).artifacts, "a");
}

TEST(CliOptions, FailOnOutputRejectsPatternsThatExplodeInTimeOrMemory) {
    // glibc's regcomp copies a subexpression per repetition count: 200^3 copies took 50 s and 1.7 GB.
    for (const char *bad : {"(((a{200}){200}){200})", "((a{1,150}){150})", "((a|b){100}){250}", "(a)\\1"}) {
        try {
            run_options(parse_command_args("run", {"--fail-on-output", bad}));
            ADD_FAILURE() << bad << " was accepted";
        } catch (const Error &e) {
            const std::string m = e.what();
            EXPECT_NE(m.find(bad), std::string::npos) << m;
            EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
            EXPECT_TRUE(m.find("states") != std::string::npos || m.find("back-reference") != std::string::npos) << m;
        }
    }
    for (const char *ok : {"a{255}", "(ab){100}c{50}", "(x|y){1,99}", "[0-9]{1,3}(\\.[0-9]{1,3}){3}", "\\\\1"}) {
        EXPECT_NO_THROW(run_options(parse_command_args("run", {"--fail-on-output", ok}))) << ok;
    }
}

TEST(CliOptions, FailOnOutputAcceptsOclgrindsPatternAndEscapedOrBracketedSymbols) {
    for (const char *ok : {"Invalid (read|write)|[Dd]ata race|Uninitiali[sz]ed|[Oo]clgrind.*(error|Error)", "a\\++",
                           "[+*]+", "x{2}y?", "[]+]*"}) {
        EXPECT_NO_THROW(run_options(parse_command_args("run", {"--fail-on-output", ok}))) << ok;
    }
}

}  // namespace
}  // namespace harness
