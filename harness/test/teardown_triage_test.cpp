// Teardown triage (teardown_triage.h) and the xfail key that matches how a child exited.
#include "run/teardown_triage.h"

#include <gtest/gtest.h>

#include "devices/device_release.h"
#include "spec/xfail.h"

namespace harness {
namespace {

RunRecord teardown_fault(const std::string &device_release) {
    RunRecord r;
    r.pipeline = "brighten";
    r.profile = "vulkan";
    r.case_name = "small";
    r.outcome = Outcome::TeardownFault;
    r.result_outcome = "PASS";
    r.message = "result recorded (PASS: ...), then died during exit: Segmentation fault";
    if (!device_release.empty()) r.metrics["device_release"] = device_release;
    return r;
}

RunRecord rerun(Outcome o, const std::string &device_release) {
    RunRecord r = teardown_fault(device_release);
    r.outcome = o;
    r.message = o == Outcome::Pass ? "matches golden" : "then died during exit";
    return r;
}

TEST(TeardownTriage, NotReleasedAndTheReleaseAvoidsTheCrashIsCleanupOrder) {
    int calls = 0;
    const RunRecord r = triage_teardown(teardown_fault(kDeviceReleaseSkipped), "vulkan", [&] {
        calls++;
        return rerun(Outcome::Pass, kDeviceReleased);
    });
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(r.outcome, Outcome::TeardownFault);  // the program that did not release still failed
    EXPECT_EQ(r.metrics["teardown_triage"], kTeardownCleanupOrder);
    EXPECT_NE(r.message.find(std::string("; teardown triage: cleanup order: releasing the device")), std::string::npos);
    EXPECT_EQ(r.metrics["teardown_rerun"], "PASS: matches golden");
}

TEST(TeardownTriage, ARecordedFailureThatExitsCleanlyAfterTheReleaseIsCleanupOrderToo) {
    const RunRecord r = triage_teardown(teardown_fault(kDeviceReleaseSkipped), "vulkan",
                                        [&] { return rerun(Outcome::Fail, kDeviceReleased); });
    EXPECT_EQ(r.metrics["teardown_triage"], kTeardownCleanupOrder);
}

TEST(TeardownTriage, NotReleasedAndTheReleasedRerunCrashesToo) {
    const RunRecord r = triage_teardown(teardown_fault(kDeviceReleaseSkipped), "opencl",
                                        [&] { return rerun(Outcome::TeardownFault, kDeviceReleased); });
    EXPECT_EQ(r.metrics["teardown_triage"], kTeardownCrashesAnyway);
}

TEST(TeardownTriage, AChildThatReleasedNeedsNoRerun) {
    int calls = 0;
    const RunRecord r = triage_teardown(teardown_fault(kDeviceReleased), "vulkan", [&] {
        calls++;
        return RunRecord();
    });
    EXPECT_EQ(calls, 0);
    EXPECT_EQ(r.metrics["teardown_triage"], kTeardownCrashesAnyway);
    // Died inside halide_device_release: the first record (without device_release) is what is left.
    const RunRecord inside = triage_teardown(teardown_fault(""), "vulkan", [&] { return RunRecord(); });
    EXPECT_NE(inside.metrics["teardown_triage"].get<std::string>().find("inside halide_device_release"),
              std::string::npos);
}

TEST(TeardownTriage, ARerunThatDoesNotGetToTheReleaseIsInconclusive) {
    const RunRecord r =
        triage_teardown(teardown_fault(kDeviceReleaseSkipped), "vulkan", [&] { return rerun(Outcome::Crash, ""); });
    EXPECT_EQ(r.metrics["teardown_triage"].get<std::string>().rfind("inconclusive", 0), 0u);
}

TEST(TeardownTriage, CpuProfilesAndOtherOutcomesAreLeftAlone) {
    const RunRecord cpu = triage_teardown(teardown_fault(""), "none", [] { return RunRecord(); });
    EXPECT_EQ(cpu.metrics["teardown_triage"], kTeardownNoDeviceRuntime);
    RunRecord pass = rerun(Outcome::Pass, kDeviceReleased);
    const RunRecord same = triage_teardown(pass, "vulkan", [] { return RunRecord(); });
    EXPECT_FALSE(same.metrics.contains("teardown_triage"));
    EXPECT_EQ(same.message, pass.message);
}

TEST(TeardownTriage, XfailDeviceReleaseKeyMatchesOnlyRunsThatDidNotRelease) {
    const XfailList list = XfailList::parse(R"({"format": 1, "xfail": [{"profile": "vulkan*",
        "platform": "Vulkan NVIDIA", "device_release": "skipped*", "outcomes": ["TEARDOWN_FAULT"],
        "reason": "crashes at exit with a live context"}]})",
                                            "xfail.json");
    const nlohmann::json nvidia{{"platform", "Vulkan NVIDIA"}};
    RunRecord skipped = teardown_fault(kDeviceReleaseSkipped);
    list.apply(skipped, nvidia);
    EXPECT_EQ(skipped.outcome, Outcome::XFail);
    RunRecord released = rerun(Outcome::Pass, kDeviceReleased);
    list.apply(released, nvidia);
    EXPECT_EQ(released.outcome, Outcome::Pass);  // not XPASS: the entry is about programs that do not release
}

}  // namespace
}  // namespace harness
