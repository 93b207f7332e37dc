// JUnit XML of a results document (junit.h), with the one rule for characters XML forbids ([NON-XML-CHAR-0x..]).
#include "report/junit.h"

#include <cstdio>
#include <map>

#include "base/outcome.h"

namespace harness {

namespace {

using nlohmann::json;

std::string hex_marker(unsigned v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "[NON-XML-CHAR-0x%X]", v);
    return buf;
}

// Length of the valid UTF-8 sequence at s[i] and its code point, or 0 if the bytes there are not one.
size_t utf8_at(const std::string &s, size_t i, unsigned &cp) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned c = b(i);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; k++) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    static const unsigned min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[n] || cp > 0x10FFFF) return 0;  // overlong or out of range
    return n;
}

bool xml_allowed(unsigned cp) {
    if (cp < 0x20) return cp == 0x9 || cp == 0xA || cp == 0xD;
    return !(cp >= 0xD800 && cp <= 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF;
}

std::string str(const json &j, const char *key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string attr(const char *name, const std::string &value) {
    return std::string(" ") + name + "=\"" + xml_escape(value) + "\"";
}

}  // namespace

std::string xml_escape(const std::string &s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        unsigned cp = 0;
        const size_t n = utf8_at(s, i, cp);
        if (n == 0) {
            out += hex_marker(static_cast<unsigned char>(s[i]));
            i++;
            continue;
        }
        if (!xml_allowed(cp)) {
            out += hex_marker(cp);
        } else if (n > 1) {
            out.append(s, i, n);
        } else {
            switch (s[i]) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&apos;";
                break;
            default:
                out += s[i];
            }
        }
        i += n;
    }
    return out;
}

std::string junit_xml(const json &results) {
    const json runs = results.is_object() ? results.value("runs", json::array()) : json::array();
    std::map<std::string, int> counts;
    double total_s = 0;
    std::string cases;
    for (const auto &r : runs) {
        const std::string outcome = str(r, "outcome"), mode = str(r, "mode");
        const double secs =
            r.contains("duration_ms") && r["duration_ms"].is_number() ? r["duration_ms"].get<double>() / 1000 : 0;
        total_s += secs;
        char t[32];
        std::snprintf(t, sizeof t, "%.3f", secs);
        cases += "  <testcase" + attr("classname", str(r, "pipeline") + "." + str(r, "profile")) +
                 attr("name", str(r, "case") + (mode.empty() ? "" : "/" + mode) +
                                  (str(r, "fallback_for").empty() ? "" : " (fallback)")) +
                 attr("time", t) + ">\n";
        const std::string msg = outcome + ": " + str(r, "message");
        // As the exit codes say (the outcome table): 0 passes (PASS, XFAIL, XPASS), 77 is skipped, a
        // wrong result (FAIL, TEARDOWN_FAULT) a failure, a run that could not finish (ERROR, CRASH,
        // TIMEOUT, or an unknown name) an error.
        const OutcomeInfo *info = find_outcome(outcome);
        const int code = info ? info->exit_code : 2;
        if (code == 77) {
            counts["skipped"]++;
            cases += "    <skipped" + attr("message", str(r, "message")) + "/>\n";
        } else if (outcome == "FLAKE") {
            // Passes (exit 0), marked as Maven Surefire marks a test that failed and passed on a re-run.
            cases += "    <flakyFailure" + attr("message", str(r, "message")) + attr("type", outcome) + "/>\n";
        } else if (code != 0) {
            const bool error = code != 1 && code != 4;
            counts[error ? "errors" : "failures"]++;
            cases += std::string("    <") + (error ? "error" : "failure") + attr("message", msg) +
                     attr("type", outcome) + "/>\n";
        }
        cases += "    <system-out>" + xml_escape(msg) + "</system-out>\n";
        if (const std::string tail = str(r, "stderr_tail"); !tail.empty())
            cases += "    <system-err>" + xml_escape(tail) + "</system-err>\n";
        cases += "  </testcase>\n";
    }
    char t[32];
    std::snprintf(t, sizeof t, "%.3f", total_s);
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite" + attr("name", "aot-harness run") +
           attr("tests", std::to_string(runs.size())) + attr("failures", std::to_string(counts["failures"])) +
           attr("errors", std::to_string(counts["errors"])) + attr("skipped", std::to_string(counts["skipped"])) +
           attr("time", t) + ">\n" + cases + "</testsuite>\n";
}

}  // namespace harness
