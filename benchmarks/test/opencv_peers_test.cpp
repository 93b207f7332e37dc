// Every OpenCV peer computes what its pipeline computes: on the pipeline's `small` case, the
// peer's results (opencv_peers.h: OpenCvCall::results) are within the documented Agreement
// of the spec's plain C++ reference. Run with 4 pool threads, so that the banded calls split the 48
// rows into 32 bands and every band seam is checked against the whole-image reference.
#include <gtest/gtest.h>

#include "agreement_check.h"
#include "peers/opencv_peers.h"
#include "harness/registry.h"
#include "run/runner.h"

namespace {

using harness::Array;

class OpenCvPeerTest : public testing::TestWithParam<std::string> {};

TEST_P(OpenCvPeerTest, AgreesWithTheReference) {
    const std::string name = GetParam();
    const bench::OpenCvPeer &peer = bench::opencv_peers().at(name);
    const harness::PipelineSpec &spec = harness::Registry::instance().spec(name);  // throws for an unknown name
    const harness::CaseSpec &c = spec.find_case("small");
    const std::vector<Array> inputs = harness::case_inputs(c);
    const std::vector<Array> reference = spec.reference(c, inputs);

    bench::opencv_set_threads(4);
    bench::OpenCvCall call = peer.bind(c, inputs);
    call.run();
    call.run();  // twice: nothing may depend on a first run
    bench::expect_agreement("OpenCV", name, c, reference, call.results(), peer.agrees, peer.differs);
}

std::vector<std::string> peer_names() {
    std::vector<std::string> names;
    for (const auto &[name, b] : bench::opencv_peers())
        names.push_back(name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(All, OpenCvPeerTest, testing::ValuesIn(peer_names()),
                         [](const testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
