// junit_xml() and xml_escape(): counts, outcomes to JUnit elements, and text XML forbids.
#include "report/junit.h"

#include <gtest/gtest.h>

namespace harness {
namespace {

using nlohmann::json;

json rec(const std::string &outcome, const std::string &message, const std::string &mode = "host") {
    return {{"pipeline", "blur3x3"}, {"profile", "opencl"}, {"case", "small"},      {"mode", mode},
            {"outcome", outcome},    {"message", message},  {"duration_ms", 1500.0}};
}

// Every byte is printable ASCII, \t \n \r, or part of a UTF-8 sequence (no raw control characters).
bool only_xml_chars(const std::string &s) {
    for (unsigned char c : s) {
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    }
    return true;
}

TEST(XmlEscape, MarkupAndForbiddenCharacters) {
    EXPECT_EQ(xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
    EXPECT_EQ(xml_escape(std::string("\x1b[31mred\x1b[0m", 12)), "[NON-XML-CHAR-0x1B][31mred[NON-XML-CHAR-0x1B][0m");
    EXPECT_EQ(xml_escape(std::string("a\0b", 3)), "a[NON-XML-CHAR-0x0]b");
    EXPECT_EQ(xml_escape("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
    EXPECT_EQ(xml_escape("\x0b\x0c\x7f"), "[NON-XML-CHAR-0xB][NON-XML-CHAR-0xC]\x7f");
    EXPECT_EQ(xml_escape("é 漢 \xF0\x9F\x98\x80"), "é 漢 \xF0\x9F\x98\x80");      // valid UTF-8 kept
    EXPECT_EQ(xml_escape("\xff\xc3"), "[NON-XML-CHAR-0xFF][NON-XML-CHAR-0xC3]");  // invalid / truncated UTF-8
    EXPECT_EQ(xml_escape("\xed\xa0\x80"), "[NON-XML-CHAR-0xD800]");               // a surrogate
    EXPECT_EQ(xml_escape("\xef\xbf\xbe"), "[NON-XML-CHAR-0xFFFE]");
    EXPECT_EQ(xml_escape("\xc0\xaf"), "[NON-XML-CHAR-0xC0][NON-XML-CHAR-0xAF]");  // overlong '/'
}

TEST(Junit, OutcomesCountsAndNames) {
    json runs = json::array({rec("PASS", "ok"), rec("FAIL", "out: 3 mismatches", "device"), rec("SKIP", "no CUDA"),
                             rec("CRASH", "SIGSEGV"), rec("XFAIL", "known bug"), rec("TEARDOWN_FAULT", "died at exit"),
                             rec("XPASS", "listed in xfail.json but passed")});
    runs[3]["stderr_tail"] = std::string("\x1b[1mSegmentation fault") + std::string(1, '\0');
    const std::string x = junit_xml({{"runs", runs}});
    EXPECT_EQ(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"aot-harness run\" tests=\"7\" "
                      "failures=\"2\" "
                      "errors=\"1\" skipped=\"1\" time=\"10.500\">",
                      0),
              0u)
        << x;
    EXPECT_NE(x.find("<testcase classname=\"blur3x3.opencl\" name=\"small/device\" time=\"1.500\">\n    <failure "
                     "message=\"FAIL: out: 3 mismatches\" type=\"FAIL\"/>"),
              std::string::npos)
        << x;
    EXPECT_NE(x.find("<skipped message=\"no CUDA\"/>"), std::string::npos);
    EXPECT_NE(x.find("<error message=\"CRASH: SIGSEGV\" type=\"CRASH\"/>"), std::string::npos);
    EXPECT_NE(x.find("<failure message=\"TEARDOWN_FAULT: died at exit\" type=\"TEARDOWN_FAULT\"/>"), std::string::npos);
    EXPECT_NE(x.find("<system-err>[NON-XML-CHAR-0x1B][1mSegmentation fault[NON-XML-CHAR-0x0]</system-err>"),
              std::string::npos);
    EXPECT_EQ(x.find("type=\"XPASS\""), std::string::npos);  // exit code 0: passes, as XFAIL
    EXPECT_TRUE(only_xml_chars(x));
    EXPECT_NE(junit_xml({{"runs", json::array()}})
                  .find("<testsuite name=\"aot-harness run\" tests=\"0\" failures=\"0\" "
                        "errors=\"0\" skipped=\"0\" time=\"0.000\">\n</testsuite>"),
              std::string::npos);
}

TEST(Junit, FlakePassesWithAFlakyFailure) {
    const std::string xml = junit_xml({{"runs", json::array({rec("FLAKE", "FAIL then PASS on re-run 1")})}});
    EXPECT_NE(xml.find("failures=\"0\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("errors=\"0\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("<flakyFailure message=\"FAIL then PASS on re-run 1\" type=\"FLAKE\"/>"), std::string::npos)
        << xml;
    EXPECT_EQ(xml.find("<failure"), std::string::npos) << xml;
}

}  // namespace
}  // namespace harness
