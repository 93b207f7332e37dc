// Unit tests of Args (base/args.h): values, flags, positionals and the errors of bad options.
#include "base/args.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace harness {
namespace {

TEST(Args, ParsesValuesFlagsAndPositionals) {
    Args a("run", {"--pipeline", "blur3x3", "--timeout=5", "--json", "x.json", "pos"}, {"pipeline", "timeout", "json"},
           {"quiet"});
    EXPECT_EQ(a.get("pipeline"), "blur3x3");
    EXPECT_EQ(a.number("timeout", 60, 1, 100), 5);
    EXPECT_FALSE(a.has("quiet"));
    EXPECT_EQ(a.positional(), std::vector<std::string>{"pos"});
}

TEST(Args, RejectsUnknownOptionsMissingValuesAndBadNumbers) {
    EXPECT_THROW(Args("run", {"--bogus"}, {"pipeline"}, {}), Error);
    EXPECT_THROW(Args("run", {"--pipeline"}, {"pipeline"}, {}), Error);
    Args a("run", {"--timeout", "-3"}, {"timeout"}, {});
    EXPECT_THROW(a.number("timeout", 60, 1, 100), Error);
    Args b("run", {"--timeout", "1e9"}, {"timeout"}, {});
    EXPECT_THROW(b.number("timeout", 60, 1, 100), Error);
    Args c("run", {"--timeout", "ten"}, {"timeout"}, {});
    EXPECT_THROW(c.number("timeout", 60, 1, 100), Error);
}

// strtod took 0x10, inf and " 5"; a cast truncated --jobs 2.5 to 2.
TEST(Args, NumbersAreStrictDecimalsAndWholeNumbersWhole) {
    const auto value = [](const std::string &v) { return Args("run", {"--n", v}, {"n"}, {}); };
    for (const char *ok : {"5", "5.5", "+5", ".5e1", "1e1", "50E-1"})
        EXPECT_NO_THROW(value(ok).number("n", 0, 0, 100)) << ok;
    for (const char *bad : {"0x10", "inf", "nan", " 5", "5 ", "", ".", "1e", "--5", "1,5", "5abc"})
        EXPECT_THROW(value(bad).number("n", 0, 0, 100), Error) << bad;
    EXPECT_EQ(value("16").whole("n", 0, 1, 1024), 16);
    EXPECT_EQ(value("-2").whole("n", 0, -5, 5), -2);
    for (const char *bad : {"2.5", "2.9", "0x10", "1e3", "16.0", "", "+", "99999999999999999999999", "1024 "}) {
        try {
            value(bad).whole("n", 0, 1, 1024);
            ADD_FAILURE() << bad << " was taken";
        } catch (const Error &e) {
            EXPECT_EQ(std::string(e.what()),
                      "--n '" + std::string(bad) + "' is not a whole number from 1 to 1024; pass one in that range");
        }
    }
    EXPECT_THROW(value("0").whole("n", 0, 1, 1024), Error);
}

}  // namespace
}  // namespace harness
