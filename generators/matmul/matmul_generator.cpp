// matmul: f32 matrix product C = A * B, in Halide (column, row) order:
//   A(k, i): M rows of K,   B(j, k): K rows of N,   C(j, i) = sum_k A(k, i) * B(j, k)
// Reads outside A and B are 0 (constant_exterior), so tiles may overhang odd sizes. The `gpu`
// schedule stages 16x16 tiles of A and B in local (workgroup) memory: the allocation and the
// barriers that seed 002 was about.
#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class MatMul : public Generator<MatMul> {
public:
    ScheduleParam schedule;

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

        // Schedule (one measured line per decision; the experiments: benchmarks/RESULTS.md, "Schedule log")
        switch (schedule.value()) {
        case Schedule::Portable:
            // Plain loops, one row of prod at a time, k outside j: B is read along its rows, and every
            // output still sums k in order (bit-identical to k innermost; 1024^3 on the H100's Xeon
            // took 6.2 s a call with k innermost, the matrix's longest run).
            prod.compute_at(c, i);
            prod.update().reorder(j, k);
            break;
        case Schedule::Host: {
            // 24x32 tiles of C, 4 rows at a time in 3 x 4 vector accumulators, k innermost (unroll 2), a
            // packed B panel per column of tiles (the constant_exterior select once per element of B),
            // columns of tiles in parallel: 1024^3 one thread 82-89 -> 25-33 ms (AVX2 VM, 2026-11-23).
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
            break;
        }
        case Schedule::Mali:
            // 4 adjacent outputs of a row per work-item (float4 accumulator, vload4 of B), 8x4 work-groups,
            // operands from global memory: on the H100 2.7x faster than the local-memory gpu schedule.
            // Tails shift inwards (sizes >= 32): GuardWithIf around the float4 makes Halide 21's OpenCL
            // backend fail with "Unhandled intrinsic in C backend: extract_mask_element".
            c.tile(j, i, jo, io, ji, ii, 32, 4)
                .split(ji, jt, jv, 4)
                .vectorize(jv)
                .gpu_blocks(jo, io)
                .gpu_threads(jt, ii);
            prod.compute_at(c, jt).vectorize(j);
            prod.update().vectorize(j);
            break;
        case Schedule::Gpu: {
            // 16x16 outputs per block, one per thread; k in steps of 16 with 16x16 tiles of A and B staged
            // in local memory (the barriers seed 002 was about): H100 1024^3 0.85 ms (2026-11-23).
            c.gpu_tile(j, i, jo, io, ji, ii, 16, 16, TailStrategy::GuardWithIf);
            prod.compute_at(c, jo).gpu_threads(j, i);
            RVar ko("ko"), ki("ki");
            prod.update().split(k, ko, ki, 16).reorder(ki, j, i, ko).gpu_threads(j, i);
            Func a_tile = ac.in(prod), b_tile = bc.in(prod);
            a_tile.compute_at(prod, ko).gpu_threads(a_tile.args()[0], a_tile.args()[1]);
            b_tile.compute_at(prod, ko).gpu_threads(b_tile.args()[0], b_tile.args()[1]);
            break;
        }
        }
    }

private:
    Var i{"i"}, j{"j"}, io{"io"}, ii{"ii"}, jo{"jo"}, ji{"ji"}, jt{"jt"}, jv{"jv"};
    Func prod{"prod"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
