// Unit tests of golden/xfail.json (spec/xfail.h): XFAIL, XPASS and malformed lists.
#include "spec/xfail.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/files.h"

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
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "blame": "lavapipe"}]})")
                  .find("xfail[0].blame: 'lavapipe' is not a blame; use halide, driver, harness or generator"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "evidence": {"seen": "x"}}]})")
                  .find("xfail[0].evidence.seen: unknown key; use one of: reproduces_on, passes_on"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"xfail": [{"reason": "r", "evidence": {"reproduces_on": "Mesa"}}]})")
                  .find("xfail[0].evidence.reproduces_on: is \"Mesa\", not a list"),
              std::string::npos);
}

TEST(Xfail, BlameIsNamedInTheMessageAndDriverInfoMatches) {
    const XfailList list = XfailList::parse(
        R"({"xfail": [{"profile": "vulkan", "driver": "Mesa 22.*", "blame": "driver", "reason": "r"}]})", "x");
    RunRecord r = record("blur3x3", "vulkan", Outcome::Fail);
    list.apply(r, nlohmann::json{{"platform", "Vulkan llvmpipe"},
                                 {"driver_version", "0.0.1"},
                                 {"driver_info", "Mesa 22.3.6 (LLVM 15.0.6)"}});
    EXPECT_EQ(r.outcome, Outcome::XFail);
    EXPECT_EQ(r.xfail_reason, "driver's bug: r");
    RunRecord newer = record("blur3x3", "vulkan", Outcome::Fail);
    list.apply(newer, nlohmann::json{{"driver_version", "0.0.1"}, {"driver_info", "Mesa 25.0.7"}});
    EXPECT_EQ(newer.outcome, Outcome::Fail);
}

TEST(Xfail, EvidenceProblemsNameWhatIsMissing) {
    const XfailList list = XfailList::parse(R"({"xfail": [
      {"profile": "opencl", "reason": "r"},
      {"profile": "vulkan*", "blame": "halide", "reason": "r",
       "evidence": {"reproduces_on": ["Mesa 22.3.6"], "reproducer": "x.py"}},
      {"profile": "opencl", "blame": "driver", "reason": "r",
       "evidence": {"reproduces_on": ["Oclgrind 21.10"], "reproducer": "x.py", "passes_on": ["PoCL 3.1"]}},
      {"profile": "opencl", "blame": "driver", "reason": "r",
       "evidence": {"reproduces_on": ["Oclgrind 21.10"], "reproducer": "x.py", "passes_on": ["PoCL 3.1"],
                    "why": "the simulator cannot lower an LLVM intrinsic the program may use"}}]})",
                                            "x");
    const std::vector<std::string> p = list.evidence_problems();
    ASSERT_EQ(p.size(), 5u);
    EXPECT_NE(p[0].find("entry 0 (*/opencl/*): no 'blame'"), std::string::npos);
    EXPECT_NE(p[1].find("entry 0 (*/opencl/*): no evidence.reproduces_on"), std::string::npos);
    EXPECT_NE(p[2].find("entry 0 (*/opencl/*): no evidence.reproducer"), std::string::npos);
    EXPECT_NE(p[3].find("entry 1 (*/vulkan*/*): no evidence.validation"), std::string::npos);
    EXPECT_NE(p[4].find("entry 2 (*/opencl/*): blames a driver without evidence.passes_on"), std::string::npos);
}

// The repository's own list says whose bug each known failure is, and how we know.
TEST(Xfail, GoldenListStatesBlameAndEvidenceForEveryEntry) {
    const XfailList list = XfailList::parse(read_file(HARNESS_GOLDEN_XFAIL), HARNESS_GOLDEN_XFAIL);
    ASSERT_GT(list.size(), 0u);
    std::string all;
    for (const std::string &p : list.evidence_problems())
        all += p + "\n";
    EXPECT_EQ(all, "");
}

}  // namespace
}  // namespace harness
