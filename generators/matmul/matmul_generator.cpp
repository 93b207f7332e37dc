// matmul: f32 matrix product C = A * B, in Halide (column, row) order:
//   A(k, i): M rows of K,   B(j, k): K rows of N,   C(j, i) = sum_k A(k, i) * B(j, k)
// Reads outside A and B are 0 (constant_exterior), so tiles may overhang odd sizes. The `gpu`
// schedule stages 16x16 tiles of A and B in local (workgroup) memory: the allocation and the
// barriers that seed 002 was about.
#include "Halide.h"

namespace {

using namespace Halide;

class MatMul : public Generator<MatMul> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<float, 2>> a{"a"};
    Input<Buffer<float, 2>> b{"b"};
    Output<Buffer<float, 2>> c{"c"};

    void generate() {
        // Algorithm
        Func ac = BoundaryConditions::constant_exterior(a, 0.f);
        Func bc = BoundaryConditions::constant_exterior(b, 0.f);
        RDom k(0, a.dim(0).extent(), "k");
        prod(j, i) = 0.f;
        prod(j, i) += ac(k, i) * bc(j, k);
        c(j, i) = prod(j, i);

        // Estimates
        a.set_estimates({{0, 1024}, {0, 1024}});
        b.set_estimates({{0, 1024}, {0, 1024}});
        c.set_estimates({{0, 1024}, {0, 1024}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain triple loop (i, j, k), one row of prod at a time.
            prod.compute_at(c, i);
        } else if (s == "host") {
            // Blocks of 16 rows in parallel; within a block, k outermost so each row of B streams
            // through 8-wide vectors of the 16 accumulator rows.
            const int v = natural_vector_size<float>();
            c.split(i, io, ii, 16).parallel(io).vectorize(j, v);
            prod.compute_at(c, io).vectorize(j, v);
            prod.update().reorder(j, i, k).vectorize(j, v);
        } else if (s == "mali") {
            // Mali: each work-item computes 4 adjacent outputs of a row as one float4 accumulator
            // (vload4 of B, scalar broadcast of A), work-groups of 8x4 work-items (32x4 outputs),
            // operands straight from global memory (no local memory: Mali's is ordinary cached RAM).
            // Tails shift inwards (sizes >= 32): GuardWithIf around the float4 makes Halide 21's
            // OpenCL backend fail with "Unhandled intrinsic in C backend: extract_mask_element".
            c.tile(j, i, jo, io, ji, ii, 32, 4)
                .split(ji, jt, jv, 4)
                .vectorize(jv)
                .gpu_blocks(jo, io)
                .gpu_threads(jt, ii);
            prod.compute_at(c, jt).vectorize(j);
            prod.update().vectorize(j);
        } else if (s == "gpu") {
            // Generic GPU: 16x16 output tile per block, one output per thread; k in steps of 16,
            // each step staging a 16x16 tile of A and of B in local memory (barrier, then 16 FMAs).
            c.gpu_tile(j, i, jo, io, ji, ii, 16, 16, TailStrategy::GuardWithIf);
            prod.compute_at(c, jo).gpu_threads(j, i);
            RVar ko("ko"), ki("ki");
            prod.update().split(k, ko, ki, 16).reorder(ki, j, i, ko).gpu_threads(j, i);
            Func a_tile = ac.in(prod), b_tile = bc.in(prod);
            a_tile.compute_at(prod, ko).gpu_threads(a_tile.args()[0], a_tile.args()[1]);
            b_tile.compute_at(prod, ko).gpu_threads(b_tile.args()[0], b_tile.args()[1]);
        } else {
            throw CompileError("matmul: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var i{"i"}, j{"j"}, io{"io"}, ii{"ii"}, jo{"jo"}, ji{"ji"}, jt{"jt"}, jv{"jv"};
    Func prod{"prod"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
