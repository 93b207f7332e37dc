// PNG artifacts (images.h): golden, output and difference pictures of 2-D and 3-D outputs (stb_image_write).
#include "values/images.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/error.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace harness {

namespace {

struct Rgb {
    int w = 0, h = 0;
    std::vector<uint8_t> px;  // RGB, row-major
};

// Converts to 8-bit RGB, scaling by [lo, hi].
Rgb to_rgb(const Array &a, double lo, double hi) {
    Rgb img;
    img.w = a.shape[0];
    img.h = a.shape[1];
    const int channels = a.shape.size() == 3 ? a.shape[2] : 1;
    img.px.resize(static_cast<size_t>(img.w) * img.h * 3);
    const double scale = hi > lo ? 255.0 / (hi - lo) : 1.0;
    const size_t plane = static_cast<size_t>(img.w) * img.h;
    for (size_t i = 0; i < plane; i++) {
        for (int c = 0; c < 3; c++) {
            const int src_c = (channels == 3 || channels == 4) ? c : 0;
            const double v = a.value(i + plane * src_c);
            const double s = std::isfinite(v) ? (v - lo) * scale : 255.0;
            img.px[i * 3 + c] = static_cast<uint8_t>(std::clamp(s, 0.0, 255.0));
        }
    }
    return img;
}

void write_png(const std::string &path, const Rgb &img) {
    if (!stbi_write_png(path.c_str(), img.w, img.h, 3, img.px.data(), img.w * 3)) {
        throw Error("cannot write " + path + "; check that the artifacts directory is writable");
    }
}

}  // namespace

bool write_comparison_pngs(const Array &golden, const Array &output, const std::string &prefix) {
    if (golden.shape != output.shape || golden.shape.size() < 2 || golden.shape.size() > 3 || golden.elements() == 0) {
        return false;
    }
    double lo = 0, hi = 255;
    if (!(golden.type.code == halide_type_uint && golden.type.bits == 8)) {
        lo = INFINITY;
        hi = -INFINITY;
        for (size_t i = 0; i < golden.elements(); i++) {
            const double v = golden.value(i);
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        if (!(lo < hi)) {
            lo = 0;
            hi = 1;
        }
    }
    const Rgb g = to_rgb(golden, lo, hi), o = to_rgb(output, lo, hi);
    Rgb d = g;
    const size_t plane = static_cast<size_t>(g.w) * g.h;
    const int channels = golden.shape.size() == 3 ? golden.shape[2] : 1;
    for (size_t i = 0; i < plane; i++) {
        double err = 0;
        for (int c = 0; c < channels; c++) {
            const double e = golden.value(i + plane * c), a = output.value(i + plane * c);
            const bool same = e == a || (std::isnan(e) && std::isnan(a));
            if (!same) err = std::max(err, std::isfinite(a - e) ? std::fabs(a - e) / std::max(hi - lo, 1e-30) : 1.0);
        }
        if (err > 0) {
            d.px[i * 3] = static_cast<uint8_t>(std::min(255.0, 128 + 127 * std::min(1.0, err * 8)));
            d.px[i * 3 + 1] = d.px[i * 3 + 2] = 0;
        } else {
            for (int c = 0; c < 3; c++)
                d.px[i * 3 + c] = static_cast<uint8_t>(d.px[i * 3 + c] / 3);
        }
    }
    write_png(prefix + ".golden.png", g);
    write_png(prefix + ".output.png", o);
    write_png(prefix + ".diff.png", d);
    return true;
}

}  // namespace harness
