// OutputPattern (output_pattern.h): --fail-on-output compiled with regcomp, limits on length and repetition.
#include "base/output_pattern.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include "base/error.h"

namespace harness {

namespace {

// The offset of the ']' that closes the bracket expression opening at p[open] ("[]a]" and "[^]a]" hold a
// literal ']'), or p.size() when it is not closed.
size_t bracket_end(const std::string &p, size_t open) {
    size_t j = open + 1;
    if (j < p.size() && p[j] == '^') j++;
    if (j < p.size() && p[j] == ']') j++;
    while (j < p.size() && p[j] != ']')
        j++;
    return j;
}

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
            i = bracket_end(p, i);
            prev_dup = false;
        } else if (c == '*' || c == '+' || c == '?' || c == '{') {
            if (prev_dup) return i;
            if (c == '{') {
                while (i < p.size() && p[i] != '}')
                    i++;
            }
            prev_dup = true;
        } else {
            prev_dup = false;
        }
    }
    return std::string::npos;
}

// Roughly how many NFA nodes glibc's regcomp builds for `p`: it copies a subexpression once per count of a
// bounded repetition, so nested counts multiply ('(((a{200}){200}){200})' is 8 million copies: 50 s and
// 1.7 GB). Each atom counts 1, a group its contents + 2, 'x*' / 'x+' / 'x?' twice x, 'x{m,n}' x times
// max(m, n, 1) ('{m,}' m + 1). Stops counting above `limit` (returns the partial count, > limit).
double expanded_size(const std::string &p, double limit) {
    struct Frame {
        double total = 0, last = 0;
    };
    std::vector<Frame> stack(1);
    auto atom = [&](double size) {
        stack.back().total += size;
        stack.back().last = size;
    };
    auto repeat = [&](double factor) {
        Frame &f = stack.back();
        f.total += f.last * (factor - 1);
        f.last *= factor;
    };
    for (size_t i = 0; i < p.size(); i++) {
        const char c = p[i];
        if (c == '\\') {
            i++;
            atom(1);
        } else if (c == '[') {
            i = bracket_end(p, i);
            atom(1);
        } else if (c == '(') {
            stack.emplace_back();
        } else if (c == ')' && stack.size() > 1) {
            const double inner = stack.back().total + 2;
            stack.pop_back();
            atom(inner);
        } else if (c == '*' || c == '+' || c == '?') {
            repeat(2);
        } else if (c == '{') {
            const size_t close = p.find('}', i);
            if (close == std::string::npos) break;  // regcomp reports it
            const std::string body = p.substr(i + 1, close - i - 1);
            const size_t comma = body.find(',');
            const double m = std::atof(body.substr(0, comma).c_str());
            const double n = comma == std::string::npos ? m :
                             comma + 1 == body.size()   ? m + 1 :
                                                          std::atof(body.c_str() + comma + 1);
            repeat(std::max({m, n, 1.0}));
            i = close;
        } else if (c == '|') {
            stack.back().last = 0;
        } else {
            atom(1);
        }
        // Only the innermost open group changed; a group is never smaller than its contents.
        if (stack.back().total > limit) return stack.back().total;
    }
    return stack.front().total;
}

// A back-reference (\1..\9, a glibc extension to EREs) makes regexec backtrack: exponential time per line.
size_t back_reference(const std::string &p) {
    for (size_t i = 0; i + 1 < p.size(); i++) {
        if (p[i] == '\\') {
            if (std::isdigit(static_cast<unsigned char>(p[i + 1])) && p[i + 1] != '0') return i;
            i++;
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
        throw Error("--fail-on-output '" + pattern + "' stacks repetition operators at offset " +
                    std::to_string(stacked) +
                    " (undefined in POSIX extended regular expressions); write one, e.g. 'a+' for 'a++'");
    }
    if (const size_t at = back_reference(pattern); at != std::string::npos) {
        throw Error(
            "--fail-on-output '" + pattern + "' has a back-reference at offset " + std::to_string(at) +
            " (not POSIX extended; matching it can take exponential time): drop it or escape the digit with []");
    }
    constexpr double kMaxStates = 20000;
    if (const double n = expanded_size(pattern, kMaxStates); n > kMaxStates) {
        throw Error("--fail-on-output '" + pattern + "' expands to more than " +
                    std::to_string(static_cast<long>(kMaxStates)) +
                    " states (the counts of nested repetitions multiply; the limit keeps it fast and small): "
                    "use smaller {m,n} counts, or '+' / '*'");
    }
    const int err = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB);
    if (err != 0) {
        char why[256];
        regerror(err, &re_, why, sizeof why);
        throw Error("--fail-on-output '" + pattern + "' is not a valid POSIX extended regular expression (" + why +
                    "); fix the pattern");
    }
}

OutputPattern::~OutputPattern() {
    regfree(&re_);
}

bool OutputPattern::search(const std::string &line) const {
    return regexec(&re_, line.c_str(), 0, nullptr, 0) == 0;
}

}  // namespace harness
