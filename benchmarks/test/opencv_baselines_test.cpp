// Every OpenCV baseline computes what its pipeline computes: on the pipeline's `small` case, the
// baseline's results (opencv_baselines.h: OpenCvCall::results) are within the documented Agreement
// of the spec's plain C++ reference. Run with 4 pool threads, so that the banded calls split the 48
// rows into 32 bands and every band seam is checked against the whole-image reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "baselines/opencv_baselines.h"
#include "harness/registry.h"
#include "run/runner.h"

namespace {

using harness::Array;

// Largest |a - b| over all elements, taken modulo `period` when it is not 0.
double max_abs_diff(const Array &a, const Array &b, double period) {
    double worst = 0;
    for (size_t i = 0; i < a.elements(); i++) {
        double d = std::fabs(a.value(i) - b.value(i));
        if (period > 0) {
            d = std::fmod(d, period);
            d = std::min(d, period - d);
        }
        worst = std::max(worst, d);
    }
    return worst;
}

class OpenCvBaselineTest : public testing::TestWithParam<std::string> {};

TEST_P(OpenCvBaselineTest, AgreesWithTheReference) {
    const std::string name = GetParam();
    const bench::OpenCvBaseline &baseline = bench::opencv_baselines().at(name);
    const harness::PipelineSpec &spec = harness::Registry::instance().spec(name);  // throws for an unknown name
    const harness::CaseSpec &c = spec.find_case("small");
    const std::vector<Array> inputs = harness::case_inputs(c);
    const std::vector<Array> reference = spec.reference(c, inputs);

    bench::opencv_set_threads(4);
    bench::OpenCvCall call = baseline.bind(c, inputs);
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
        const double diff = max_abs_diff(got, want, agreement.period);
        std::printf("%s/%s: max |OpenCV - reference| = %g (allowed %g)\n", name.c_str(), output.c_str(), diff,
                    agreement.max_abs);
        EXPECT_LE(diff, agreement.max_abs) << name << "/" << output << ": " << baseline.differs;
    }
}

std::vector<std::string> baseline_names() {
    std::vector<std::string> names;
    for (const auto &[name, b] : bench::opencv_baselines())
        names.push_back(name);
    return names;
}

INSTANTIATE_TEST_SUITE_P(All, OpenCvBaselineTest, testing::ValuesIn(baseline_names()),
                         [](const testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
