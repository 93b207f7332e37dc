// Reading JSON with a nesting limit and typed getters (json_reader.h).
#include "base/json_reader.h"

#include <set>

#include "base/error.h"

namespace harness {

std::string one_line(std::string message) {
    for (char &ch : message) {
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
    }
    return message;
}

void check_json_depth(const std::string &text, const std::string &file, const std::string &fix) {
    int depth = 0, line = 1;
    size_t line_start = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); i++) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
            else if (c == '\n')
                line++, line_start = i + 1;  // not JSON, but keep the count right for the parser's message
            continue;
        }
        if (c == '\n') {
            line++;
            line_start = i + 1;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kJsonMaxDepth) {
                throw Error(one_line(file + ": line " + std::to_string(line) + ", column " +
                                     std::to_string(i - line_start + 1) + ": arrays and objects nested deeper than " +
                                     std::to_string(kJsonMaxDepth) + " levels; " + fix));
            }
        } else if (c == ']' || c == '}') {
            depth--;  // unbalanced text is the parser's to report
        }
    }
}

namespace {

template<typename Json>
Json parse_checked(const std::string &text, const std::string &file, const std::string &fix) {
    check_json_depth(text, file, fix);
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception &e) {
        std::string what = e.what();  // "[json.exception.parse_error.101] parse error at line 1, ..."
        const size_t bracket = what.find("] ");
        if (what.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos) what = what.substr(bracket + 2);
        if (what.size() > 160) what = what.substr(0, 157) + "...";
        throw Error(one_line(file + ": not valid JSON (" + what + "); " + fix));
    }
}

}  // namespace

nlohmann::json parse_json(const std::string &text, const std::string &file, const std::string &fix) {
    return parse_checked<nlohmann::json>(text, file, fix);
}

nlohmann::ordered_json parse_ordered_json(const std::string &text, const std::string &file, const std::string &fix) {
    return parse_checked<nlohmann::ordered_json>(text, file, fix);
}

nlohmann::json unordered(const nlohmann::ordered_json &v) {
    return nlohmann::json::parse(v.dump());  // already valid and within the depth limit
}

std::string json_brief(const nlohmann::json &v) {
    // The parser accepts only valid UTF-8, but a value built in code may not be: replace, never throw.
    std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return one_line(s);
}

JsonAt::JsonAt(const nlohmann::json &value, std::string file, std::string fix, std::string path)
    : value_(&value), file_(std::move(file)), fix_(std::move(fix)), path_(std::move(path)) {}

void JsonAt::fail(const std::string &problem, const std::string &fix) const {
    const std::string how = fix_.empty() ? fix : fix_;
    throw Error(one_line(file_ + ": " + (path_.empty() ? "(top level)" : path_) + ": " + problem +
                         (how.empty() ? "" : "; " + how)));
}

void JsonAt::wrong_type(const std::string &wanted, const std::string &type_fix) const {
    fail("is " + json_brief(*value_) + ", not " + wanted, type_fix);
}

bool JsonAt::has(const std::string &key) const {
    return value_->is_object() && value_->contains(key);
}

JsonAt JsonAt::get(const std::string &key) const {
    object();
    const std::string p = path_.empty() ? key : path_ + "." + key;
    const auto it = value_->find(key);
    if (it == value_->end()) JsonAt(*value_, file_, fix_, p).fail("missing", "add it");
    return JsonAt(*it, file_, fix_, p);
}

JsonAt JsonAt::item(size_t index) const {
    array();
    const std::string p = path_ + "[" + std::to_string(index) + "]";
    if (index >= value_->size()) JsonAt(*value_, file_, fix_, p).fail("missing", "add it");
    return JsonAt((*value_)[index], file_, fix_, p);
}

std::vector<JsonAt> JsonAt::items() const {
    array();
    std::vector<JsonAt> out;
    for (size_t i = 0; i < value_->size(); i++)
        out.emplace_back((*value_)[i], file_, fix_, path_ + "[" + std::to_string(i) + "]");
    return out;
}

std::vector<std::pair<std::string, JsonAt>> JsonAt::members() const {
    object();
    std::vector<std::pair<std::string, JsonAt>> out;
    for (const auto &[k, v] : value_->items())
        out.emplace_back(k, JsonAt(v, file_, fix_, path_.empty() ? k : path_ + "." + k));
    return out;
}

size_t JsonAt::size() const {
    return value_->is_array() || value_->is_object() ? value_->size() : 0;
}

const JsonAt &JsonAt::object() const {
    if (!value_->is_object()) wrong_type("an object", "write it as {...}");
    return *this;
}

const JsonAt &JsonAt::array() const {
    if (!value_->is_array()) wrong_type("a list", "write it as [...]");
    return *this;
}

std::string JsonAt::string() const {
    if (!value_->is_string()) wrong_type("a string", "write a \"string\"");
    return value_->get<std::string>();
}

std::string JsonAt::nonempty_string() const {
    if (!value_->is_string() || value_->get<std::string>().empty())
        wrong_type("a non-empty string", "write a \"string\"");
    return value_->get<std::string>();
}

double JsonAt::number() const {
    if (!value_->is_number()) wrong_type("a number", "write a number, e.g. 1.5");
    return value_->get<double>();
}

int64_t JsonAt::integer(int64_t lo, int64_t hi) const {
    // An unsigned above INT64_MAX is out of every range here; a float (2.5, 1e3) is not a whole number.
    const bool whole =
        value_->is_number_integer() && !(value_->is_number_unsigned() && value_->get<uint64_t>() > uint64_t(INT64_MAX));
    if (!whole || value_->get<int64_t>() < lo || value_->get<int64_t>() > hi) {
        wrong_type("an integer from " + std::to_string(lo) + " to " + std::to_string(hi),
                   "write a whole number in that range");
    }
    return value_->get<int64_t>();
}

bool JsonAt::boolean() const {
    if (!value_->is_boolean()) wrong_type("true or false", "write true or false");
    return value_->get<bool>();
}

std::string JsonAt::string_or(const std::string &key, const std::string &fallback) const {
    if (!has(key) || (*value_)[key].is_null()) return fallback;
    return get(key).string();
}

void JsonAt::only_keys(std::initializer_list<const char *> allowed) const {
    only_keys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void JsonAt::only_keys(const std::vector<std::string> &allowed) const {
    object();
    const std::set<std::string> ok(allowed.begin(), allowed.end());
    for (const auto &[k, v] : members()) {
        if (ok.count(k)) continue;
        std::string list;
        for (const auto &a : allowed)
            list += (list.empty() ? "" : ", ") + a;
        // The list of valid keys is the fix, whatever the document's fix is.
        throw Error(one_line(file_ + ": " + v.path() + ": unknown key; use one of: " + list));
    }
}

}  // namespace harness
