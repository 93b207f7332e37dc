#include "harness/output_pattern.h"

#include "harness/error.h"

namespace harness {

OutputPattern::OutputPattern(const std::string &pattern) {
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
