// Unit tests of golden/xfail.json (spec/xfail.h): XFAIL, XPASS and malformed lists.
#include "spec/xfail.h"

#include <gtest/gtest.h>

#include "base/error.h"

namespace harness {
namespace {

const char *kList = R"({"format": 1, "xfail": [
  {"profile": "opencl*", "platform": "Oclgrind*", "outcomes": ["TEARDOWN_FAULT"], "reason": "crashes at exit"},
  {"pipeline": "blur3x3", "profile": "cuda", "reason": "driver bug 123"}]})";

RunRecord record(const char *pipeline, const char *profile, Outcome o) {
    RunRecord r;
    r.pipeline = pipeline;
    r.profile = profile;
    r.case_name = "small";
    r.outcome = o;
    r.message = "m";
    return r;
}

const nlohmann::json kOclgrind{{"platform", "Oclgrind"}, {"device", "Oclgrind Simulator"}, {"driver_version", "21.10"}};
const nlohmann::json kPocl{{"platform", "Portable Computing Language"}, {"device", "cpu"}, {"driver_version", "3.1"}};

TEST(Xfail, MatchingFailureBecomesXfailWithReason) {
    const XfailList list = XfailList::parse(kList, "xfail.json");
    RunRecord r = record("brighten", "opencl-mali", Outcome::TeardownFault);
    list.apply(r, kOclgrind);
    EXPECT_EQ(r.outcome, Outcome::XFail);
    EXPECT_EQ(r.result_outcome, "TEARDOWN_FAULT");
    EXPECT_EQ(r.xfail_reason, "crashes at exit");
}

TEST(Xfail, OtherDriverOtherOutcomeOrSkipStayAsTheyAre) {
    const XfailList list = XfailList::parse(kList, "xfail.json");
    RunRecord pocl = record("brighten", "opencl-mali", Outcome::TeardownFault);
    list.apply(pocl, kPocl);
    EXPECT_EQ(pocl.outcome, Outcome::TeardownFault);
    RunRecord wrong = record("brighten", "opencl-mali", Outcome::Fail);  // not the expected failure
    list.apply(wrong, kOclgrind);
    EXPECT_EQ(wrong.outcome, Outcome::Fail);
    RunRecord skip = record("blur3x3", "cuda", Outcome::Skip);
    list.apply(skip, nullptr);
    EXPECT_EQ(skip.outcome, Outcome::Skip);
}

TEST(Xfail, MatchingPassIsXpass) {
    const XfailList list = XfailList::parse(kList, "xfail.json");
    RunRecord r = record("blur3x3", "cuda", Outcome::Pass);
    list.apply(r, nullptr);
    EXPECT_EQ(r.outcome, Outcome::XPass);
    EXPECT_NE(r.message.find("remove that entry"), std::string::npos);
}

TEST(Xfail, MalformedListsNameTheEntryAndField) {
    auto error_of = [](const std::string &text) {
        try {
            XfailList::parse(text, "xfail.json");
        } catch (const Error &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(error_of("[").find("not valid JSON"), std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"profile": "x"}]})").find("xfail.json: xfail[0].reason: missing; say why"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "colour": "x"}]})")
                  .find("xfail[0].colour: unknown key; use one of: pipeline, profile, case, mode"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "outcomes": ["MEH"]}]})")
                  .find("xfail[0].outcomes[0]: 'MEH' is not an outcome"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "outcomes": ["PASS"]}]})").find("list only FAIL"),
              std::string::npos);
    EXPECT_EQ(XfailList::load("/nonexistent/xfail.json").size(), 0u);
}

}  // namespace
}  // namespace harness
