// The JSON reader every harness file goes through (json_reader.h): the nesting limit, one-line errors
// "<file>: <key path>: <problem>; <fix>", typed getters.
#include "base/json_reader.h"

#include <gtest/gtest.h>

#include "error_of.h"

namespace harness {
namespace {

std::string nested(int depth, const std::string &inner = "") {
    return std::string(size_t(depth), '[') + inner + std::string(size_t(depth), ']');
}

TEST(JsonReader, DeepNestingIsAnErrorNotACrash) {
    // 300,000 levels: nlohmann parses them, but copying or dumping the value overflows the stack.
    const std::string msg = error_of([] { parse_json("{\"a\": " + nested(300000) + "}", "deep.json", "remake it"); });
    EXPECT_EQ(msg, "deep.json: line 1, column 70: arrays and objects nested deeper than 64 levels; remake it");
    EXPECT_EQ(error_of([] { parse_json(nested(kJsonMaxDepth), "ok.json", ""); }), "");
    EXPECT_NE(error_of([] { parse_json(nested(kJsonMaxDepth + 1), "x.json", ""); }), "");
    // brackets inside strings (escaped quotes too) are text, not nesting
    EXPECT_EQ(error_of([] { parse_json("[\"\\\"" + nested(1000) + "\"]", "s.json", ""); }), "");
    EXPECT_NE(error_of([] { parse_json("{\n\"a\":\n" + nested(100), "l.json", ""); }).find("l.json: line 3, column 64"),
              std::string::npos);
}

TEST(JsonReader, SyntaxErrorsAreOneLineWithFileAndFix) {
    const std::string msg = error_of([] { parse_json("{\"a\": \"x\ny\"}", "f.json", "fix it"); });
    EXPECT_EQ(msg.rfind("f.json: not valid JSON (parse error at line 2, column 0: syntax error", 0), 0u) << msg;
    EXPECT_NE(msg.find("; fix it"), std::string::npos);
    EXPECT_EQ(msg.find('\n'), std::string::npos);
    EXPECT_EQ(msg.find("[json.exception"), std::string::npos);
    EXPECT_NE(error_of([] { parse_json("", "empty.json", "x"); }).find("empty.json: not valid JSON"),
              std::string::npos);
}

TEST(JsonReader, TypedGettersNameFileKeyPathProblemAndFix) {
    const nlohmann::json doc =
        parse_json(R"({"a": {"b": [1, "x", 2.5, 18446744073709551615]}, "s": 3, "f": "yes", "long": ")" +
                       std::string(200, 'z') + "\"}",
                   "d.json", "");
    const JsonAt top(doc, "d.json", "");
    EXPECT_EQ(top.get("a").get("b").item(0).integer(0, 5), 1);
    EXPECT_EQ(error_of([&] { top.get("a").get("b").item(1).integer(0, 5); }),
              "d.json: a.b[1]: is \"x\", not an integer from 0 to 5; write a whole number in that range");
    EXPECT_NE(error_of([&] { top.get("a").get("b").item(2).integer(0, 5); }).find("a.b[2]: is 2.5, not an integer"),
              std::string::npos);
    EXPECT_NE(error_of([&] { top.get("a").get("b").item(3).integer(0, INT64_MAX); }).find("not an integer"),
              std::string::npos);
    EXPECT_EQ(error_of([&] { top.get("s").string(); }), "d.json: s: is 3, not a string; write a \"string\"");
    EXPECT_EQ(error_of([&] { top.get("f").boolean(); }),
              "d.json: f: is \"yes\", not true or false; write true or false");
    EXPECT_EQ(error_of([&] { top.get("nope"); }), "d.json: nope: missing; add it");
    EXPECT_EQ(error_of([&] { top.get("a").get("b").item(9); }), "d.json: a.b[9]: missing; add it");
    EXPECT_EQ(error_of([&] { top.get("s").get("t"); }), "d.json: s: is 3, not an object; write it as {...}");
    EXPECT_EQ(error_of([&] { top.get("a").items(); }),
              "d.json: a: is {\"b\":[1,\"x\",2.5,18446744073709551615]}, not a "
              "list; write it as [...]");
    // long values are cut short, so that the message stays one readable line
    EXPECT_LT(error_of([&] { top.get("long").number(); }).size(), 120u);
    // the document's fix replaces the getters' own
    const JsonAt fixed(doc, "d.json", "remake it with X");
    EXPECT_EQ(error_of([&] { fixed.get("s").string(); }), "d.json: s: is 3, not a string; remake it with X");
    EXPECT_EQ(error_of([&] { top.only_keys({"a", "s", "f"}); }), "d.json: long: unknown key; use one of: a, s, f");
    EXPECT_EQ(error_of([] {
                  const nlohmann::json j = parse_json("{\"x\\ny\": 1}", "k.json", "");
                  JsonAt(j, "k.json", "").only_keys({"a"});
              }),
              "k.json: x y: unknown key; use one of: a");
}

}  // namespace
}  // namespace harness
