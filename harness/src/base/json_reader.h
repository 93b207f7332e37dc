// The one way the harness reads JSON (golden/MANIFEST.json, xfail.json, baselines, JSON specs, results
// files, profiles.json, personalities.json, child records and probes, build descriptions, the shape cache): a nesting
// limit checked before parsing (nlohmann's parser is iterative, but copying and dumping recurse: a few hundred thousand
// levels overflow the stack), then nlohmann's parser, then typed getters. Every error is one line:
//   <file>: <key path>: <problem>; <fix>
// e.g. "b.json: failures.a/b/c/host: is 3, not a string; write it with aot-harness run --baseline-out FILE".
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace harness {

// Deeper than any file the harness reads (a results file nests about 6 levels).
constexpr int kJsonMaxDepth = 64;

// Throws Error if `text` nests arrays and objects deeper than kJsonMaxDepth (strings are skipped; other
// syntax is left to the parser). Alone for readers that parse with another json type (ordered_json).
void check_json_depth(const std::string &text, const std::string &file, const std::string &fix);
// check_json_depth, then nlohmann's parser; a syntax error is "<file>: not valid JSON (...); <fix>".
nlohmann::json parse_json(const std::string &text, const std::string &file, const std::string &fix);
// The same, keeping objects in the file's order (profiles.json, personalities.json).
nlohmann::ordered_json parse_ordered_json(const std::string &text, const std::string &file, const std::string &fix);
// An ordered document's value as a plain one (what the typed getters read).
nlohmann::json unordered(const nlohmann::ordered_json &v);
// A value for a one-line message: its JSON text, at most about 40 characters.
std::string json_brief(const nlohmann::json &v);
// `message` with control characters (a newline in a key) turned into spaces.
std::string one_line(std::string message);

// A value inside a parsed document, with where it is: the file, its key path ("cases[0].size"), and
// the document's fix (how to repair or remake the file; when empty, each getter says what to write).
class JsonAt {
public:
    JsonAt(const nlohmann::json &value, std::string file, std::string fix, std::string path = "");

    const nlohmann::json &json() const { return *value_; }
    // "" for the top level; messages say "(top level)".
    const std::string &path() const { return path_; }
    const std::string &file() const { return file_; }
    // The same value under another key path (an entry named by its "file" rather than its index).
    JsonAt renamed(const std::string &path) const { return JsonAt(*value_, file_, fix_, path); }
    // Throws Error "<file>: <path>: <problem>; <fix>" (the document's fix unless it is empty).
    [[noreturn]] void fail(const std::string &problem, const std::string &fix = "") const;

    bool has(const std::string &key) const;                       // an object holding `key`
    JsonAt get(const std::string &key) const;                     // must be there: "missing" otherwise
    JsonAt item(size_t index) const;                              // of an array
    std::vector<JsonAt> items() const;                            // the elements: must be an array
    std::vector<std::pair<std::string, JsonAt>> members() const;  // must be an object
    size_t size() const;                                          // of an array or object

    const JsonAt &object() const;  // checks the type, returns itself
    const JsonAt &array() const;
    std::string string() const;
    std::string nonempty_string() const;
    double number() const;
    int64_t integer(int64_t lo, int64_t hi) const;
    bool boolean() const;
    // Optional members: the fallback when absent (or null), else the typed value.
    std::string string_or(const std::string &key, const std::string &fallback) const;
    // An object whose keys are all in `allowed`; an unknown key fails listing them.
    void only_keys(std::initializer_list<const char *> allowed) const;
    void only_keys(const std::vector<std::string> &allowed) const;

private:
    [[noreturn]] void wrong_type(const std::string &wanted, const std::string &type_fix) const;

    const nlohmann::json *value_;
    std::string file_, fix_, path_;
};

}  // namespace harness
