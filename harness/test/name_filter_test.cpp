// NameFilter: comma lists, globs, and the one-line error for a pattern that matches nothing.
#include "base/name_filter.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace harness {
namespace {

const std::vector<std::string> kPipes{"blur3x3", "brighten", "conv3x3_f16", "gaussian5x5", "sobel"};

TEST(NameFilter, EmptyMatchesEverything) {
    const NameFilter f;
    EXPECT_TRUE(f.empty());
    EXPECT_TRUE(f.matches("anything"));
    EXPECT_TRUE(NameFilter("--case", "").empty());
    EXPECT_NO_THROW(NameFilter("--case", "").check_each_matches({"small"}, "case"));
}

TEST(NameFilter, CommaListsAndGlobs) {
    const NameFilter list("--pipeline", "blur3x3,sobel");
    EXPECT_TRUE(list.matches("blur3x3"));
    EXPECT_TRUE(list.matches("sobel"));
    EXPECT_FALSE(list.matches("blur3x3x"));
    EXPECT_FALSE(list.matches("brighten"));
    const NameFilter glob("--pipeline", "b*");
    EXPECT_TRUE(glob.matches("blur3x3"));
    EXPECT_TRUE(glob.matches("brighten"));
    EXPECT_FALSE(glob.matches("sobel"));
    const NameFilter mixed("--pipeline", "*3x3*,gauss?an5x5");
    std::vector<std::string> got;
    for (const auto &p : kPipes) {
        if (mixed.matches(p)) got.push_back(p);
    }
    EXPECT_EQ(got, (std::vector<std::string>{"blur3x3", "conv3x3_f16", "gaussian5x5"}));
    EXPECT_TRUE(NameFilter("--profile", "opencl*").matches("opencl-mali"));
    EXPECT_TRUE(NameFilter("--case", "[so]*").matches("odd"));
}

TEST(NameFilter, EachPatternMustMatchSomething) {
    EXPECT_NO_THROW(NameFilter("--pipeline", "blur*,sobel").check_each_matches(kPipes, "pipeline"));
    try {
        NameFilter("--pipeline", "blur*,sobol").check_each_matches(kPipes, "pipeline");
        FAIL() << "no error";
    } catch (const Error &e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("--pipeline 'sobol' matches no pipeline; known: blur3x3, brighten"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos);
    }
}

TEST(NameFilter, EmptyListElementsAreErrors) {
    for (const char *bad : {",", "blur3x3,", ",sobel", "a,,b"}) {
        EXPECT_THROW(NameFilter("--pipeline", bad), Error) << bad;
    }
}

}  // namespace
}  // namespace harness
