// resize_bilinear: cases (up and down), inputs, tolerance and the plain C++ reference (double math).
#include <algorithm>
#include <cmath>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &c, const std::vector<Array> &inputs) {
    const Array &in = inputs.at(0);
    const int iw = in.shape.at(0), ih = in.shape.at(1), ch = in.shape.at(2);
    const int ow = c.outputs.at(0).shape.at(0), oh = c.outputs.at(0).shape.at(1);
    Array out(in.type, {ow, oh, ch});
    const uint8_t *src = in.data<uint8_t>();
    auto at = [&](int x, int y, int k) {
        x = std::clamp(x, 0, iw - 1);
        y = std::clamp(y, 0, ih - 1);
        return double(src[(static_cast<size_t>(k) * ih + y) * iw + x]);
    };
    for (int k = 0; k < ch; k++) {
        for (int y = 0; y < oh; y++) {
            const double sy = (y + 0.5) * ih / oh - 0.5;
            const int y0 = static_cast<int>(std::floor(sy));
            const double fy = sy - y0;
            for (int x = 0; x < ow; x++) {
                const double sx = (x + 0.5) * iw / ow - 0.5;
                const int x0 = static_cast<int>(std::floor(sx));
                const double fx = sx - x0;
                const double top = at(x0, y0, k) + (at(x0 + 1, y0, k) - at(x0, y0, k)) * fx;
                const double bot = at(x0, y0 + 1, k) + (at(x0 + 1, y0 + 1, k) - at(x0, y0 + 1, k)) * fx;
                const double v = top + (bot - top) * fy;
                out.data<uint8_t>()[(static_cast<size_t>(k) * oh + y) * ow + x] =
                    static_cast<uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
            }
        }
    }
    return {out};
}

harness::PipelineSpec make_resize_bilinear_spec() {
    harness::PipelineSpec spec;
    spec.name = "resize_bilinear";
    spec.summary = "bilinear resize of a planar u8 RGB image, up and down, pixel-centre aligned, clamped edges";
    // Coordinates and weights are f32 (double in the reference) and FMA contraction differs by
    // device: a value within an ULP of .5 may round either way. The host schedule on AVX2 and arm
    // interpolates in fixed point (8.8 pixels, 0.16 weights; within 4/256 of the f32 value), so values
    // that close to .5 may round either way there. Any real error (a wrong neighbour, an unclamped
    // edge) is off by far more than 1.
    spec.tolerance = harness::Tolerance::absolute(1);
    spec.tolerance_reason =
        "f32 interpolation (8.8 fixed point in the AVX2/arm host schedule) rounded to u8: values near a .5 "
        "boundary may round either way";
    const halide_type_t u8{halide_type_uint, 8, 1};
    struct Size {
        const char *name;
        int iw, ih, ow, oh;
        bool nightly;
    };
    auto make = [=](int iw, int ih, int ow, int oh) {
        CaseSpec c;
        c.inputs = {{"input", u8, {iw, ih, 3}, {harness::Recipe::Kind::UniformInt, 0, 255, 0x2E51'0001}}};
        c.outputs = {{"output", u8, {ow, oh, 3}, {}}};
        return c;
    };
    for (const Size &z : {Size{"small", 64, 48, 150, 101, false},  // up x2.34 / x2.1
                          Size{"odd", 257, 131, 100, 61, false},   // down, odd sizes
                          Size{"large", 1920, 1080, 1280, 720, true}}) {
        CaseSpec c = make(z.iw, z.ih, z.ow, z.oh);
        c.name = z.name;
        c.nightly = z.nightly;
        spec.cases.push_back(c);
    }
    // Benchmarks only (no test cases added): a W x H input scaled down by 2/3 as in `large`
    // (1920x1080 -> 1280x720), so that the benchmarks' 16384x16384 GPU size past L2 exists for this
    // pipeline too; every input pixel is read (source step 1.5 px, 2x2 footprint).
    spec.make_case = [=](int width, int height) { return make(width, height, width * 2 / 3, height * 2 / 3); };
    spec.reference = reference;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_resize_bilinear_spec);
