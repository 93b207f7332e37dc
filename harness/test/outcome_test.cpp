// Outcome names, exit codes and severities (the outcome table, outcome.h), and the RunRecord JSON form.
#include "base/outcome.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "report/results.h"

namespace harness {
namespace {

const Outcome kAll[] = {Outcome::Pass,    Outcome::Fail, Outcome::Error, Outcome::Crash, Outcome::TeardownFault,
                        Outcome::Timeout, Outcome::Skip, Outcome::XFail, Outcome::XPass};

TEST(Outcome, NamesRoundTrip) {
    for (Outcome o : kAll)
        EXPECT_EQ(outcome_from_name(outcome_name(o)), o) << outcome_name(o);
    EXPECT_STREQ(outcome_name(Outcome::TeardownFault), "TEARDOWN_FAULT");
}

TEST(Outcome, UnknownNameThrowsNamingIt) {
    try {
        outcome_from_name("MAYBE");
        FAIL() << "no exception";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("MAYBE"), std::string::npos);
    }
    EXPECT_THROW(outcome_from_name("pass"), Error);  // names are case-sensitive
    EXPECT_THROW(outcome_from_name(""), Error);
}

TEST(Outcome, ExitCodesMatchDesign) {
    EXPECT_EQ(outcome_exit_code(Outcome::Pass), 0);
    EXPECT_EQ(outcome_exit_code(Outcome::Fail), 1);
    EXPECT_EQ(outcome_exit_code(Outcome::Error), 2);
    EXPECT_EQ(outcome_exit_code(Outcome::Crash), 3);
    EXPECT_EQ(outcome_exit_code(Outcome::TeardownFault), 4);
    EXPECT_EQ(outcome_exit_code(Outcome::Timeout), 5);
    EXPECT_EQ(outcome_exit_code(Outcome::Infra), 7);
    EXPECT_EQ(outcome_exit_code(Outcome::Skip), 77);
    EXPECT_EQ(outcome_exit_code(Outcome::Nondeterministic), 6);
}

TEST(Outcome, SeverityOrder) {
    const Outcome order[] = {Outcome::Pass,    Outcome::XFail, Outcome::Flake,
                             Outcome::Skip,    Outcome::XPass, Outcome::Nondeterministic,
                             Outcome::Infra,   Outcome::Fail,  Outcome::TeardownFault,
                             Outcome::Timeout, Outcome::Crash, Outcome::Error};
    ASSERT_EQ(outcome_table().size(), std::size(order));
    for (size_t i = 0; i < std::size(order); i++) {
        EXPECT_EQ(outcome_severity(order[i]), static_cast<int>(i)) << outcome_name(order[i]);
        EXPECT_EQ(outcome_table()[i].outcome, order[i]);
    }
    EXPECT_EQ(outcome_name_severity("NOT_AN_OUTCOME"), static_cast<int>(std::size(order)));
    EXPECT_EQ(worse_outcome_name("SKIP", "XPASS"), "XPASS");
    EXPECT_EQ(worse_outcome_name("XPASS", "SKIP"), "XPASS");
}

TEST(Outcome, TableJsonHasEveryRow) {
    const nlohmann::json t = outcome_table_json();
    ASSERT_EQ(t.size(), outcome_table().size());
    for (size_t i = 0; i < t.size(); i++) {
        EXPECT_EQ(t[i]["name"], outcome_table()[i].name);
        EXPECT_EQ(t[i]["severity"], i);
        EXPECT_EQ(t[i]["exit_code"], outcome_table()[i].exit_code);
        EXPECT_EQ(t[i]["colour"].get<std::string>().front(), '#');
        EXPECT_FALSE(t[i]["description"].get<std::string>().empty());
    }
}

// The console summary, results.json's summary and the exit code come from the same records (results.h).
TEST(Outcome, XpassAndSkipAgreeEverywhere) {
    std::vector<RunRecord> runs(2);
    runs[0].outcome = Outcome::XPass;
    runs[1].outcome = Outcome::Skip;
    const RunSummary s = summarize(runs);
    EXPECT_EQ(s.worst, "XPASS");
    EXPECT_EQ(s.to_json()["worst"], "XPASS");
    EXPECT_EQ(s.counts_text(), "1 SKIP, 1 XPASS");
    EXPECT_EQ(run_exit_code(runs, false), 0);
    EXPECT_EQ(run_exit_code(runs, true), 1);
    runs[0].outcome = Outcome::Pass;
    EXPECT_EQ(summarize(runs).worst, "SKIP");
    EXPECT_EQ(run_exit_code(runs, true), 77);
    runs.emplace_back();
    runs.back().outcome = Outcome::Crash;
    EXPECT_EQ(run_exit_code(runs, false), 3);
    EXPECT_EQ(worst_outcome(runs), Outcome::Crash);
    EXPECT_EQ(summarize(runs).worst, "CRASH");
    EXPECT_EQ(worst_outcome({}), Outcome::Pass);
    EXPECT_EQ(summarize({}).worst, "PASS");
}

RunRecord full_record() {
    RunRecord r;
    r.pipeline = "blur3x3";
    r.profile = "opencl-mali";
    r.case_name = "odd";
    r.mode = "wrapped-device-only";
    r.outcome = Outcome::TeardownFault;
    r.message = "died during exit: \"SIGABRT\" <driver>";
    r.metrics = {{"outputs", {{"out", {{"max_abs_error", 0.5}, {"mismatches", 3}}}}}, {"run_ms", 1.25}};
    r.duration_ms = 42.5;
    r.target = "x86-64-linux-opencl";
    r.stderr_tail = "line 1\nline 2";
    r.result_outcome = "PASS";
    r.artifacts = {{"out_diff", "artifacts/blur3x3/odd.diff.png"}};
    return r;
}

TEST(RunRecord, JsonRoundTrip) {
    const RunRecord r = full_record();
    const nlohmann::json j = r.to_json();
    EXPECT_EQ(j["case"], "odd");
    EXPECT_EQ(j["outcome"], "TEARDOWN_FAULT");
    EXPECT_EQ(j["metrics"]["outputs"]["out"]["mismatches"], 3);
    const RunRecord back = RunRecord::from_json(nlohmann::json::parse(j.dump()));
    EXPECT_EQ(back.to_json(), j);
    EXPECT_EQ(back.pipeline, r.pipeline);
    EXPECT_EQ(back.profile, r.profile);
    EXPECT_EQ(back.case_name, r.case_name);
    EXPECT_EQ(back.mode, r.mode);
    EXPECT_EQ(back.outcome, r.outcome);
    EXPECT_EQ(back.message, r.message);
    EXPECT_EQ(back.metrics, r.metrics);
    EXPECT_DOUBLE_EQ(back.duration_ms, r.duration_ms);
    EXPECT_EQ(back.target, r.target);
    EXPECT_EQ(back.stderr_tail, r.stderr_tail);
    EXPECT_EQ(back.result_outcome, r.result_outcome);
    EXPECT_EQ(back.artifacts, r.artifacts);
    EXPECT_EQ(back.id(), "blur3x3/opencl-mali/odd");
}

TEST(RunRecord, EmptyOptionalFieldsAreOmitted) {
    RunRecord r;
    r.pipeline = "p";
    r.profile = "cpu";
    r.case_name = "small";
    r.outcome = Outcome::Pass;
    const nlohmann::json j = r.to_json();
    for (const char *k :
         {"pipeline", "profile", "case", "mode", "outcome", "message", "metrics", "duration_ms", "target"}) {
        EXPECT_TRUE(j.contains(k)) << k;
    }
    for (const char *k : {"stderr_tail", "result_outcome", "artifacts"})
        EXPECT_FALSE(j.contains(k)) << k;
}

TEST(RunRecord, FromJsonToleratesMissingOptionalKeys) {
    const RunRecord r = RunRecord::from_json(
        nlohmann::json::parse(R"({"pipeline":"p","profile":"cpu","case":"small","outcome":"SKIP"})"));
    EXPECT_EQ(r.outcome, Outcome::Skip);
    EXPECT_EQ(r.mode, "host");
    EXPECT_EQ(r.message, "");
    EXPECT_TRUE(r.metrics.is_object() && r.metrics.empty());
    EXPECT_TRUE(r.artifacts.is_object() && r.artifacts.empty());
    EXPECT_EQ(r.duration_ms, 0);
}

// The Error message of from_json(j), or "" if it does not throw harness::Error.
std::string from_json_error(const nlohmann::json &j) {
    try {
        RunRecord::from_json(j);
    } catch (const Error &e) {
        return e.what();
    }
    return "";
}

TEST(RunRecord, FromJsonThrowsNamingTheProblem) {
    const nlohmann::json good = full_record().to_json();
    for (const char *key : {"pipeline", "profile", "case", "outcome"}) {
        nlohmann::json j = good;
        j.erase(key);
        EXPECT_NE(from_json_error(j).find(std::string("\"") + key + "\""), std::string::npos) << key;
    }
    nlohmann::json bad_outcome = good;
    bad_outcome["outcome"] = "SORT_OF";
    const std::string msg = from_json_error(bad_outcome);
    EXPECT_NE(msg.find("outcome"), std::string::npos);
    EXPECT_NE(msg.find("SORT_OF"), std::string::npos);

    nlohmann::json bad_type = good;
    bad_type["duration_ms"] = "fast";
    EXPECT_NE(from_json_error(bad_type).find("duration_ms"), std::string::npos);
    EXPECT_NE(from_json_error(nlohmann::json::array()), "");
}

}  // namespace
}  // namespace harness
