// Deterministic inputs (inputs.h): splitmix64 fills, patterns and PNG image inputs checked by sha256.
#include "variant/inputs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "values/element_type.h"
#include "base/error.h"
#include "base/files.h"
#include "golden/golden.h"
#include "base/sha256.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb/stb_image.h>

namespace harness {

uint64_t SplitMix64::next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t SplitMix64::uniform_int(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;  // 0 means the full 64-bit range
    const uint64_t r = next();
    return lo + static_cast<int64_t>(span ? r % span : r);
}

double SplitMix64::uniform_real(double lo, double hi) {
    const double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * unit;
}

namespace {

// The value of a shape-driven recipe (gradient, checkerboard, constant) at element (x, y).
double pattern_value(const Recipe &r, int x, int y, int w, int h) {
    switch (r.kind) {
    case Recipe::Kind::Gradient: {
        const double tx = w > 1 ? double(x) / (w - 1) : 0.0, ty = h > 1 ? double(y) / (h - 1) : 0.0;
        return r.lo + (r.hi - r.lo) * ((tx + ty) / 2);
    }
    case Recipe::Kind::Checkerboard:
        return ((x / r.cell + y / r.cell) % 2) ? r.hi : r.lo;
    default:
        return r.lo;
    }
}

// The 16-bit float just below `f` (a finite, non-NaN value).
template<typename T>
T next_below(T f) {
    if (f.bits == 0) return T::from_bits(0x8001);                                // +0: the smallest negative subnormal
    return T::from_bits(uint16_t((f.bits & 0x8000) ? f.bits + 1 : f.bits - 1));  // away from / toward zero
}

template<typename T>
void fill(Array &a, const Recipe &r, SplitMix64 &rng) {
    T *p = a.data<T>();
    const size_t n = a.elements();
    if (r.kind == Recipe::Kind::Gradient || r.kind == Recipe::Kind::Checkerboard || r.kind == Recipe::Kind::Constant) {
        const double tmin = static_cast<double>(std::numeric_limits<T>::lowest());
        const double tmax = static_cast<double>(std::numeric_limits<T>::max());
        if (std::is_integral<T>::value && (std::min(r.lo, r.hi) < tmin || std::max(r.lo, r.hi) > tmax)) {
            throw Error("input recipe " + r.describe() + " does not fit " + dtype_name(a.type) +
                        "; fix the values in the spec");
        }
        if (r.kind == Recipe::Kind::Checkerboard && r.cell < 1) {
            throw Error("input recipe " + r.describe() + " needs cell >= 1");
        }
        const int w = a.shape.empty() ? 1 : a.shape[0];
        const int h = a.shape.size() < 2 ? 1 : a.shape[1];
        for (size_t i = 0; i < n; i++) {
            const int x = static_cast<int>(i % static_cast<size_t>(w));
            const int y = static_cast<int>((i / static_cast<size_t>(w)) % static_cast<size_t>(h));
            const double v = pattern_value(r, x, y, w, h);
            p[i] = static_cast<T>(std::is_integral<T>::value ? std::floor(v + 0.5) : v);
        }
        return;
    }
    if (r.kind == Recipe::Kind::UniformInt) {
        const double tmin = static_cast<double>(std::numeric_limits<T>::lowest());
        const double tmax = static_cast<double>(std::numeric_limits<T>::max());
        if (std::is_integral<T>::value && (r.lo < tmin || r.hi > tmax || r.lo > r.hi)) {
            throw Error("input recipe " + r.describe() + " does not fit " + dtype_name(a.type) +
                        "; fix the range in the spec");
        }
        for (size_t i = 0; i < n; i++) {
            p[i] = static_cast<T>(rng.uniform_int(static_cast<int64_t>(r.lo), static_cast<int64_t>(r.hi)));
        }
    } else {
        if (std::is_integral<T>::value) {
            throw Error("input recipe " + r.describe() + " is a float recipe for an integer input (" +
                        dtype_name(a.type) + "); use UniformInt");
        }
        for (size_t i = 0; i < n; i++) {
            p[i] = static_cast<T>(rng.uniform_real(r.lo, r.hi));
            if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
                // Rounded to 16 bits a value just below hi becomes hi: the next value down keeps [lo, hi).
                if (double(p[i]) >= r.hi && r.hi > r.lo) p[i] = next_below(p[i]);
            }
        }
    }
}

// An Image recipe: the PNG's pixels, grey (2-D shape) or RGB converted to planar (3-D, 3 channels).
Array load_image(const BufferSpec &spec, const std::string &input_dir) {
    const Recipe &r = spec.recipe;
    const std::string dir = input_dir.empty() ? default_golden_dir() + "/inputs" : input_dir;
    const std::string path = dir + "/" + r.file;
    const std::string bytes = read_file(path);
    if (sha256_hex(bytes) != r.file_sha256) {
        throw Error(
            path + " is not the file the spec names (sha256 differs); restore it with `git checkout -- golden/inputs/" +
            r.file + "`");
    }
    const bool planar = spec.shape.size() == 3;
    if (!(spec.type.code == halide_type_uint && spec.type.bits == 8) || spec.shape.size() < 2 ||
        (planar && spec.shape[2] != 3) || spec.shape.size() > 3) {
        throw Error("input '" + spec.name + "': an image recipe needs a u8 WxH or WxHx3 buffer");
    }
    int w = 0, h = 0, n = 0;
    unsigned char *px = stbi_load_from_memory(reinterpret_cast<const unsigned char *>(bytes.data()),
                                              static_cast<int>(bytes.size()), &w, &h, &n, planar ? 3 : 1);
    if (!px) throw Error(path + " is not a readable PNG (" + stbi_failure_reason() + ")");
    if (w != spec.shape[0] || h != spec.shape[1]) {
        stbi_image_free(px);
        throw Error(path + " is " + std::to_string(w) + "x" + std::to_string(h) + ", the case wants " +
                    shape_string(spec.shape) + "; fix the case");
    }
    Array a(spec.type, spec.shape);
    const int c = planar ? 3 : 1;
    const size_t plane = static_cast<size_t>(w) * h;
    for (size_t i = 0; i < plane; i++) {
        for (int k = 0; k < c; k++)
            a.bytes[i + plane * k] = px[i * c + k];
    }
    stbi_image_free(px);
    return a;
}

}  // namespace

Array make_input(const BufferSpec &spec, const std::string &input_dir) {
    if (spec.recipe.kind == Recipe::Kind::Image) return load_image(spec, input_dir);
    Array a(spec.type, spec.shape);
    SplitMix64 rng(spec.recipe.seed);
    dispatch_element_type(
        spec.type, [&](auto tag) { fill<typename decltype(tag)::type>(a, spec.recipe, rng); },
        ("input '" + spec.name + "'").c_str());
    return a;
}

}  // namespace harness
