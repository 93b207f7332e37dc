// matmul: f32 matrix product C = A * B, in Halide (column, row) order:
//   A(k, i): M rows of K,   B(j, k): K rows of N,   C(j, i) = sum_k A(k, i) * B(j, k)
// Reads outside A and B are 0 (constant_exterior), so tiles may overhang odd sizes. The `gpu`
// schedule keeps a 4 x 8 block of C per thread in registers, its operands loaded straight from
// global memory (L1), as Halide's apps/cuda_mat_mul does.
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
        case Schedule::Gpu:
            // Register blocking (Halide's apps/cuda_mat_mul): 64 x 16 outputs per block, 4 x 8 per thread:
            // H100 1024^3 opencl 0.850 -> 0.164 ms (13.1 TFLOP/s; cuBLAS sgemm 0.073 ms, 29.4), cuda 1.17 ->
            // 0.697 ms (3.1 TFLOP/s; the same schedule's PTX, not diagnosed); 128 x 32 per block: cuda 0.705 ms
            // (issue 27 round 2; benchmarks/h100/issue27/matmul/README.md: what stops it short of cuBLAS).
            register_blocked(ac, bc, k, 64, 16);
            break;
        }
    }

    // Each thread 4 x 8 outputs in registers (4 columns x 8 rows), operands straight from global memory
    // (L1), k unrolled by 8: blocks of tile_j x tile_i outputs.
    void register_blocked(Func ac, Func bc, const RDom &k, int tile_j, int tile_i) {
        Var jt("jt"), it("it"), jv("jv"), iv("iv");
        RVar ko("ko"), ki("ki");
        c.tile(j, i, jt, it, tile_j, tile_i, TailStrategy::GuardWithIf)
            .tile(jt, it, jv, iv, 4, 8, TailStrategy::GuardWithIf)
            .gpu_blocks(j, i)
            .gpu_threads(jt, it)
            .unroll(jv)
            .unroll(iv);
        // Registers need constant sizes: the guarded tails make the regions' extents min(8, ...), so the
        // storage is bounded explicitly (without it Halide lifts them to a global scratch buffer).
        prod.compute_at(c, jt).store_in(MemoryType::Register).bound_extent(j, 4).bound_extent(i, 8).unroll(j).unroll(i);
        prod.update().reorder(j, i, k).unroll(j).unroll(i).split(k, ko, ki, 8).unroll(ki);
        // The k step's operands in registers: A's 8 x 8 (k, i), B's 4 x 8 (j, k).
        const auto in_registers = [&](Func f, int extent0, int extent1) {
            const Var v0 = f.args()[0], v1 = f.args()[1];
            f.compute_at(prod, ko)
                .store_in(MemoryType::Register)
                .bound_storage(v0, extent0)
                .bound_storage(v1, extent1)
                .unroll(v0)
                .unroll(v1);
        };
        in_registers(ac.in(prod), 8, 8);
        in_registers(bc.in(prod), 4, 8);
    }

private:
    Var i{"i"}, j{"j"}, io{"io"}, ii{"ii"}, jo{"jo"}, ji{"ji"}, jt{"jt"}, jv{"jv"};
    Func prod{"prod"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
