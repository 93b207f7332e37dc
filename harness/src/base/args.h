// A small, strict argument parser driven by option rows: `--name value`, `--name=value` and `--flag`.
// Each option is one OptionSpec (type, placeholder, default, range, help): the parser checks a number
// against its row's range as it reads it, and get/whole/number answer the row's default when the option
// is absent, so no caller restates a default or a range. Unknown options are errors naming --help.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace harness {

enum class OptionType { Flag, Text, Whole, Number };

// One option, defined once. The command table (cli_options.cpp) is made of these rows.
struct OptionSpec {
    std::string name;  // without the leading "--"
    OptionType type = OptionType::Flag;
    std::string value;          // the value's placeholder ("N", "FILE"); "" for a flag
    std::string help;           // may span lines; help_text adds the default and the range
    std::string fallback;       // the default as the option's text ("" = none)
    double lo = 0, hi = 0;      // Whole and Number: the accepted range
    std::string shown_default;  // --help's words for a default the text cannot say ("one per core")
    bool required = false;      // the command fails without it

    static OptionSpec flag(std::string name, std::string help);
    static OptionSpec text(std::string name, std::string value, std::string help, std::string fallback = "");
    static OptionSpec whole(std::string name, std::string value, std::string help, int64_t fallback, int64_t lo,
                            int64_t hi);
    static OptionSpec number(std::string name, std::string value, std::string help, double fallback, double lo,
                             double hi);
    OptionSpec &needed() { return required = true, *this; }
    OptionSpec &default_text(std::string words) { return shown_default = std::move(words), *this; }
    // "(default 3; 1 to 100)" for --help, "" when the row has neither.
    std::string default_and_range() const;
};

class Args {
public:
    // Parses `argv` with `options`. Throws Error for an unknown option, a missing value, or a number not
    // plain decimal text in its row's range.
    Args(const std::string &command, const std::vector<std::string> &argv, const std::vector<OptionSpec> &options);

    bool has(const std::string &name) const { return values_.count(name) > 0; }
    // The value, else the row's default. The two-argument form is for a default known only at run time
    // (a directory from the environment).
    std::string get(const std::string &name) const;
    std::string get(const std::string &name, const std::string &fallback) const;
    // A Number or Whole option, else its row's default (checked against its range when parsed).
    double number(const std::string &name) const;
    int64_t whole(const std::string &name) const;
    const std::vector<std::string> &positional() const { return positional_; }
    const std::string &command() const { return command_; }

private:
    const OptionSpec &row(const std::string &name) const;

    std::string command_;
    std::map<std::string, OptionSpec> rows_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

}  // namespace harness
