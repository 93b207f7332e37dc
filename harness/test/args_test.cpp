// Unit tests of Args and OptionSpec (base/args.h): values, flags, positionals, defaults and ranges from
// the rows, and the errors of bad options.
#include "base/args.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace harness {
namespace {

const std::vector<OptionSpec> kRows{
    OptionSpec::text("pipeline", "P", "which"),
    OptionSpec::number("timeout", "SECONDS", "per run", 60, 1, 100),
    OptionSpec::text("json", "FILE", "where"),
    OptionSpec::flag("quiet", "say less"),
    OptionSpec::whole("n", "N", "how many", 3, 1, 1024),
    OptionSpec::number("x", "X", "a decimal", 0, 0, 100),
    OptionSpec::whole("s", "S", "signed", 0, -5, 5),
};

TEST(Args, ParsesValuesFlagsAndPositionals) {
    Args a("run", {"--pipeline", "blur3x3", "--timeout=5", "--json", "x.json", "pos"}, kRows);
    EXPECT_EQ(a.get("pipeline"), "blur3x3");
    EXPECT_EQ(a.number("timeout"), 5);
    EXPECT_FALSE(a.has("quiet"));
    EXPECT_EQ(a.positional(), std::vector<std::string>{"pos"});
}

// A default and a range are said once, in the row: absent options answer the row's default.
TEST(Args, DefaultsAndRangesComeFromTheRow) {
    Args a("run", {}, kRows);
    EXPECT_EQ(a.whole("n"), 3);
    EXPECT_EQ(a.number("timeout"), 60);
    EXPECT_EQ(a.get("n"), "3");
    EXPECT_THROW(a.whole("undeclared"), Error);
    EXPECT_EQ(kRows[4].default_and_range(), "(default 3; 1 to 1024)");
    EXPECT_EQ(OptionSpec::whole("jobs", "N", "", 0, 1, 8).default_text("one per core").default_and_range(),
              "(default one per core; 1 to 8)");
    EXPECT_EQ(kRows[0].default_and_range(), "");
}

TEST(Args, RejectsUnknownOptionsMissingValuesAndBadNumbersWhenParsed) {
    EXPECT_THROW(Args("run", {"--bogus"}, kRows), Error);
    EXPECT_THROW(Args("run", {"--pipeline"}, kRows), Error);
    EXPECT_THROW(Args("run", {"--quiet=1"}, kRows), Error);
    for (const char *bad : {"-3", "1e9", "ten"})
        EXPECT_THROW(Args("run", {"--timeout", bad}, kRows), Error) << bad;
}

// strtod took 0x10, inf and " 5"; a cast truncated --jobs 2.5 to 2.
TEST(Args, NumbersAreStrictDecimalsAndWholeNumbersWhole) {
    const auto value = [](const std::string &name, const std::string &v) {
        return Args("run", {"--" + name, v}, kRows);
    };
    for (const char *ok : {"5", "5.5", "+5", ".5e1", "1e1", "50E-1"})
        EXPECT_NO_THROW(value("x", ok)) << ok;
    for (const char *bad : {"0x10", "inf", "nan", " 5", "5 ", "", ".", "1e", "--5", "1,5", "5abc"})
        EXPECT_THROW(value("x", bad), Error) << bad;
    EXPECT_EQ(value("n", "16").whole("n"), 16);
    EXPECT_EQ(value("s", "-2").whole("s"), -2);
    for (const char *bad : {"2.5", "2.9", "0x10", "1e3", "16.0", "", "+", "99999999999999999999999", "1024 ", "0"}) {
        try {
            value("n", bad);
            ADD_FAILURE() << bad << " was taken";
        } catch (const Error &e) {
            EXPECT_EQ(std::string(e.what()),
                      "--n '" + std::string(bad) + "' is not a whole number from 1 to 1024; pass one in that range");
        }
    }
}

}  // namespace
}  // namespace harness
