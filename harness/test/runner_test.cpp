// Runner and bless, on the test-only bad_schedule pipeline (harness/test/pipelines/bad_schedule):
// bless refuses a cpu result that disagrees with the reference and then writes nothing; a variant
// whose generator failed at build time runs as an ERROR carrying the generator's message.
#include "run/runner.h"

#include <unistd.h>

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "run/bless.h"
#include "run/determinism.h"
#include "derivation_fakes.h"
#include "base/error.h"
#include "base/temp_dir.h"
#include "harness/registry.h"
#include "devices/runtime_hooks.h"

namespace harness {
namespace {

// True when nothing (file or directory) was made inside `dir`.
bool nothing_inside(const std::string &dir) {
    return std::system(("test -z \"$(find '" + dir + "' -mindepth 1 -print -quit)\"").c_str()) == 0;
}

// Swaps in a spec for the duration of a test, then restores the registered one.
class SpecOverride {
public:
    explicit SpecOverride(PipelineSpec spec) : saved_(Registry::instance().spec(spec.name)) {
        Registry::instance().add_spec(std::move(spec));
    }
    ~SpecOverride() { Registry::instance().add_spec(saved_); }

private:
    PipelineSpec saved_;
};

TEST(Bless, WritesGoldensWhenTheReferenceAgrees) {
    install_halide_error_handler();
    TempDir dir("runner_test");
    const BlessResult r = bless(dir.path(), {"bad_schedule"}, "");
    EXPECT_TRUE(r.failed.empty());
    const auto &written = r.written;
    ASSERT_EQ(written.size(), 1u);
    EXPECT_NE(written[0].find("golden/bad_schedule/small.npy"), std::string::npos);
    EXPECT_EQ(access((dir.path() + "/bad_schedule/small.npy").c_str(), R_OK), 0);
    EXPECT_EQ(access((dir.path() + "/MANIFEST.json").c_str(), R_OK), 0);
}

TEST(Bless, NamesACaseThatDisagreesWithTheReferenceAndWritesNothingOfIt) {
    install_halide_error_handler();
    PipelineSpec wrong = Registry::instance().spec("bad_schedule");
    wrong.reference = [](const CaseSpec &, const std::vector<Array> &inputs) {
        Array out = inputs.at(0);
        out.data<uint8_t>()[5] ^= 1;  // one element off by one: the reference disagrees
        return std::vector<Array>{out};
    };
    SpecOverride override_spec(wrong);
    TempDir dir("runner_test");
    const BlessResult r = bless(dir.path(), {"bad_schedule"}, "");
    ASSERT_EQ(r.failed.size(), 1u) << "bless accepted a cpu result that disagrees with the reference";
    EXPECT_NE(r.failed[0].find("bad_schedule/small: "), std::string::npos) << r.failed[0];
    EXPECT_NE(r.failed[0].find("disagrees with the reference"), std::string::npos) << r.failed[0];
    EXPECT_TRUE(r.written.empty());
    EXPECT_TRUE(nothing_inside(dir.path())) << "bless wrote into " << dir.path() << " although it failed";
}

TEST(RunCase, VariantThatFailedToCompileIsAnErrorWithTheMessage) {
    const Variant *v = Registry::instance().find("bad_schedule", "opencl");
    if (!v) GTEST_SKIP() << "no opencl profile in this build";
    ASSERT_FALSE(v->compile_error.empty()) << "the impossible gpu schedule compiled";
    TempDir dir("runner_test");
    const RunRecord r = run_case({"bad_schedule", "opencl", "small", "host", dir.path(), ""});
    EXPECT_EQ(r.outcome, Outcome::Error);
    EXPECT_NE(r.message.find("bad_schedule__opencl failed to compile"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("Funcs cannot be scheduled in between GPU block loops"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find('\n'), std::string::npos) << "the message must be one line";
}

TEST(RunCase, CompiledVariantsOfTheSamePipelineAreIntact) {
    const Variant *cpu = Registry::instance().find("bad_schedule", "cpu");
    ASSERT_NE(cpu, nullptr);
    EXPECT_TRUE(cpu->compile_error.empty());
    EXPECT_GT(cpu->metadata->num_arguments, 0);
}

// A determinism child that outlasts its time limit says so (bless then names the case instead of running
// it again itself); a child that finishes gives the digest.
TEST(Determinism, AChildOutOfTimeSaysSo) {
    test_fakes::Fake slow(
        "slow_fake__cpu",
        [](void **a) {
            if (!test_fakes::querying(a, 0)) sleep(5);
            return 0;
        },
        2);
    test_fakes::Fake quick("quick_fake__cpu", test_fakes::self_bounded, 2);
    CaseSpec c;
    c.name = "small";
    c.inputs = {BufferSpec{}};
    c.inputs[0].name = "in";
    c.inputs[0].type = halide_type_t(halide_type_uint, 8);
    c.inputs[0].shape = {4, 4};
    c.outputs = c.inputs;
    c.outputs[0].name = "out";
    TempDir dir("determinism_test");
    std::string error;
    EXPECT_EQ(cpu_digest_in_child(slow.v, c, dir.path(), false, &error, 1), "");
    EXPECT_EQ(error, "the cpu variant did not finish the case within 1 s");
    error.clear();
    EXPECT_EQ(cpu_digest_in_child(quick.v, c, dir.path(), false, &error, 1).size(), 64u) << error;
}

}  // namespace
}  // namespace harness
