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
            // Register blocking: each 24x32 tile of C is computed 4 rows at a time into 3 x 4 vector
            // accumulators (12 of the 16 AVX2 registers), k innermost, unrolled by 2; a B panel
            // (K x 24) is copied once per column of tiles (bc.in(prod)), so the constant_exterior
            // select runs once per element of B instead of once per FMA, and the inner loop streams
            // contiguous panel rows. Columns of tiles in parallel (43 tasks at 1024); the last tile of a row
            // or column shifts inwards and recomputes, in the same order, values its neighbour writes.
            // Halide 21 JIT, 2-vCPU shared VM (AVX2, FMA), 2026-11-23, 1024^3, one thread, process CPU
            // time: 82-89 ms -> 25-33 ms (the previous schedule: 16-row blocks with a 16 x N
            // accumulator in memory). Without the panel the selects stayed in the k loop (57 ms);
            // packing 4 rows of A as well cost more than it saved (31-69 ms); 16x30 tiles of 2 x 6
            // vectors, 24x64 tiles and unrolling k by 4 were within noise or slower.
            const int v = natural_vector_size<float>();
            Var iii("iii");
            c.tile(j, i, ji, ii, 3 * v, 32)
                .reorder(ji, ii, i, j)
                .parallel(j)
                .split(ii, ii, iii, 4)
                .vectorize(ji, v)
                .unroll(ji)
                .unroll(iii);
            prod.compute_at(c, ii).vectorize(j, v).unroll(i);
            prod.update().reorder(j, i, k).vectorize(j, v).unroll(j).unroll(i).unroll(k, 2);
            Func b_panel = bc.in(prod);
            b_panel.compute_at(c, j).vectorize(b_panel.args()[0], v);
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
