// fast_atan2_test: sobel's fast_atan2 over every gradient pair sobel can produce (gx, gy in
// [-1020, 1020]: 4,165,681 pairs), JIT-compiled the ways the profiles compile it (vectorized with the
// host's features, scalar for the featureless target, strict_float), against std::atan2 in double (what the
// spec's reference computes). Fails when any value is outside sobel's tolerance (AbsRel 1e-5 + 1e-5
// |ref|, sobel_spec.cpp) or more than the stated 4e-7 rad from the reference.
#include <cmath>
#include <cstdio>
#include <string>

#include "Halide.h"
#include "fast_atan2.h"

using namespace Halide;

namespace {

constexpr int kRange = 1020;  // |gx|, |gy| <= 4 * 255
constexpr double kAtol = 1e-5, kRtol = 1e-5, kStatedBound = 4e-7;

bool check(const std::string &name, const Target &target, int lanes) {
    Var x("x"), y("y");
    Func f("fast_atan2_" + name);
    f(x, y) = sobel::fast_atan2(cast<float>(y - kRange), cast<float>(x - kRange));
    if (lanes > 1) f.vectorize(x, lanes);
    const int n = 2 * kRange + 1;
    Buffer<float> out = f.realize({n, n}, target);
    double worst = 0, worst_ratio = 0;
    int wx = 0, wy = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            const double ref = std::atan2(double(j - kRange), double(i - kRange));
            const double err = std::fabs(double(out(i, j)) - ref);
            const double ratio = err / (kAtol + kRtol * std::fabs(ref));
            if (!(err <= worst)) {  // NaN counts as worst
                worst = std::isnan(err) ? INFINITY : err;
                wx = i - kRange, wy = j - kRange;
            }
            if (!(ratio <= worst_ratio)) worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
        }
    }
    const bool ok = worst <= kStatedBound && worst_ratio <= 1.0;
    std::printf("%-8s %-40s max |err| %.3g rad at (gx=%d, gy=%d), %.4f of the tolerance: %s\n", name.c_str(),
                target.to_string().c_str(), worst, wx, wy, worst_ratio, ok ? "ok" : "FAIL");
    return ok;
}

// Signed zeros and the axes, as C's atan2 gives them (sobel's gradients are never -0; a reuse may be).
// From a buffer, not constants, so that the simplifier cannot fold them.
bool check_special(const Target &target) {
    const float z = 0.f;
    const float pairs[][2] = {{z, z}, {-z, z}, {z, -z}, {-z, -z}, {z, -1.f}, {-z, -1.f}, {1.f, z}, {-1.f, -z}};
    const int n = sizeof(pairs) / sizeof(pairs[0]);
    Buffer<float> in(2, n);
    for (int i = 0; i < n; i++)
        in(0, i) = pairs[i][0], in(1, i) = pairs[i][1];
    Var i("i");
    Func f;
    f(i) = sobel::fast_atan2(in(0, i), in(1, i));
    Buffer<float> out = f.realize({n}, target);
    bool ok = true;
    for (int k = 0; k < n; k++) {
        const float want = std::atan2(pairs[k][0], pairs[k][1]);
        if (out(k) != want || std::signbit(out(k)) != std::signbit(want)) {
            std::printf("special  fast_atan2(%g, %g) = %g, atan2 says %g: FAIL\n", pairs[k][0], pairs[k][1], out(k),
                        want);
            ok = false;
        }
    }
    if (ok) std::printf("special  signed zeros and axes: ok\n");
    return ok;
}

}  // namespace

int main() {
    const Target host = get_host_target();
    bool ok = check("host", host, host.natural_vector_size<float>());
    ok = check("no features", Target(host.os, host.arch, host.bits), 1) && ok;  // the cpu profile's: no features
    ok = check("strict", host.with_feature(Target::StrictFloat), host.natural_vector_size<float>()) && ok;
    ok = check_special(host) && ok;
    return ok ? 0 : 1;
}
