#include "harness/output_pattern.h"

#include "harness/error.h"

namespace harness {

namespace {

// POSIX leaves adjacent duplication symbols ("a++", "a*{2}") undefined in an ERE, and glibc's
// regcomp copies the subtree once per symbol: "0" followed by 70 '+' took 2 GB (args fuzz target).
// Returns the offset of the second symbol, or npos. Escapes and bracket expressions are skipped.
size_t stacked_duplication(const std::string &p) {
    bool prev_dup = false;
    for (size_t i = 0; i < p.size(); i++) {
        const char c = p[i];
        if (c == '\\') {
            i++;
            prev_dup = false;
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < p.size() && p[j] == '^') j++;
            if (j < p.size() && p[j] == ']') j++;
            while (j < p.size() && p[j] != ']') j++;
            i = j;
            prev_dup = false;
        } else if (c == '*' || c == '+' || c == '?' || c == '{') {
            if (prev_dup) return i;
            if (c == '{') {
                while (i < p.size() && p[i] != '}') i++;
            }
            prev_dup = true;
        } else {
            prev_dup = false;
        }
    }
    return std::string::npos;
}

}  // namespace

OutputPattern::OutputPattern(const std::string &pattern) {
    if (pattern.size() > 1024) {
        throw Error("--fail-on-output pattern is " + std::to_string(pattern.size()) +
                    " characters long; the limit is 1024: shorten it");
    }
    const size_t stacked = stacked_duplication(pattern);
    if (stacked != std::string::npos) {
        throw Error("--fail-on-output '" + pattern + "' stacks repetition operators at offset " + std::to_string(stacked) +
                    " (undefined in POSIX extended regular expressions); write one, e.g. 'a+' for 'a++'");
    }
    const int err = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB);
    if (err != 0) {
        char why[256];
        regerror(err, &re_, why, sizeof why);
        throw Error("--fail-on-output '" + pattern + "' is not a valid POSIX extended regular expression (" + why +
                    "); fix the pattern");
    }
}

OutputPattern::~OutputPattern() { regfree(&re_); }

bool OutputPattern::search(const std::string &line) const { return regexec(&re_, line.c_str(), 0, nullptr, 0) == 0; }

}  // namespace harness
