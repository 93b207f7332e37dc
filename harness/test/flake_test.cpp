// Unit tests of flake re-runs (matrix/flake.h) and device baselines (matrix/baseline.h).
#include "matrix/flake.h"

#include <gtest/gtest.h>

#include <vector>

#include "error_of.h"
#include "matrix/baseline.h"

namespace harness {
namespace {

RunRecord rec(Outcome o, const std::string &msg = "", const std::string &mode = "host") {
    RunRecord r;
    r.pipeline = "blur3x3";
    r.profile = "opencl";
    r.case_name = "small";
    r.mode = mode;
    r.outcome = o;
    r.message = msg;
    return r;
}

// A rerun that returns the given outcomes in turn, counting its calls.
struct Reruns {
    std::vector<Outcome> outcomes;
    int calls = 0;
    RunRecord operator()() { return rec(outcomes.at(calls++), "retry"); }
};

TEST(Flake, AFailureThatPassesOnRetryIsFlake) {
    Reruns rr{{Outcome::Pass}};
    const RunRecord r = settle_flakes(rec(Outcome::Fail, "3 pixels wrong"), 1, std::ref(rr));
    EXPECT_EQ(rr.calls, 1);
    EXPECT_EQ(r.outcome, Outcome::Flake);
    EXPECT_NE(r.message.find("FAIL (3 pixels wrong), then passed on retry 1 of 1"), std::string::npos) << r.message;
    EXPECT_EQ(r.metrics["flake"]["passed_on_retry"], 1);
    EXPECT_EQ(r.metrics["flake"]["failed"][0]["outcome"], "FAIL");
}

TEST(Flake, AFailureThatFailsEveryRetryStaysAFailure) {
    Reruns rr{{Outcome::Crash, Outcome::Fail}};
    const RunRecord r = settle_flakes(rec(Outcome::Fail, "wrong"), 2, std::ref(rr));
    EXPECT_EQ(rr.calls, 2);
    EXPECT_EQ(r.outcome, Outcome::Fail);
    EXPECT_EQ(r.message, "wrong; 2 retries: CRASH, FAIL");
    EXPECT_EQ(r.metrics["flake"]["failed"].size(), 3u);
    EXPECT_TRUE(r.metrics["flake"]["passed_on_retry"].is_null());
}

TEST(Flake, OnlyUnexpectedFailuresAreRetried) {
    for (Outcome o : {Outcome::Pass, Outcome::Skip, Outcome::XFail, Outcome::XPass}) {
        Reruns rr{{Outcome::Pass}};
        EXPECT_EQ(settle_flakes(rec(o), 3, std::ref(rr)).outcome, o);
        EXPECT_EQ(rr.calls, 0) << outcome_name(o);
    }
    for (Outcome o : {Outcome::Fail, Outcome::Error, Outcome::Crash, Outcome::TeardownFault, Outcome::Timeout}) {
        EXPECT_TRUE(is_unexpected_failure(o)) << outcome_name(o);
        Reruns rr{{Outcome::Pass}};
        EXPECT_EQ(settle_flakes(rec(o), 0, std::ref(rr)).outcome, o);  // --flake-retries 0
        EXPECT_EQ(rr.calls, 0);
    }
}

// The cpu variant makes the goldens: attempts of a cpu run whose outputs differ prove it
// non-deterministic, whether the retry then matches the golden or not.
TEST(Flake, CpuAttemptsWithOtherOutputsAreNondetNotFlake) {
    for (Outcome retry : {Outcome::Pass, Outcome::Fail}) {
        RunRecord first = rec(Outcome::Fail, "3 pixels wrong");
        first.profile = "cpu";
        first.metrics["output_sha256"] = "aaaa";
        int calls = 0;
        const RunRecord r = settle_flakes(first, 2, [&] {
            RunRecord again = rec(retry, "retry");
            again.profile = "cpu";
            again.metrics["output_sha256"] = "bbbb";
            calls++;
            return again;
        });
        EXPECT_EQ(calls, 1);
        EXPECT_EQ(r.outcome, Outcome::Nondeterministic) << outcome_name(retry);
        EXPECT_NE(r.message.find("different outputs for the same inputs in two runs"), std::string::npos) << r.message;
        EXPECT_NE(r.metrics.value("nondeterministic", ""), "");
    }
    // The same outputs again: a failure that stays (or a flake of something else), as before.
    RunRecord first = rec(Outcome::Fail, "wrong");
    first.profile = "cpu";
    first.metrics["output_sha256"] = "aaaa";
    const RunRecord same = settle_flakes(first, 1, [&] {
        RunRecord again = first;
        return again;
    });
    EXPECT_EQ(same.outcome, Outcome::Fail);
    // Another profile whose outputs differ is a flaky variant, not a non-deterministic golden.
    RunRecord gpu = rec(Outcome::Fail, "wrong");
    gpu.metrics["output_sha256"] = "aaaa";
    const RunRecord flaky = settle_flakes(gpu, 1, [&] {
        RunRecord again = rec(Outcome::Pass, "ok");
        again.metrics["output_sha256"] = "bbbb";
        return again;
    });
    EXPECT_EQ(flaky.outcome, Outcome::Flake);
}

TEST(Flake, ACaseWithANondetCpuRunIsNondetOnEveryProfile) {
    std::vector<RunRecord> records{rec(Outcome::Nondeterministic, "cpu"), rec(Outcome::Fail, "differs"),
                                   rec(Outcome::Pass, "ok"), rec(Outcome::Crash, "died"), rec(Outcome::Fail, "other")};
    records[0].profile = "cpu";
    records[2].profile = "host";
    records[4].case_name = "odd";  // another case: judged as it was
    EXPECT_EQ(mark_nondeterministic_cases(records), (std::vector<size_t>{1, 2}));
    EXPECT_EQ(records[1].outcome, Outcome::Nondeterministic);
    EXPECT_NE(records[1].message.find("this run gave FAIL (differs)"), std::string::npos) << records[1].message;
    EXPECT_EQ(records[2].outcome, Outcome::Nondeterministic);
    EXPECT_EQ(records[3].outcome, Outcome::Crash);  // a crash is one whatever the golden
    EXPECT_EQ(records[4].outcome, Outcome::Fail);
}

TEST(Baseline, ListedFailuresFlakesAndNewFailures) {
    const Baseline b = Baseline::parse(R"({"format": "aot-harness-baseline", "version": 1,
        "failures": {"blur3x3/opencl/small/host": "FAIL"}, "flakes": ["blur3x3/opencl/small/device"]})",
                                       "b.json");
    RunRecord same = rec(Outcome::Fail, "wrong");
    EXPECT_TRUE(b.expects(same));
    b.apply(same);
    EXPECT_EQ(same.outcome, Outcome::XFail);
    EXPECT_EQ(same.result_outcome, "FAIL");
    RunRecord other = rec(Outcome::Crash, "SIGSEGV");  // listed as FAIL: a crash is new
    EXPECT_FALSE(b.expects(other));
    b.apply(other);
    EXPECT_EQ(other.outcome, Outcome::Crash);
    RunRecord pass = rec(Outcome::Pass);
    b.apply(pass);
    EXPECT_EQ(pass.outcome, Outcome::XPass);
    RunRecord flaky = rec(Outcome::Timeout, "", "device");
    b.apply(flaky);
    EXPECT_EQ(flaky.outcome, Outcome::Flake);
    RunRecord unlisted = rec(Outcome::Fail, "", "wrapped-host-visible");
    b.apply(unlisted);
    EXPECT_EQ(unlisted.outcome, Outcome::Fail);
}

TEST(Baseline, ARunWritesWhatItTakesBack) {
    RunRecord fail = rec(Outcome::Fail), flake = rec(Outcome::Flake, "", "device"),
              pass = rec(Outcome::Pass, "", "all");
    RunRecord fallback = rec(Outcome::Fail, "", "host");
    fallback.profile = "cpu";
    fallback.fallback_for = "opencl";
    const Baseline b = Baseline::parse(Baseline::from_records({fail, flake, pass, fallback}).to_json(), "written");
    EXPECT_EQ(b.size(), 2u);
    RunRecord again = rec(Outcome::Fail);
    b.apply(again);
    EXPECT_EQ(again.outcome, Outcome::XFail);
    // ... and the XFAIL it made is kept by the next baseline
    EXPECT_EQ(Baseline::from_records({again}).size(), 1u);
}

TEST(Baseline, BadFilesAreOneLineErrors) {
    for (const char *bad : {"{", "[]", R"({"format": "x", "version": 1})",
                            R"({"format": "aot-harness-baseline", "version": 1, "failures": {"a/b/c": "FAIL"}})",
                            R"({"format": "aot-harness-baseline", "version": 1, "failures": {"a/b/c/host": "PASS"}})",
                            R"({"format": "aot-harness-baseline", "version": 1, "flakes": [3]})",
                            R"({"format": "aot-harness-baseline", "version": 1, "extra": 1})"}) {
        const std::string msg = error_of([&] { Baseline::parse(bad, "b.json"); });
        EXPECT_NE(msg.find("b.json"), std::string::npos) << bad;
        // the fix: remake the file, or (an unknown key) the keys a baseline has
        EXPECT_TRUE(msg.find("--baseline-out") != std::string::npos ||
                    msg.find("use one of: format") != std::string::npos)
            << bad << ": " << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
    }
    EXPECT_EQ(Baseline::load("").size(), 0u);
}

}  // namespace
}  // namespace harness
