// matmul: cases (square sizes), inputs, tolerance and the plain C++ reference (double accumulators).
#include <algorithm>

#include "harness/spec.h"

namespace {

using harness::Array;
using harness::CaseSpec;

std::vector<Array> reference(const CaseSpec &, const std::vector<Array> &inputs) {
    const Array &a = inputs.at(0), &b = inputs.at(1);
    const int kk = a.shape.at(0), m = a.shape.at(1), n = b.shape.at(0);
    Array c({halide_type_float, 32, 1}, {n, m});
    const float *pa = a.data<float>(), *pb = b.data<float>();
    std::vector<double> row(static_cast<size_t>(n));
    for (int i = 0; i < m; i++) {
        std::fill(row.begin(), row.end(), 0.0);
        for (int k = 0; k < kk; k++) {
            const double aik = pa[static_cast<size_t>(i) * kk + k];
            const float *brow = pb + static_cast<size_t>(k) * n;
            for (int j = 0; j < n; j++)
                row[j] += aik * brow[j];
        }
        for (int j = 0; j < n; j++)
            c.data<float>()[static_cast<size_t>(i) * n + j] = static_cast<float>(row[j]);
    }
    return {c};
}

harness::PipelineSpec make_matmul_spec() {
    harness::PipelineSpec spec;
    spec.name = "matmul";
    spec.summary = "f32 matrix product, A and B tiles staged in shared memory on the gpu schedule";
    // Dot products of up to 1024 terms in [-1, 1): |C| ~ 10, and f32 accumulation in a different
    // order (tiles, vectors, FMA) moves the result by up to ~K * 2^-24 * 10 ~ 6e-4 in the worst
    // case, ~2e-5 typically. 1e-4 absolute + 1e-4 relative; a wrong tile is off by O(1).
    spec.tolerance = harness::Tolerance::abs_rel(1e-4, 1e-4);
    spec.tolerance_reason = "f32 dot products summed in tile/vector order with FMA on GPUs";
    const halide_type_t f32{halide_type_float, 32, 1};
    struct Size {
        const char *name;
        int n;
        bool nightly;
    };
    for (const Size &z : {Size{"small", 64, false}, Size{"odd", 129, false}, Size{"large", 1024, true}}) {
        CaseSpec c;
        c.name = z.name;
        c.nightly = z.nightly;
        c.inputs = {{"a", f32, {z.n, z.n}, {harness::Recipe::Kind::UniformFloat, -1, 1, 0x3A7'0001}},
                    {"b", f32, {z.n, z.n}, {harness::Recipe::Kind::UniformFloat, -1, 1, 0x3A7'0002}}};
        c.outputs = {{"c", f32, {z.n, z.n}, {}}};
        spec.cases.push_back(c);
    }
    spec.reference = reference;
    // The gpu schedule's CUDA kernels use 72 registers per thread at its default tiles (4 x 8 outputs per thread;
    // ptxas 13.0, sm_90), up to 128 at 8 x 8 (gpu_tiles): the cap stays raised so that a sweep of tiles measures
    // the tiles, not spills (under Halide's default JIT cap of 64 an earlier register-blocked schedule ran
    // 0.148 ms instead of 0.092 ms on an H100 at 1024^3). An application running the cuda variant sets
    // HL_CUDA_JIT_MAX_REGISTERS itself where its tiles need it (Halide's apps/cuda_mat_mul: 256).
    spec.cuda_max_registers = 255;
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_matmul_spec);
