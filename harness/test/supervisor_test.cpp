// The supervisor's classification, with /bin/sh children that do what a faulty driver would.
#include "run/supervisor.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace harness {
namespace {

class SupervisorTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/supervisor_test.XXXXXX";
        dir_ = mkdtemp(tmpl);
    }
    void TearDown() override {
        unlink((dir_ + "/rec.json").c_str());
        unlink((dir_ + "/err.txt").c_str());
        rmdir(dir_.c_str());
    }
    // Runs `script` in sh; $REC is the record path. A PASS record is at $PASS_RECORD.
    RunRecord run(const std::string &script, double timeout = 10, const std::string &fail_on_output = "") {
        ChildCommand cmd;
        cmd.fail_on_output = fail_on_output;
        cmd.record_path = dir_ + "/rec.json";
        cmd.stderr_path = dir_ + "/err.txt";
        cmd.timeout_s = timeout;
        const std::string rec =
            R"({"pipeline":"p","profile":"cpu","case":"small","mode":"host","outcome":"PASS","message":"ok","metrics":{"x":1},"duration_ms":1})";
        cmd.argv = {"/bin/sh", "-c", "REC='" + cmd.record_path + "'; PASS_RECORD='" + rec + "'; " + script};
        RunRecord id;
        id.pipeline = "p";
        id.profile = "cpu";
        id.case_name = "small";
        return supervise(id, cmd);
    }
    std::string dir_;
};

TEST_F(SupervisorTest, RecordAndMatchingExitIsTheRecordedOutcome) {
    const RunRecord r = run(R"(printf '%s' "$PASS_RECORD" > "$REC"; exit 0)");
    EXPECT_EQ(r.outcome, Outcome::Pass);
    EXPECT_EQ(r.metrics["x"], 1);
}

TEST_F(SupervisorTest, SignalAfterRecordIsTeardownFaultAndKeepsTheRecord) {
    const RunRecord r = run(R"(printf '%s' "$PASS_RECORD" > "$REC"; echo "driver assert" >&2; kill -ABRT $$)");
    EXPECT_EQ(r.outcome, Outcome::TeardownFault);
    EXPECT_EQ(r.result_outcome, "PASS");
    EXPECT_EQ(r.metrics["x"], 1);
    EXPECT_NE(r.stderr_tail.find("driver assert"), std::string::npos);
}

TEST_F(SupervisorTest, WrongExitCodeAfterRecordIsTeardownFault) {
    EXPECT_EQ(run(R"(printf '%s' "$PASS_RECORD" > "$REC"; exit 1)").outcome, Outcome::TeardownFault);
}

TEST_F(SupervisorTest, SignalWithoutRecordIsCrash) {
    const RunRecord r = run("kill -SEGV $$");
    EXPECT_EQ(r.outcome, Outcome::Crash);
    EXPECT_NE(r.message.find("Segmentation"), std::string::npos);
}

TEST_F(SupervisorTest, ExitWithoutRecordIsError) {
    EXPECT_EQ(run("exit 0").outcome, Outcome::Error);
}

TEST_F(SupervisorTest, FailOnOutputTurnsPassIntoFailAndAnnotatesAFailure) {
    const std::string re = "Invalid read|[Dd]ata race";
    const RunRecord pass = run(R"(printf '%s' "$PASS_RECORD" > "$REC"; echo "Invalid read of size 1" >&2)", 10, re);
    EXPECT_EQ(pass.outcome, Outcome::Fail);
    EXPECT_EQ(pass.result_outcome, "PASS");
    EXPECT_NE(pass.message.find(": Invalid read of size 1"), std::string::npos) << pass.message;
    const std::string fail_record =
        R"({"pipeline":"p","profile":"cpu","case":"small","mode":"host","outcome":"FAIL","message":"3 of 9 differ","duration_ms":1})";
    const RunRecord fail =
        run("printf '%s' '" + fail_record + "' > \"$REC\"; echo 'Read-write data race at 0x10' >&2; exit 1", 10, re);
    EXPECT_EQ(fail.outcome, Outcome::Fail);
    EXPECT_EQ(fail.message.rfind("3 of 9 differ; output matched", 0), 0u) << fail.message;
    EXPECT_NE(fail.message.find("Read-write data race at 0x10"), std::string::npos);
    // Nothing matching: the outcome stands.
    EXPECT_EQ(run(R"(printf '%s' "$PASS_RECORD" > "$REC")", 10, re).outcome, Outcome::Pass);
}

TEST_F(SupervisorTest, FailOnOutputMatchesAVeryLongLine) {
    // std::regex recursed per character and overflowed the stack on lines like this one.
    const RunRecord r = run(
        R"(printf '%s' "$PASS_RECORD" > "$REC"; printf 'Oclgrind ' >&2; head -c 200000 /dev/zero | tr '\0' x >&2; echo ' error' >&2)",
        10, "[Oo]clgrind.*(error|Error)");
    EXPECT_EQ(r.outcome, Outcome::Fail);
}

TEST_F(SupervisorTest, HangIsTimeoutAndTheWholeGroupIsKilled) {
    const std::string marker = dir_ + "/grandchild_alive";
    const RunRecord r = run("(sleep 2; touch '" + marker + "') & sleep 30", 0.5);
    EXPECT_EQ(r.outcome, Outcome::Timeout);
    EXPECT_LT(r.duration_ms, 5000);
    sleep(3);
    EXPECT_NE(access(marker.c_str(), F_OK), 0) << "a grandchild survived the timeout kill";
    unlink(marker.c_str());
}

}  // namespace
}  // namespace harness
