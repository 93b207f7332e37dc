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

}  // namespace
}  // namespace harness
