// Unit tests of the batching policy's rule for expected failures (matrix/batch_policy.h): a task that
// golden/xfail.json or the --baseline expects to fail before its child's exit leads a child.
#include "matrix/batch_policy.h"

#include <gtest/gtest.h>

namespace harness {
namespace {

MatrixContext context(const std::string &xfail, const std::string &baseline = "") {
    MatrixContext ctx;
    ctx.xfail = XfailList::parse(xfail, "test xfail");
    if (!baseline.empty()) ctx.baseline = Baseline::parse(baseline, "test baseline");
    return ctx;
}

TEST(BatchPolicy, AnXfailEntryForAFailureBeforeExitMakesATaskLead) {
    const MatrixContext ctx = context(R"({"format": 1, "xfail": [
        {"pipeline": "p", "profile": "host", "case": "small", "outcomes": ["FAIL"], "reason": "r"},
        {"pipeline": "q", "profile": "opencl*", "reason": "any failure"}]})");
    EXPECT_TRUE(expected_to_fail(ctx, {"p", "host", "small", "host"}));
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "host", "odd", "host"}));
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "cpu", "small", "host"}));
    EXPECT_TRUE(expected_to_fail(ctx, {"q", "opencl-mali", "large", "device"}));
}

TEST(BatchPolicy, AnExitFaultEntryDoesNot) {
    // A TEARDOWN_FAULT happens at the child's exit: a batch's own exit finds it and re-runs its cases alone.
    const MatrixContext ctx = context(R"({"format": 1, "xfail": [
        {"pipeline": "p", "outcomes": ["TEARDOWN_FAULT"], "reason": "crashes at exit"}]})");
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "host", "small", "host"}));
}

TEST(BatchPolicy, AnEntryForAnotherDeviceDoesNot) {
    // The task's device is the one its profile selected; none here (no OpenCL platform), so a
    // platform-specific entry does not match.
    const MatrixContext ctx = context(R"({"format": 1, "xfail": [
        {"pipeline": "p", "platform": "Oclgrind*", "outcomes": ["FAIL"], "reason": "simulator only"}]})");
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "opencl", "small", "host"}));
}

TEST(BatchPolicy, ABaselineFailureMakesATaskLead) {
    const MatrixContext ctx = context(R"({"format": 1, "xfail": []})",
                                      R"({"format": "aot-harness-baseline", "version": 1,
        "failures": {"p/host/small/host": "ERROR", "p/host/odd/host": "TEARDOWN_FAULT"}, "flakes": []})");
    EXPECT_TRUE(expected_to_fail(ctx, {"p", "host", "small", "host"}));
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "host", "odd", "host"}));
    EXPECT_FALSE(expected_to_fail(ctx, {"p", "host", "small", "device"}));
}

}  // namespace
}  // namespace harness
