// harness::PipelineSpec: what the harness knows about a pipeline besides its compiled variants:
// cases, input recipes, the named tolerance (and why), and a plain C++ reference implementation.
// Each generators/<p>/<p>_spec.cpp defines one and registers it with HARNESS_REGISTER_SPEC.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/array.h"
#include "harness/tolerance.h"

namespace harness {

// How to fill an input buffer, deterministically and identically on every platform (see inputs.h).
//   UniformInt    seeded uniform integers in [lo, hi]
//   UniformFloat  seeded uniform floats in [lo, hi)
//   Gradient      lo at (0, 0) rising linearly to hi at (w-1, h-1) along dims 0 and 1 (integers
//                 rounded half up); the same in every further dimension (channels)
//   Checkerboard  cells of `cell` x `cell` elements alternating lo (at the origin) and hi
//   Constant      every element lo (all-zero, all-max)
// Only the uniform kinds use `seed`. Values are computed with IEEE basic operations only, so every
// platform produces the same bytes.
struct Recipe {
    enum class Kind { UniformInt, UniformFloat, Gradient, Checkerboard, Constant, Image };
    Kind kind = Kind::UniformInt;
    double lo = 0, hi = 255;  // inclusive for integers, [lo, hi) for floats
    uint64_t seed = 1;
    int cell = 8;  // Checkerboard only
    // Image only: a PNG under golden/inputs/ (loaded with stb_image, grey for 2-D inputs, RGB to
    // planar for 3-D ones) and its sha256, checked on every load.
    std::string file, file_sha256;
    // "uniform_int[0,255] seed=7 splitmix64", "gradient[0,255]", "checkerboard[0,255] cell=8",
    // "constant[0]", "image golden/inputs/camera.png sha256=..."
    std::string describe() const;
};

struct BufferSpec {
    std::string name;  // the Halide argument name
    halide_type_t type{halide_type_uint, 8, 1};
    std::vector<int> shape;  // Halide order
    Recipe recipe;           // inputs only
    // Where the buffer starts in each dimension (empty: 0 everywhere), as the pipeline's bounds query
    // asks (an input read from x - 2 starts at -2). The values are filled as for a buffer at 0.
    std::vector<int> min;
    // The order of the dimensions in memory, innermost first (empty: 0, 1, 2, ...): {2, 0, 1} is
    // interleaved (chunky) RGB, which a generator states with dim(2).set_stride(1).
    std::vector<int> storage_order;
    // Outputs only: the generator constrains the output's strides, so the harness cannot pad its rows
    // with guard bands (the output is dense, no guard check).
    bool dense = false;
};

struct CaseSpec {
    std::string name;  // small, odd, large, ...
    bool nightly = false;
    std::vector<BufferSpec> inputs;         // every input buffer argument
    std::map<std::string, double> scalars;  // every scalar argument
    std::vector<BufferSpec> outputs;        // every output buffer argument (type and shape)
    // Non-empty when no runnable case could be made (specs from metadata): every run of it is an
    // ERROR with this message, and nothing is blessed.
    std::string error;
    // What a user should know about how the case was made (specs from metadata): guessed scalars,
    // sizes grown to what a schedule needs, a degenerate golden ("1 distinct value in 3072").
    std::vector<std::string> notes;
};

struct PipelineSpec {
    std::string name;
    std::string summary;
    std::vector<CaseSpec> cases;
    Tolerance tolerance;
    std::string tolerance_reason;  // why this tolerance
    // Per output, where outputs differ (specs from metadata: the default of each output's type);
    // outputs not listed use `tolerance`. See tolerance_for().
    std::map<std::string, Tolerance> output_tolerances;
    // Where the spec came from: "" (C++), "generator metadata" or the JSON spec's path.
    std::string spec_source;
    // OpenCL extensions the GPU variants need (e.g. "cl_khr_fp16" for a pipeline built with
    // FEATURES cl_half): an OpenCL profile whose selected device lacks one SKIPs, saying which.
    std::vector<std::string> required_extensions;
    // Registers per thread the CUDA variant's kernels may use (HL_CUDA_JIT_MAX_REGISTERS while the harness
    // calls it, unless the environment sets that already); 0: Halide's runtime default, 64. Kernels that
    // need more spill to local memory (harness/src/variant/cuda_registers.h).
    int cuda_max_registers = 0;
    // Plain C++ reference: inputs in CaseSpec::inputs order; returns outputs in CaseSpec::outputs order.
    // Empty only for specs from metadata or JSON: their goldens are the cpu variant's output.
    std::function<std::vector<Array>(const CaseSpec &, const std::vector<Array> &)> reference;
    std::string generator_sha256;  // filled by the registrar from the build
    // Optional: the case at an arbitrary image size (width x height), same recipe and scalars as the
    // standard cases; the benchmarks use it for 1920x1080, 4096x4096 and the GPU size past L2.
    // Empty for pipelines without a free image size (the benchmarks then use the `large` case).
    std::function<CaseSpec(int width, int height)> make_case;

    // The case called `name`; throws Error listing the known cases.
    const CaseSpec &find_case(const std::string &name) const;
    // The tolerance of output `output`.
    const Tolerance &tolerance_for(const std::string &output) const;
};

// Image cases shared by the 2-D/3-D pipelines: small 64x48, odd 257x131, large 1920x1080 (nightly).
struct ImageSize {
    const char *name;
    int width, height;
    bool nightly;
};
const std::vector<ImageSize> &standard_image_sizes();

// Adds one case per standard image size, built by `make(width, height)` (which need not set the
// name or the nightly flag), and keeps `make` as spec.make_case for benchmarks at other sizes.
void add_image_cases(PipelineSpec &spec, std::function<CaseSpec(int width, int height)> make);

// floor(v / 2^k) without relying on >> of negative numbers: for plain references of pipelines that
// shift signed values (Halide's >> on signed integers rounds toward negative infinity).
int floor_shift(int v, int k);

class SpecRegistrar {
public:
    SpecRegistrar(PipelineSpec (*make)(), const char *generator_sha256);
};

}  // namespace harness

#ifndef HARNESS_GENERATOR_SHA256
#define HARNESS_GENERATOR_SHA256 "unknown"
#endif

// Registers a spec factory at static-initialisation time.
#define HARNESS_REGISTER_SPEC(make_fn) \
    static const ::harness::SpecRegistrar harness_spec_registrar_##make_fn(make_fn, HARNESS_GENERATOR_SHA256)
