// Unit tests of the parent/child protocol of `run` (run/child_protocol.h): what the parent writes, the
// child reads back, field by field, for one case and for a batch; and a malformed tasks file is one error.
#include "run/child_protocol.h"

#include <gtest/gtest.h>

#include "base/error.h"
#include "base/files.h"
#include "base/temp_dir.h"

namespace harness {
namespace {

RunRequest request(const std::string &pipeline, const std::string &c, const std::string &mode) {
    RunRequest r;
    r.pipeline = pipeline;
    r.profile = "opencl";
    r.case_name = c;
    r.mode = mode;
    r.golden_dir = "/g";
    r.artifacts_dir = "/a";
    r.repeats = 7;
    return r;
}

ChildCall round_trip(const ChildCall &call) {
    const std::vector<std::string> words = child_words(call);
    const Args args(words.at(0), std::vector<std::string>(words.begin() + 1, words.end()), child_options(call.batch));
    return read_child_call(args);
}

void expect_same(const ChildCall &a, const ChildCall &b) {
    EXPECT_EQ(a.batch, b.batch);
    EXPECT_EQ(a.record, b.record);
    EXPECT_EQ(a.device, b.device);
    EXPECT_EQ(a.shape_cache, b.shape_cache);
    EXPECT_EQ(a.release_device, b.release_device);
    ASSERT_EQ(a.cases.size(), b.cases.size());
    for (size_t i = 0; i < a.cases.size(); i++) {
        const RunRequest &x = a.cases[i], &y = b.cases[i];
        EXPECT_EQ(
            std::vector<std::string>({x.pipeline, x.profile, x.case_name, x.mode, x.golden_dir, x.artifacts_dir}),
            std::vector<std::string>({y.pipeline, y.profile, y.case_name, y.mode, y.golden_dir, y.artifacts_dir}));
        EXPECT_EQ(x.repeats, y.repeats);
    }
}

TEST(ChildProtocol, OneCaseRoundTrips) {
    ChildCall call;
    call.cases = {request("blur3x3", "small", "device")};
    call.record = "/t/record-0.json";
    call.device = "mali-g52";
    call.shape_cache = "/t/shapes";
    call.release_device = false;
    expect_same(call, round_trip(call));
    call.device = call.shape_cache = "";
    call.cases[0].artifacts_dir = "";
    call.release_device = true;
    expect_same(call, round_trip(call));
}

TEST(ChildProtocol, BatchRoundTripsThroughItsTasksFile) {
    TempDir tmp("child-protocol-test");
    ChildCall call;
    call.batch = true;
    call.cases = {request("blur3x3", "small", "host"), request("sobel", "odd", "wrapped-host-visible")};
    call.record = tmp.path() + "/batch-0";
    call.tasks_file = tmp.path() + "/tasks-0.json";
    call.shape_cache = tmp.path() + "/shapes";
    expect_same(call, round_trip(call));
    EXPECT_EQ(batch_start_file(call.record, 1), call.record + ".1.start");
    EXPECT_EQ(batch_record_file(call.record, 1), call.record + ".1.json");
}

// The child's --repeats is the row `run` shows: the same default and range.
TEST(ChildProtocol, RepeatsIsTheRunRow) {
    const Args absent(child_command(false), {}, child_options(false));
    EXPECT_EQ(read_child_call(absent).cases.at(0).repeats, 3);
    EXPECT_THROW(Args(child_command(true), {"--repeats", "101"}, child_options(true)), Error);
}

TEST(ChildProtocol, AMalformedTasksFileIsOneError) {
    TempDir tmp("child-protocol-test");
    const std::string tasks = tmp.path() + "/tasks.json";
    for (const char *text : {"{}", "[[\"a\", \"cpu\", \"small\"]]", "[[1, 2, 3, 4]]", "not json"}) {
        write_file_atomic(tasks, text);
        const Args args(child_command(true), {"--tasks", tasks}, child_options(true));
        EXPECT_THROW(read_child_call(args), Error) << text;
    }
}

}  // namespace
}  // namespace harness
