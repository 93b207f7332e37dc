// harness::OutputPattern: the --fail-on-output pattern, a POSIX extended regular expression matched
// line by line with regcomp/regexec. Not std::regex: libstdc++'s matcher recurses once per character
// (a 50 000-character stderr line overflowed the stack of `aot-harness run`) and its compiler has
// undefined behaviour on huge back-reference numbers (found by the args fuzz target).
#pragma once
#include <regex.h>

#include <string>

namespace harness {

class OutputPattern {
public:
    // Throws Error naming the pattern and regerror's reason if it does not compile.
    explicit OutputPattern(const std::string &pattern);
    ~OutputPattern();
    OutputPattern(const OutputPattern &) = delete;
    OutputPattern &operator=(const OutputPattern &) = delete;

    bool search(const std::string &line) const;

private:
    regex_t re_;
};

}  // namespace harness
