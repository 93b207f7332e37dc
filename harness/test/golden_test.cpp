// Unit tests for golden.h's manifest reader: Manifest::parse accepts the committed manifest and
// rejects malformed entries with one harness::Error naming the entry (regressions found by
// harness/fuzz/manifest_fuzz.cpp; its reproducers live in harness/fuzz/corpus/manifest/regress_*).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "error_of.h"
#include "base/error.h"
#include "base/files.h"
#include "golden/golden.h"

namespace harness {
namespace {

// A manifest with one entry whose `field` is replaced by the JSON text `value` (or removed if empty).
std::string manifest_with(const std::string &field, const std::string &value) {
    nlohmann::json entry{{"file", "blur3x3/small.npy"},
                         {"pipeline", "blur3x3"},
                         {"case", "small"},
                         {"output", "output"},
                         {"dtype", "uint8"},
                         {"shape", {64, 48}},
                         {"sha256", "00"},
                         {"stored", true}};
    if (value.empty())
        entry.erase(field);
    else
        entry[field] = nlohmann::json::parse(value);
    return nlohmann::json{{"format", 1}, {"goldens", {entry}}}.dump();
}

TEST(Manifest, ParsesTheCommittedManifestAndWritesItBackUnchanged) {
    const std::string path = default_golden_dir() + "/MANIFEST.json";
    const std::string text = read_file(path);
    const Manifest m = Manifest::parse(text, path);
    EXPECT_GT(m.entries().size(), 10u);
    EXPECT_EQ(m.text(), text);
    EXPECT_NE(m.find("blur3x3/small.npy"), nullptr);
}

TEST(Manifest, AcceptsAWellFormedEntry) {
    const Manifest m = Manifest::parse(manifest_with("stored", "false"), "m.json");
    ASSERT_EQ(m.entries().size(), 1u);
    EXPECT_FALSE(m.entries()[0].stored);
    EXPECT_TRUE(Manifest::parse(manifest_with("stored", ""), "m.json").entries()[0].stored);
}

// Fuzzer finding: "stored" as a string passed the manifest check and then escaped from
// golden_is_stored as nlohmann::json::type_error ("type must be boolean, but is string"), which
// `aot-harness golden verify` printed without naming the file or the fix.
TEST(Manifest, RejectsStoredThatIsNotABoolean) {
    const std::string regress =
        read_file(std::string(HARNESS_FUZZ_CORPUS_DIR) + "/manifest/regress_stored_is_a_string.json");
    EXPECT_EQ(error_of([&] { Manifest::parse(regress, "golden/MANIFEST.json"); }),
              "golden/MANIFEST.json: entry \"bitonic_sort/small.npy\".stored: is \"x86-64-linux-no_runtime\", not true "
              "or false; restore it with `git checkout -- golden/MANIFEST.json` or re-bless");
    EXPECT_NE(error_of([] { Manifest::parse(manifest_with("stored", "1"), "m.json"); }), "");
}

TEST(Manifest, RejectsFieldsOfTheWrongType) {
    for (const char *field : {"file", "pipeline", "case", "output", "dtype", "sha256"}) {
        EXPECT_NE(error_of([&] {
                      Manifest::parse(manifest_with(field, "42"), "m.json");
                  }).find(std::string(".") + field + ": is 42, not a string"),
                  std::string::npos)
            << field;
    }
    for (const char *shape : {"\"64x48\"", "[64, -1]", "[64, 4.5]", "[2147483648]", "[[64]]"}) {
        EXPECT_NE(error_of([&] { Manifest::parse(manifest_with("shape", shape), "m.json"); }).find(".shape"),
                  std::string::npos)
            << shape;
    }
    EXPECT_NE(
        error_of([] { Manifest::parse(manifest_with("sha256", ""), "m.json"); }).find("goldens[0].sha256: missing"),
        std::string::npos);
}

TEST(Manifest, RejectsFilesOutsideTheGoldenDirAndDuplicates) {
    for (const char *file : {"\"\"", "\"/etc/passwd\"", "\"../x.npy\"", "\"a/../../x.npy\"", "\"a/..\"", "\"..\""}) {
        EXPECT_NE(error_of([&] {
                      Manifest::parse(manifest_with("file", file), "m.json");
                  }).find("must be a path inside the golden dir"),
                  std::string::npos)
            << file;
    }
    EXPECT_EQ(error_of([] { Manifest::parse(manifest_with("file", "\"a..b/x.npy\""), "m.json"); }), "");
    nlohmann::json doc = nlohmann::json::parse(manifest_with("stored", "true"));
    doc["goldens"].push_back(doc["goldens"][0]);
    EXPECT_NE(error_of([&] { Manifest::parse(doc.dump(), "m.json"); }).find("\"blur3x3/small.npy\" appears twice"),
              std::string::npos);
}

TEST(Manifest, VerifyReportsAMalformedManifestAsOneProblem) {
    char tmpl[] = "/tmp/golden_test.XXXXXX";
    const std::string dir = mkdtemp(tmpl);
    write_file_atomic(dir + "/MANIFEST.json", manifest_with("stored", "\"no\""));
    const auto problems = verify_goldens(dir);  // threw nlohmann::json::type_error before the fix
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find(".stored: is \"no\", not true or false"), std::string::npos) << problems[0];
    unlink((dir + "/MANIFEST.json").c_str());
    rmdir(dir.c_str());
}

// A write error names its cause and the fix for that cause, not a list of guesses.
TEST(WriteErrors, NameTheRealCause) {
    const std::string missing =
        error_of([] { write_file_atomic("/tmp/golden_test-no-such-dir/x/MANIFEST.json", "{}"); });
    EXPECT_NE(missing.find("No such file or directory; the directory /tmp/golden_test-no-such-dir/x does not exist "
                           "(or another process removed it meanwhile)"),
              std::string::npos)
        << missing;
    EXPECT_EQ(missing.find("has space"), std::string::npos) << missing;
    EXPECT_EQ(missing.find("writable"), std::string::npos) << missing;
    const std::string not_a_dir = error_of([] { write_file_atomic("/dev/null/x.npy", "{}"); });
    EXPECT_NE(not_a_dir.find("Not a directory; the directory /dev/null does not exist"), std::string::npos)
        << not_a_dir;
}

}  // namespace
}  // namespace harness
