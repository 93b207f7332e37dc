// Unit tests of the device probes' children (devices/probe_in_child.h): ProbeOnce's child runs from
// start(), two started probes run at the same time, the result is kept, a dying child is an error.
#include "devices/probe_in_child.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <unistd.h>

namespace harness {
namespace {

bool exists(const std::string &path) {
    return access(path.c_str(), F_OK) == 0;
}

// In the child: creates `mine`, then waits up to 20 s for `theirs`; {"met": whether it appeared}.
nlohmann::json meet(const std::string &mine, const std::string &theirs) {
    std::ofstream(mine) << "here\n";
    for (int i = 0; i < 2000 && !exists(theirs); i++)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return {{"met", exists(theirs)}};
}

class ProbeOnceTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/probe-once-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override { (void)!std::system(("rm -rf '" + dir_ + "'").c_str()); }
    std::string dir_;
};

TEST_F(ProbeOnceTest, TwoStartedProbesRunAtTheSameTime) {
    // Each child waits for the other's file: they meet only if both run before either is waited for
    // (probes run one after another would give {"met": false} after 20 s).
    const std::string a = dir_ + "/a", b = dir_ + "/b";
    ProbeOnce first([&] { return meet(a, b); }, "first"), second([&] { return meet(b, a); }, "second");
    first.start();
    second.start();
    EXPECT_EQ(first.get(), (nlohmann::json{{"met", true}}));
    EXPECT_EQ(second.get(), (nlohmann::json{{"met", true}}));
}

TEST_F(ProbeOnceTest, RunsOnceAndKeepsItsResult) {
    const std::string log = dir_ + "/runs";
    ProbeOnce probe(
        [&] {
            std::ofstream(log, std::ios::app) << "run\n";
            return nlohmann::json{{"value", 7}};
        },
        "counting");
    probe.start();
    probe.start();
    EXPECT_EQ(probe.get()["value"], 7);
    EXPECT_EQ(probe.get()["value"], 7);
    std::ifstream in(log);
    std::string line;
    int runs = 0;
    while (std::getline(in, line))
        runs++;
    EXPECT_EQ(runs, 1);
}

TEST_F(ProbeOnceTest, AChildThatDiesIsAnError) {
    ProbeOnce probe([]() -> nlohmann::json { abort(); }, "Dying");
    const nlohmann::json r = probe.get();  // get() alone starts it too
    ASSERT_TRUE(r.contains("error"));
    EXPECT_NE(r["error"].get<std::string>().find("Dying probe died with signal"), std::string::npos) << r.dump();
}

}  // namespace
}  // namespace harness
