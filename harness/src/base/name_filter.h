// harness::NameFilter: the value of --pipeline / --profile / --case, a comma-separated list of names
// and shell globs ("blur3x3,sobel", "blur*", "*_f16,matmul"), as ctest -R or gtest --gtest_filter users
// expect. An empty filter matches everything.
#pragma once
#include <string>
#include <vector>

namespace harness {

class NameFilter {
public:
    NameFilter() = default;
    // `option` names the option in errors ("--pipeline"); an empty `spec` (option not given) matches
    // everything. Throws Error on an empty list element ("a,,b", "a,").
    NameFilter(const std::string &option, const std::string &spec);

    bool empty() const { return patterns_.empty(); }
    bool matches(const std::string &name) const;

    // Throws Error naming the first pattern that matches none of `names` ("what" is e.g. "pipeline"),
    // with the known names, so a typo is one line and not a silent empty selection.
    void check_each_matches(const std::vector<std::string> &names, const std::string &what) const;

    const std::vector<std::string> &patterns() const { return patterns_; }

private:
    std::string option_;
    std::vector<std::string> patterns_;
};

}  // namespace harness
