// summarize() and the HTML report: counts, worst outcome, badges, escaping, atomic write and its errors.
#include "report/report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "error_of.h"
#include "base/error.h"

namespace harness {
namespace {

using nlohmann::json;

json run(const std::string &pipeline, const std::string &profile, const std::string &c, const std::string &outcome,
         const std::string &message = "") {
    return {{"pipeline", pipeline},
            {"profile", profile},
            {"case", c},
            {"mode", "host"},
            {"outcome", outcome},
            {"message", message},
            {"metrics", json::object()},
            {"duration_ms", 12.5},
            {"target", "x86-64-linux"}};
}

json fixture() {
    json runs = json::array();
    runs.push_back(run("blur3x3", "cpu", "small", "PASS", "matches golden within Exact"));
    runs.push_back(run("blur3x3", "opencl", "odd_case", "FAIL", "out: 3 mismatches <script>alert(1)</script>"));
    runs.back()["metrics"] = {{"outputs", {{"out", {{"max_abs_error", 0.25}, {"mismatches", 3}}}}}, {"run_ms", 1.5}};
    runs.back()["artifacts"] = {{"out_diff", "artifacts/blur3x3/opencl/odd_case.diff.png"}};
    runs.push_back(run("blur3x3", "cuda", "skipped_case", "SKIP", "no CUDA device"));
    runs.push_back(run("resize", "opencl-mali", "teardown_case", "TEARDOWN_FAULT", "died in exit"));
    runs.back()["result_outcome"] = "PASS";
    runs.back()["stderr_tail"] = "clReleaseContext: <abort> & more";
    runs.push_back(run("resize", "zzz-custom", "xfail_case", "XFAIL", "known driver bug"));
    return {
        {"environment", {{"halide_version", "21.0.0"}, {"opencl", {{"platforms", json::array({{{"name", "PoCL"}}})}}}}},
        {"runs", runs}};
}

// The fixture as the records the report renders.
RunResults records(const json &doc) {
    return RunResults::from_json(doc, "fixture");
}
json summarize(const json &runs) {
    return harness::summarize(records({{"runs", runs}}).runs).to_json();
}

class ReportTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/report_test.XXXXXX";
        dir_ = mkdtemp(tmpl);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::string read(const std::string &path) {
        std::ifstream f(path);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }
    std::string dir_;
};

TEST(Summarize, CountsAndWorstOutcome) {
    const json s = summarize(fixture()["runs"]);
    EXPECT_EQ(s["total"], 5);
    EXPECT_EQ(s["PASS"], 1);
    EXPECT_EQ(s["FAIL"], 1);
    EXPECT_EQ(s["SKIP"], 1);
    EXPECT_EQ(s["TEARDOWN_FAULT"], 1);
    EXPECT_EQ(s["XFAIL"], 1);
    EXPECT_FALSE(s.contains("ERROR"));
    EXPECT_EQ(s["worst"], "TEARDOWN_FAULT");
}

TEST(Summarize, WorstFollowsSeverityOrder) {
    json runs = json::array({run("p", "cpu", "a", "PASS")});
    EXPECT_EQ(summarize(runs)["worst"], "PASS");
    runs.push_back(run("p", "cpu", "b", "XFAIL"));
    EXPECT_EQ(summarize(runs)["worst"], "XFAIL");
    runs.push_back(run("p", "cpu", "c", "SKIP"));
    EXPECT_EQ(summarize(runs)["worst"], "SKIP");
    runs.push_back(run("p", "cpu", "x", "XPASS"));
    EXPECT_EQ(summarize(runs)["worst"], "XPASS");  // the outcome table's order (the console uses the same)
    runs.push_back(run("p", "cpu", "d", "FAIL"));
    EXPECT_EQ(summarize(runs)["worst"], "FAIL");
    runs.push_back(run("p", "cpu", "e", "ERROR"));
    runs.push_back(run("p", "cpu", "f", "CRASH"));
    EXPECT_EQ(summarize(runs)["worst"], "ERROR");
    EXPECT_EQ(summarize(json::array())["total"], 0);
    EXPECT_THROW(RunResults::from_json(json::object(), "r.json"), Error);
}

TEST_F(ReportTest, WritesIndexWithEveryCaseBadge) {
    write_html_report(records(fixture()), dir_ + "/nested/report");
    const std::string html = read(dir_ + "/nested/report/index.html");
    ASSERT_FALSE(html.empty());
    for (const char *c : {"small", "odd_case", "skipped_case", "teardown_case", "xfail_case"}) {
        EXPECT_NE(html.find(std::string(">") + c + "</a>"), std::string::npos) << c;
    }
    for (int i = 0; i < 5; i++) {
        EXPECT_NE(html.find("href=\"#run-" + std::to_string(i) + "\""), std::string::npos) << i;
        EXPECT_NE(html.find("id=\"run-" + std::to_string(i) + "\""), std::string::npos) << i;
    }
    EXPECT_NE(html.find("<img src=\"artifacts/blur3x3/opencl/odd_case.diff.png\""), std::string::npos);
    EXPECT_NE(html.find("max_abs_error"), std::string::npos);
    EXPECT_NE(html.find("PoCL"), std::string::npos);
    // Profile columns: cpu, opencl-mali, opencl, cuda, then the unknown one.
    const size_t cpu = html.find("<th>cpu</th>"), mali = html.find("<th>opencl-mali</th>"),
                 ocl = html.find("<th>opencl</th>"), cuda = html.find("<th>cuda</th>"),
                 z = html.find("<th>zzz-custom</th>");
    ASSERT_NE(z, std::string::npos);
    EXPECT_LT(cpu, mali);
    EXPECT_LT(mali, ocl);
    EXPECT_LT(ocl, cuda);
    EXPECT_LT(cuda, z);
    // No temporary file left behind.
    size_t files = 0;
    for (const auto &e : std::filesystem::directory_iterator(dir_ + "/nested/report"))
        files += e.is_regular_file();
    EXPECT_EQ(files, 1u);
}

TEST_F(ReportTest, FailuresFirstPassesFoldedPerPipelineAndProfile) {
    json results = fixture();
    for (const char *c : {"a", "b", "c"})
        results["runs"].push_back(run("blur3x3", "cpu", c, "PASS", "fine"));
    write_html_report(records(results), dir_);
    const std::string html = read(dir_ + "/index.html");
    const size_t failures = html.find("<h2 id=\"failures\">Failures and regressions (2)</h2>"),
                 grid = html.find("<h2>Pipelines × profiles</h2>"), passes = html.find("<h2 id=\"passes\">");
    ASSERT_NE(failures, std::string::npos);
    ASSERT_NE(passes, std::string::npos);
    EXPECT_LT(failures, grid);
    EXPECT_LT(grid, passes);
    // The failing runs as cards, worst first: TEARDOWN_FAULT (run 3), then FAIL (run 1).
    const size_t teardown = html.find("<section class=\"card w-TEARDOWN_FAULT\" id=\"run-3\">"),
                 fail = html.find("<section class=\"card w-FAIL\" id=\"run-1\">");
    ASSERT_NE(teardown, std::string::npos);
    ASSERT_NE(fail, std::string::npos);
    EXPECT_LT(teardown, fail);
    EXPECT_LT(fail, grid);
    // blur3x3/cpu: four passes, one line; blur3x3/cuda (SKIP) and resize/zzz-custom (XFAIL) one each.
    size_t folds = 0;
    for (size_t at = html.find("<details class=\"fold\""); at != std::string::npos;
         at = html.find("<details class=\"fold\"", at + 1)) {
        folds++;
        EXPECT_GT(at, passes);
    }
    EXPECT_EQ(folds, 3u);
    EXPECT_NE(html.find("<b>blur3x3 / cpu</b> <span class=\"chip o-PASS\">PASS 4</span>"), std::string::npos);
    for (int i = 5; i < 8; i++)
        EXPECT_NE(html.find("<tr id=\"run-" + std::to_string(i) + "\">"), std::string::npos) << i;
    // A link into a folded group opens it.
    EXPECT_NE(html.find("closest('details')"), std::string::npos);
}

TEST_F(ReportTest, FailingImageOutputGetsLabelledImagesAndAnEightTimesCropOfTheWorstPixel) {
    json results = fixture();
    json &r = results["runs"][1];
    r["metrics"] = {{"tolerance", "Exact"},
                    {"run_ms", {2.0, 1.25, 1.5}},
                    {"outputs",
                     {{"out",
                       {{"mismatches", 1},
                        {"mismatch_fraction", 0.0001},
                        {"max_abs_error", 243.0},
                        {"psnr_db", 58.126},
                        {"worst_mismatch", {5, 7}},
                        {"worst_expected", 12},
                        {"worst_actual", 255}}}}}};
    r["artifacts"] = {{"out.output_npy", "a/odd_case.host.out.output.npy"},
                      {"out.golden_png", "a/odd_case.host.out.golden.png"},
                      {"out.output_png", "a/odd_case.host.out.output.png"},
                      {"out.diff_png", "a/odd_case.host.out.diff.png"}};
    write_html_report(records(results), dir_);
    const std::string html = read(dir_ + "/index.html");
    EXPECT_NE(html.find("<p class=\"worst\">worst pixel (5, 7): expected 12, got 255</p>"), std::string::npos);
    // The pixel at (5, 7) scaled 8x lands at (64, 64) of the 136 x 136 window: left (8 - 5) * 8, top (8 - 7) * 8.
    for (const char *kind : {"golden", "output", "diff"}) {
        const std::string crop =
            std::string(
                "<figure class=\"crop\" data-x=\"5\" data-y=\"7\"><div class=\"cw\"><img src=\"a/odd_case.host.out.") +
            kind + ".png\" alt=\"" + kind + " ×8 at (5, 7)\" style=\"left:24px;top:8px\">";
        EXPECT_NE(html.find(crop), std::string::npos) << kind;
        EXPECT_NE(html.find(std::string("<figcaption>") + kind + "</figcaption>"), std::string::npos) << kind;
    }
    EXPECT_NE(html.find("<th>max abs error</th><td>243</td>"), std::string::npos);
    EXPECT_NE(html.find("<th>mismatch fraction</th><td>0.01 %</td>"), std::string::npos);
    EXPECT_NE(html.find("<th>PSNR</th><td>58.13 dB</td>"), std::string::npos);
    EXPECT_NE(html.find("call time <svg class=\"tm\""), std::string::npos);
    EXPECT_NE(html.find("1.50 ms (1.25–2, 3 calls)"), std::string::npos);  // run_ms as median (min–max), not a raw list
    EXPECT_NE(html.find(">out: odd_case.host.out.output.npy</a>"), std::string::npos);
}

TEST_F(ReportTest, ImagesInsideTheReportDirectoryAreLinkedRelatively) {
    json results = fixture();
    const std::string base = std::filesystem::canonical(dir_).string();
    results["runs"][1]["artifacts"] = {{"out.output_png", base + "/artifacts/odd.output.png"},
                                       {"out.golden_png", "/elsewhere/odd.golden.png"}};
    write_html_report(records(results), dir_);
    const std::string html = read(dir_ + "/index.html");
    EXPECT_NE(html.find("<img src=\"artifacts/odd.output.png\""), std::string::npos);
    EXPECT_NE(html.find("<img src=\"/elsewhere/odd.golden.png\""), std::string::npos);
    EXPECT_EQ(html.find(base + "/artifacts"), std::string::npos);
}

TEST_F(ReportTest, EscapesEveryString) {
    write_html_report(records(fixture()), dir_);
    const std::string html = read(dir_ + "/index.html");
    EXPECT_EQ(html.find("<script>alert"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("clReleaseContext: &lt;abort&gt; &amp; more"), std::string::npos);
}

TEST_F(ReportTest, RewritesAnExistingReport) {
    write_html_report(records(fixture()), dir_);
    json one = fixture();
    one["runs"] = json::array({run("only", "cpu", "lonely_case", "PASS")});
    write_html_report(records(one), dir_);
    const std::string html = read(dir_ + "/index.html");
    EXPECT_NE(html.find("lonely_case"), std::string::npos);
    EXPECT_EQ(html.find("odd_case"), std::string::npos);
}

TEST_F(ReportTest, UnwritableDirectoryThrowsNamingIt) {
    const std::string file = dir_ + "/regular_file";
    std::ofstream(file) << "x";
    const std::string bad = file + "/report";
    try {
        write_html_report(records(fixture()), bad);
        FAIL() << "no exception";
    } catch (const Error &e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("cannot write report to " + bad), std::string::npos) << msg;
        EXPECT_NE(msg.find("Not a directory"), std::string::npos) << msg;
        EXPECT_NE(msg.find("--report"), std::string::npos) << msg;
    }
}

TEST_F(ReportTest, RejectsResultsThatAreNotAnObject) {
    EXPECT_THROW(RunResults::from_json(json::array(), "r.json"), Error);
    EXPECT_THROW(RunResults::from_json({{"runs", json::array({1})}}, "r.json"), Error);
    EXPECT_NE(error_of([] {
                  RunResults::from_json({{"runs", json::array({run("p", "cpu", "a", "MAYBE")})}}, "r.json");
              }).find("r.json: runs[0]: run record key \"outcome\": unknown outcome \"MAYBE\""),
              std::string::npos);
}

}  // namespace
}  // namespace harness
