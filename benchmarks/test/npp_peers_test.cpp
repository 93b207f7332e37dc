// Every NPP peer computes what its pipeline computes: on a 256x192 case (the `small` case for
// pipelines without make_case), the peer's results (npp_peers.h: NppCall::results) are within
// the documented Agreement of the spec's plain C++ reference. Where NPP cannot be loaded or no CUDA
// device answers (CI, the dev VM), every test is SKIPPED with the reason; on an NVIDIA machine it runs.
#include <gtest/gtest.h>

#include "agreement_check.h"
#include "peers/npp_peers.h"
#include "harness/registry.h"
#include "run/runner.h"

namespace {

using harness::Array;

class NppPeerTest : public testing::TestWithParam<std::string> {};

TEST_P(NppPeerTest, AgreesWithTheReference) {
    if (const std::string why = bench::npp_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
    const std::string name = GetParam();
    const bench::NppPeer &peer = bench::npp_peers().at(name);
    const harness::PipelineSpec &spec = harness::Registry::instance().spec(name);
    const harness::CaseSpec c = spec.make_case ? spec.make_case(256, 192) : spec.find_case("small");
    std::vector<Array> inputs = harness::case_inputs(c);
    if (peer.smooth_input) {  // u8 ramps: value = (x / width + y / height) * 127, per plane
        for (Array &a : inputs) {
            const int w = a.shape.at(0), h = a.shape.at(1);
            for (size_t i = 0; i < a.elements(); i++) {
                const std::vector<int> p = a.coords(i);
                a.bytes[i] = static_cast<uint8_t>((p[0] * 127) / w + (p[1] * 127) / h + (p.size() > 2 ? p[2] : 0));
            }
        }
    }
    const std::vector<Array> reference = spec.reference(c, inputs);

    bench::NppCall call = peer.bind(c, inputs);
    call.run();
    call.run();  // twice: nothing may depend on a first run
    bench::expect_agreement("NPP", name, c, reference, call.results(), peer.agrees, peer.differs);
}

std::vector<std::string> peer_names() {
    std::vector<std::string> names;
    for (const auto &[name, b] : bench::npp_peers())
        names.push_back(name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(All, NppPeerTest, testing::ValuesIn(peer_names()),
                         [](const testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
