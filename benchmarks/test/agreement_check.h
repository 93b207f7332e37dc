// What opencv_peers_test and npp_peers_test share: every output a peer says it agrees on,
// compared with the spec's reference under that Agreement (peers/opencv_peers.h), with the
// measured difference printed so that the agreement can be set from it.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "peers/opencv_peers.h"
#include "harness/spec.h"

namespace bench {

// Largest |a - b| over all elements, taken modulo `period` when it is not 0; *above counts those > allowed.
inline double max_abs_diff(const harness::Array &a, const harness::Array &b, double period, double allowed,
                           size_t *above) {
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

// EXPECTs every output of `agrees` within its agreement of the reference (`who`: "OpenCV", "NPP").
inline void expect_agreement(const std::string &who, const std::string &name, const harness::CaseSpec &c,
                             const std::vector<harness::Array> &reference,
                             const std::map<std::string, harness::Array> &results,
                             const std::map<std::string, Agreement> &agrees, const std::string &differs) {
    ASSERT_FALSE(agrees.empty()) << name << ": no output is checked";
    for (const auto &[output, agreement] : agrees) {
        const auto it =
            std::find_if(c.outputs.begin(), c.outputs.end(), [&](const auto &o) { return o.name == output; });
        ASSERT_NE(it, c.outputs.end()) << name << " has no output '" << output << "'";
        const harness::Array &want = reference.at(static_cast<size_t>(it - c.outputs.begin()));
        ASSERT_EQ(results.count(output), 1u) << name << ": the peer gives no '" << output << "'";
        const harness::Array &got = results.at(output);
        ASSERT_EQ(got.shape, want.shape) << name << "/" << output;
        ASSERT_EQ(got.type.code, want.type.code) << name << "/" << output;
        size_t above = 0;
        const double diff = max_abs_diff(got, want, agreement.period, agreement.max_abs, &above);
        std::printf("%s/%s: max |%s - reference| = %g (allowed %g; %zu of %zu elements above)\n", name.c_str(),
                    output.c_str(), who.c_str(), diff, agreement.max_abs, above, got.elements());
        EXPECT_LE(diff, agreement.max_abs) << name << "/" << output << ": " << differs;
    }
}

}  // namespace bench
