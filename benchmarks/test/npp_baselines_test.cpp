// Every NPP baseline computes what its pipeline computes: on a 256x192 case (the `small` case for
// pipelines without make_case), the baseline's results (npp_baselines.h: NppCall::results) are within
// the documented Agreement of the spec's plain C++ reference. Where NPP cannot be loaded or no CUDA
// device answers (CI, the dev VM), every test is SKIPPED with the reason; on an NVIDIA machine it runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "baselines/npp_baselines.h"
#include "harness/registry.h"
#include "harness/runner.h"

namespace {

using harness::Array;

// Largest |a - b| over all elements, taken modulo `period` when it is not 0; the count above `allowed`.
double max_abs_diff(const Array &a, const Array &b, double period, double allowed, size_t *above) {
    double worst = 0;
    *above = 0;
    for (size_t i = 0; i < a.elements(); i++) {
        double d = std::fabs(a.value(i) - b.value(i));
        if (period > 0) {
            d = std::fmod(d, period);
            d = std::min(d, period - d);
        }
        worst = std::max(worst, d);
        *above += d > allowed;
    }
    return worst;
}

class NppBaselineTest : public testing::TestWithParam<std::string> {};

TEST_P(NppBaselineTest, AgreesWithTheReference) {
    if (const std::string why = bench::npp_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
    const std::string name = GetParam();
    const bench::NppBaseline &baseline = bench::npp_baselines().at(name);
    const harness::PipelineSpec &spec = harness::Registry::instance().spec(name);
    const harness::CaseSpec c = spec.make_case ? spec.make_case(256, 192) : spec.find_case("small");
    std::vector<Array> inputs = harness::case_inputs(c);
    if (baseline.smooth_input) {  // u8 ramps: value = (x / width + y / height) * 127, per plane
        for (Array &a : inputs) {
            const int w = a.shape.at(0), h = a.shape.at(1);
            for (size_t i = 0; i < a.elements(); i++) {
                const std::vector<int> p = a.coords(i);
                a.bytes[i] = static_cast<uint8_t>((p[0] * 127) / w + (p[1] * 127) / h + (p.size() > 2 ? p[2] : 0));
            }
        }
    }
    const std::vector<Array> reference = spec.reference(c, inputs);

    bench::NppCall call = baseline.bind(c, inputs);
    call.run();
    call.run();  // twice: nothing may depend on a first run
    const std::map<std::string, Array> results = call.results();
    ASSERT_FALSE(baseline.agrees.empty()) << name << ": no output is checked";
    for (const auto &[output, agreement] : baseline.agrees) {
        const auto it =
            std::find_if(c.outputs.begin(), c.outputs.end(), [&](const auto &o) { return o.name == output; });
        ASSERT_NE(it, c.outputs.end()) << name << " has no output '" << output << "'";
        const Array &want = reference.at(static_cast<size_t>(it - c.outputs.begin()));
        ASSERT_EQ(results.count(output), 1u) << name << ": the baseline gives no '" << output << "'";
        const Array &got = results.at(output);
        ASSERT_EQ(got.shape, want.shape) << name << "/" << output;
        ASSERT_EQ(got.type.code, want.type.code) << name << "/" << output;
        size_t above = 0;
        const double diff = max_abs_diff(got, want, agreement.period, agreement.max_abs, &above);
        std::printf("%s/%s: max |NPP - reference| = %g (allowed %g; %zu of %zu elements above)\n", name.c_str(),
                    output.c_str(), diff, agreement.max_abs, above, got.elements());
        EXPECT_LE(diff, agreement.max_abs) << name << "/" << output << ": " << baseline.differs;
    }
}

std::vector<std::string> baseline_names() {
    std::vector<std::string> names;
    for (const auto &[name, b] : bench::npp_baselines())
        names.push_back(name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(All, NppBaselineTest, testing::ValuesIn(baseline_names()),
                         [](const testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
