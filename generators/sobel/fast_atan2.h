// fast_atan2: a vectorizable atan2 for sobel (Halide 21 lowers atan2 on x86 to a scalar libm call per
// lane; OpenCL and CUDA call their library atan2). Octant reduction, then atan(t) = t P(t^2) on
// t = min(|x|, |y|) / max(|x|, |y|) in [0, 1], P a degree-7 polynomial in t^2 fitted for minimax
// absolute error (3.7e-8 rad in exact arithmetic); in f32, over every gradient pair sobel can produce
// ([-1020, 1020]^2), it is at most 3.0e-7 rad from atan2 in double, where f32 libm atan2f is 3.3e-7
// (fast_atan2_test checks this, and the pipeline's tolerance, over the whole range).
// atan2(+0, +0) = 0, atan2(+0, x < 0) = pi and atan2(-0, x < 0) = -pi, as in C.
#pragma once

#include "Halide.h"

namespace sobel {

inline Halide::Expr fast_atan2(const Halide::Expr &y, const Halide::Expr &x) {
    using Halide::Expr;
    using Halide::reinterpret;
    static const float c[8] = {0.9999993355468114f,   -0.3332986064638416f,  0.19946563936949566f,
                               -0.13908620292367524f, 0.09642171970152978f,  -0.05591195847149387f,
                               0.021862687744062068f, -0.004054488529621347f};
    // Comparisons on the bit patterns (sign bits; non-negative floats order like their bits as
    // integers): the same results, signed zeros as C's atan2 treats them, and no float comparison,
    // which Halide 21's OpenCL backend fails to vectorize under strict_float (sobel_strict/opencl-mali).
    const Expr ax = Halide::abs(x), ay = Halide::abs(y);
    const Expr ax_bits = reinterpret<int32_t>(ax), ay_bits = reinterpret<int32_t>(ay);
    const Expr mx = Halide::max(ax, ay), mn = Halide::min(ax, ay);
    const Expr t = mn / Halide::select(reinterpret<int32_t>(mx) == 0, 1.f, mx);  // 0 / 1 at the origin
    const Expr u = t * t;
    Expr p = c[7];
    for (int k = 6; k >= 0; k--)
        p = p * u + c[k];
    Expr r = p * t;                                                                // atan(t), in [0, pi/4]
    r = Halide::select(ay_bits > ax_bits, 1.57079632679489662f - r, r);            // [0, pi/2]
    r = Halide::select(reinterpret<int32_t>(x) < 0, 3.14159265358979324f - r, r);  // [0, pi]
    return Halide::select(reinterpret<int32_t>(y) < 0, -r, r);
}

}  // namespace sobel
