// JUnit XML of a results document (what `aot-harness run --junit FILE` writes), in the dialect CI
// systems read (GitLab, Jenkins, GitHub test reporters): one <testsuite name="aot-harness run">, one
// <testcase> per run (classname "pipeline.profile", name "case/mode"). As the exit codes: PASS, XFAIL
// and XPASS pass, SKIP is <skipped>, FAIL and TEARDOWN_FAULT are <failure>, ERROR, CRASH and TIMEOUT
// <error>, each with its message; stderr tails go to <system-err>.
// Characters XML forbids (ESC, NUL, other C0 controls) are written as [NON-XML-CHAR-0x1B], as ctest does.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace harness {

std::string junit_xml(const nlohmann::json &results);

// `s` made safe as XML 1.0 text or attribute value: & < > " ' escaped, forbidden characters and
// invalid UTF-8 bytes written as [NON-XML-CHAR-0x..].
std::string xml_escape(const std::string &s);

}  // namespace harness
