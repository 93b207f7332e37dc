// Per-platform hashes of goldens that are not stored (GoldenEntry::platform_sha256, bless --platform-hash), on
// the test-only bad_schedule pipeline with its case made a nightly one: a platform whose cpu result differs is
// an error naming --platform-hash until its hash is recorded; bless --platform-hash records it without touching
// the entry's own hash; a plain bless that changes the entry drops the platform hashes.
#include <string>

#include <gtest/gtest.h>

#include "error_of.h"
#include "base/error.h"
#include "base/files.h"
#include "base/temp_dir.h"
#include "devices/runtime_hooks.h"
#include "golden/golden.h"
#include "harness/registry.h"
#include "run/bless.h"

namespace harness {
namespace {

const char *kOther = "arm-64-linux-no_runtime";  // the platform the test pretends blessed the golden

class NightlyCase {
public:
    NightlyCase() : saved_(Registry::instance().spec("bad_schedule")) {
        PipelineSpec s = saved_;
        s.cases.at(0).nightly = true;
        Registry::instance().add_spec(s);
    }
    ~NightlyCase() { Registry::instance().add_spec(saved_); }

private:
    PipelineSpec saved_;
};

std::string this_target() {
    return Registry::instance().find("bad_schedule", "cpu")->metadata->target;
}

// Makes the golden look blessed on kOther with another result (`hash`).
void pretend_blessed_elsewhere(const std::string &dir, const std::string &hash) {
    Manifest m = Manifest::load(dir);
    GoldenEntry e = *m.find("bad_schedule/small.npy");
    e.target = kOther;
    e.sha256 = hash;
    m.upsert(e);
    write_file_atomic(dir + "/MANIFEST.json", m.text());
}

TEST(PlatformHash, ManifestKeepsItOnlyForUnstoredGoldens) {
    const std::string entry = R"({"file": "p/large.npy", "pipeline": "p", "case": "large", "output": "output",
        "dtype": "float32", "shape": [4], "sha256": "aa", "stored": false, "target": "x86-64-linux",
        "platform_sha256": {"arm-64-linux": "bb"}})";
    const Manifest m = Manifest::parse(R"({"format": 1, "goldens": [)" + entry + "]}", "m.json");
    const GoldenEntry &g = m.entries().at(0);
    EXPECT_EQ(g.sha256_for("arm-64-linux"), "bb");
    EXPECT_EQ(g.sha256_for("x86-64-linux"), "aa");
    EXPECT_EQ(g.sha256_for("riscv-64-linux"), "aa");
    EXPECT_EQ(Manifest::parse(m.text(), "m.json").entries().at(0).platform_sha256, g.platform_sha256);
    std::string stored = entry;
    stored.replace(stored.find("\"stored\": false"), 15, "\"stored\": true");
    EXPECT_NE(error_of([&] {
                  Manifest::parse(R"({"format": 1, "goldens": [)" + stored + "]}", "m.json");
              }).find("only for goldens that are not stored"),
              std::string::npos);
}

TEST(PlatformHash, BlessRecordsThisPlatformBesideTheBlessingOne) {
    install_halide_error_handler();
    NightlyCase nightly;
    TempDir dir("platform_hash_test");
    ASSERT_TRUE(bless(dir.path(), {"bad_schedule"}).failed.empty());
    const std::string mine = Manifest::load(dir.path()).find("bad_schedule/small.npy")->sha256;
    const std::string theirs(64, 'f');
    pretend_blessed_elsewhere(dir.path(), theirs);

    // This platform's result is not kOther's: an error naming the fix, not a silent pass.
    const std::string reproduced_wrong = "not the cpu result";
    const std::string err = error_of([&] {
        load_verified_golden(dir.path(), Manifest::load(dir.path()), "bad_schedule/small.npy", &reproduced_wrong,
                             this_target());
    });
    EXPECT_NE(err.find("bless --platform-hash"), std::string::npos) << err;
    EXPECT_NE(err.find(kOther), std::string::npos) << err;

    const BlessResult r = bless(dir.path(), {"bad_schedule"}, "", 0, /*platform_hash=*/true);
    ASSERT_TRUE(r.failed.empty()) << r.failed.at(0);
    ASSERT_EQ(r.written.size(), 1u);
    EXPECT_NE(r.written[0].find("platform hash"), std::string::npos) << r.written[0];
    const GoldenEntry e = *Manifest::load(dir.path()).find("bad_schedule/small.npy");
    EXPECT_EQ(e.sha256, theirs);  // the blessing platform's hash stays
    EXPECT_EQ(e.target, kOther);
    ASSERT_EQ(e.platform_sha256.count(this_target()), 1u);
    EXPECT_EQ(e.platform_sha256.at(this_target()), mine);
    EXPECT_FALSE(e.stored);

    // This platform's true result (the same bytes blessed as a stored golden) passes against its platform hash,
    // and still fails against the blessing platform's.
    TempDir stored("platform_hash_test");
    std::string cpu_bytes;
    {
        PipelineSpec plain_spec = Registry::instance().spec("bad_schedule");
        plain_spec.cases.at(0).nightly = false;
        Registry::instance().add_spec(plain_spec);
        ASSERT_TRUE(bless(stored.path(), {"bad_schedule"}).failed.empty());
        plain_spec.cases.at(0).nightly = true;
        Registry::instance().add_spec(plain_spec);
        cpu_bytes = read_file(stored.path() + "/bad_schedule/small.npy");
    }
    const Manifest recorded = Manifest::load(dir.path());
    EXPECT_NO_THROW(load_verified_golden(dir.path(), recorded, "bad_schedule/small.npy", &cpu_bytes, this_target()));
    EXPECT_NE(error_of([&] {
                  load_verified_golden(dir.path(), recorded, "bad_schedule/small.npy", &cpu_bytes, kOther);
              }).find("no longer reproduces"),
              std::string::npos);

    // A result that changes on this platform later is caught against its own hash.
    const std::string err2 = error_of([&] {
        load_verified_golden(dir.path(), Manifest::load(dir.path()), "bad_schedule/small.npy", &reproduced_wrong,
                             this_target());
    });
    EXPECT_NE(err2.find("platform_sha256"), std::string::npos) << err2;

    // A plain bless here makes this platform the entry's own, and drops the stale platform hashes.
    const BlessResult plain = bless(dir.path(), {"bad_schedule"});
    ASSERT_EQ(plain.written.size(), 1u);
    EXPECT_NE(plain.written[0].find("dropped the platform hashes"), std::string::npos) << plain.written[0];
    const GoldenEntry after = *Manifest::load(dir.path()).find("bad_schedule/small.npy");
    EXPECT_EQ(after.sha256, mine);
    EXPECT_TRUE(after.platform_sha256.empty());
}

TEST(PlatformHash, RefusedOnTheBlessingPlatformAndForStoredGoldens) {
    install_halide_error_handler();
    TempDir dir("platform_hash_test");
    {
        NightlyCase nightly;
        ASSERT_TRUE(bless(dir.path(), {"bad_schedule"}).failed.empty());
        const BlessResult r = bless(dir.path(), {"bad_schedule"}, "", 0, true);
        ASSERT_EQ(r.failed.size(), 1u);
        EXPECT_NE(r.failed[0].find("blessed on this target"), std::string::npos) << r.failed[0];
    }
    // A stored golden is compared under its tolerance on every platform: --platform-hash selects nothing.
    TempDir stored("platform_hash_test");
    const BlessResult none = bless(stored.path(), {"bad_schedule"}, "", 0, true);
    EXPECT_TRUE(none.written.empty() && none.failed.empty());
}

}  // namespace
}  // namespace harness
