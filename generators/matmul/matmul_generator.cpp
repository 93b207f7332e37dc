// matmul: f32 matrix product C = A * B, in Halide (column, row) order:
//   A(k, i): M rows of K,   B(j, k): K rows of N,   C(j, i) = sum_k A(k, i) * B(j, k)
// Reads outside A and B are 0 (constant_exterior), so tiles may overhang odd sizes. The `gpu`
// schedule keeps a 4 x 4 block of C per thread in registers, its operands loaded straight from
// global memory (L1) with 128-bit loads where rows are 16-byte aligned, as Halide's apps/cuda_mat_mul
// does; its CUDA kernels need more than Halide's default 64 registers (matmul_spec.cpp).
#include <cstdio>
#include <string>

#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class MatMul : public Generator<MatMul> {
public:
    ScheduleParam schedule;
    // The gpu schedule's tiles, "block_j,block_i,thread_j,thread_i,k_step,pad" (for sweeps).
    GeneratorParam<std::string> gpu_tiles{"gpu_tiles", "64,64,4,4,32,4"};

    Input<Buffer<float, 2>> a{"a"};
    Input<Buffer<float, 2>> b{"b"};
    Output<Buffer<float, 2>> c{"c"};

    void generate() {
        // Algorithm
        Func ac = BoundaryConditions::constant_exterior(a, 0.f);
        Func bc = BoundaryConditions::constant_exterior(b, 0.f);
        RDom k(0, a.dim(0).extent(), "k");
        Tiles tiles = parse_tiles(gpu_tiles);
        // Vulkan promises 16 KiB of shared memory and lavapipe gives 32 KiB (NVIDIA 48 KiB): shorter k steps there.
        while (get_target().has_feature(Target::Vulkan) && shared_bytes(tiles) > 32 * 1024 && tiles.k_step > 4) {
            tiles.k_step /= 2;
        }
        Func partial("partial");
        if (schedule == Schedule::Gpu) {
            // Sums of k_step terms, then their sum: the gpu schedule keeps each thread's partial sums in
            // registers and the block's running sums in shared memory (the terms past K are 0 * 0).
            // Where every tile lies inside A, B and C (the benchmarks' sizes), the shared tiles read A and B
            // without the boundary's clamps and selects, as dense 128-bit loads (specialised on below).
            Func ag("ag"), bg("bg");
            whole_tiles = a.dim(0).min() == 0 && b.dim(1).min() == 0 && b.dim(1).extent() == a.dim(0).extent() &&
                          a.dim(0).extent() % tiles.k_step == 0 && c.dim(1).min() == a.dim(1).min() &&
                          c.dim(1).extent() == a.dim(1).extent() && a.dim(1).extent() % tiles.block_i == 0 &&
                          c.dim(0).min() == b.dim(0).min() && c.dim(0).extent() == b.dim(0).extent() &&
                          b.dim(0).extent() % tiles.block_j == 0;
            const auto inside = [](const Input<Buffer<float, 2>> &in, int d, const Expr &x) {
                return unsafe_promise_clamped(x, in.dim(d).min(), in.dim(d).max());
            };
            ag(j, i) = select(whole_tiles, a(inside(a, 0, j), inside(a, 1, i)), ac(j, i));
            bg(j, i) = select(whole_tiles, b(inside(b, 0, j), inside(b, 1, i)), bc(j, i));
            ac = ag;
            bc = bg;
            k_in = RDom(0, tiles.k_step, "ki");
            k_out = RDom(0, (a.dim(0).extent() + tiles.k_step - 1) / tiles.k_step, "ko");
            partial(j, i, kb) = 0.f;
            partial(j, i, kb) += ac(kb * tiles.k_step + k_in, i) * bc(j, kb * tiles.k_step + k_in);
            prod(j, i) = 0.f;
            prod(j, i) += partial(j, i, k_out);
        } else {
            prod(j, i) = 0.f;
            prod(j, i) += ac(k, i) * bc(j, k);
        }
        c(j, i) = prod(j, i);

        // Estimates
        a.set_estimates({{0, 1024}, {0, 1024}});
        b.set_estimates({{0, 1024}, {0, 1024}});
        c.set_estimates({{0, 1024}, {0, 1024}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            // Plain loops, one row of prod at a time, k outside j: B is read along its rows, and every output still
            // sums k in order (bit-identical to k innermost, which took 6.2 s a call at 1024^3 on a Xeon, the matrix's
            // longest run).
            prod.compute_at(c, i);
            prod.update().reorder(j, k);
            break;
        case Schedule::Host: {
            // 24x32 tiles of C, 4 rows at a time in 3 x 4 vector accumulators, k innermost (unroll 2), a packed B panel
            // per column of tiles (the constant_exterior select once per element of B), columns of tiles in parallel:
            // 1024^3 one thread 3x faster than the first tiled schedule.
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
            // Register blocking (Halide's apps/cuda_mat_mul), 64 x 32 outputs per block of 16 x 8 threads, 4 x 4 per
            // thread, k steps of 8, 128-bit operand loads: 1024^3 0.79x cuBLAS on an H200 (cuda; the 64 x 16
            // scalar-load schedule before it 0.46x at 255 registers). Other tiles, per-thread shapes and k steps: level
            // or slower. cuda_capability_80 (ld.global.nc): no gain, and it would drop pre-Ampere GPUs.
            shared_staged(ac, bc, partial, tiles);
            break;
        }
    }

    // The register-blocked tiles: block_j x block_i outputs per GPU block, thread_j x thread_i per thread
    // (thread_j a multiple of 4: one 128-bit load of B per k), k in steps of k_step (a multiple of 4).
    struct Tiles {
        int block_j, block_i, thread_j, thread_i, k_step, pad = 0;
    };

    // Each thread's outputs in registers, the operands of each k step loaded into registers straight
    // from global memory (L1): A's k_step x thread_i (k, i) and B's thread_j x k_step (j, k), 128-bit
    // loads along k of A and j of B. They are aligned where A, B and C start at columns that are
    // multiples of 4, A's and B's rows are multiples of 4 floats apart and K is a multiple of k_step: a
    // specialisation on that (every size the benchmarks and cuBLAS use), the same loops with unaligned
    // loads otherwise (e.g. the odd case, 129^3).
    void register_blocked(Func ac, Func bc, const RDom &k, const Tiles &t) {
        Var jt("jt"), it("it"), jv("jv"), iv("iv");
        RVar ko("ko"), ki("ki");
        c.tile(j, i, jt, it, t.block_j, t.block_i, TailStrategy::GuardWithIf)
            .tile(jt, it, jv, iv, t.thread_j, t.thread_i, TailStrategy::GuardWithIf)
            .gpu_blocks(j, i)
            .gpu_threads(jt, it)
            .unroll(jv)
            .unroll(iv);
        // Registers need constant sizes: the guarded tails make the regions' extents min(n, ...), so the
        // extents are bounded explicitly (without it Halide lifts them to a global scratch buffer).
        prod.compute_at(c, jt)
            .store_in(MemoryType::Register)
            .bound_extent(j, t.thread_j)
            .bound_extent(i, t.thread_i)
            .vectorize(j, 4)
            .unroll(j)
            .unroll(i);
        prod.update().reorder(j, i, k).vectorize(j, 4).unroll(j).unroll(i).split(k, ko, ki, t.k_step).unroll(ki);
        const auto in_registers = [&](Func f, int extent0, int extent1) {
            const Var v0 = f.args()[0], v1 = f.args()[1];
            f.compute_at(prod, ko)
                .store_in(MemoryType::Register)
                .bound_extent(v0, extent0)
                .bound_extent(v1, extent1)
                .vectorize(v0, 4)
                .unroll(v0)
                .unroll(v1);
        };
        in_registers(ac.in(prod), t.k_step, t.thread_i);
        in_registers(bc.in(prod), t.thread_j, t.k_step);
        c.specialize(a.dim(0).min() % 4 == 0 && b.dim(0).min() % 4 == 0 && c.dim(0).min() % 4 == 0 &&
                     a.dim(1).stride() % 4 == 0 && b.dim(1).stride() % 4 == 0 && a.dim(0).extent() % t.k_step == 0);
    }

    // The gpu schedule's shared memory per block: the running sums, A's tile (padded rows) and B's tile.
    static int shared_bytes(const Tiles &t) {
        return 4 * (t.block_j * t.block_i + t.k_step * (t.block_i + t.pad) + t.k_step * t.block_j);
    }

    static Tiles parse_tiles(const std::string &text) {
        Tiles t{};
        int pad = 0;
        if (std::sscanf(text.c_str(), "%d,%d,%d,%d,%d,%d", &t.block_j, &t.block_i, &t.thread_j, &t.thread_i,
                        &t.k_step, &pad) != 6) {
            throw CompileError("gpu_tiles '" + text + "' is not block_j,block_i,thread_j,thread_i,k_step,pad");
        }
        t.pad = pad;
        return t;
    }

    // Shared-memory staging: each k step of the block's A (k_step x block_i) and B (block_j x k_step)
    // tiles is copied by all the block's threads into shared memory (128-bit global loads along k of A
    // and j of B), A transposed so that a thread's thread_i values of one k are adjacent; each thread
    // then accumulates its thread_j x thread_i outputs in registers from 128-bit shared loads.
    void shared_staged(Func ac, Func bc, Func partial, const Tiles &t) {
        Var jo("jo"), io("io"), jt("jt"), it("it"), jv("jv"), iv("iv");
        const int threads_j = t.block_j / t.thread_j;
        c.tile(j, i, jo, io, j, i, t.block_j, t.block_i, TailStrategy::GuardWithIf)
            .tile(j, i, jt, it, jv, iv, t.thread_j, t.thread_i, TailStrategy::GuardWithIf)
            .gpu_blocks(jo, io)
            .gpu_threads(jt, it)
            .unroll(jv)
            .unroll(iv);
        // The block's running sums in shared memory.
        prod.compute_at(c, jo)
            .store_in(MemoryType::GPUShared)
            .bound_extent(j, t.block_j)
            .bound_extent(i, t.block_i)
            .tile(j, i, jt, it, jv, iv, t.thread_j, t.thread_i)
            .gpu_threads(jt, it)
            .vectorize(jv, 4)
            .unroll(jv)
            .unroll(iv);
        prod.update()
            .tile(j, i, jt, it, jv, iv, t.thread_j, t.thread_i)
            .reorder(jv, iv, jt, it, k_out)
            .gpu_threads(jt, it)
            .vectorize(jv, 4)
            .unroll(jv)
            .unroll(iv);
        // Each thread's sums of one k step in registers.
        partial.compute_at(prod, jt)
            .store_in(MemoryType::Register)
            .vectorize(j, 4)
            .unroll(j)
            .unroll(i);
        partial.update()
            .reorder(j, i, k_in, kb)
            .vectorize(j, 4)
            .unroll(j)
            .unroll(i)
            .unroll(k_in);
        // The shared tiles: every thread copies 4 adjacent values at a time.
        const auto staged = [&](Func f, Var along, Var across, bool transpose, int extent_across) {
            Var v("v"), t_("t"), tx("tx"), ty("ty");
            f.compute_at(prod, k_out)
                .store_in(MemoryType::GPUShared)
                .split(along, along, v, 4)
                .vectorize(v)
                .fuse(along, across, t_)
                .split(t_, t_, tx, threads_j)
                .split(t_, t_, ty, t.block_i / t.thread_i)
                .reorder(v, t_, tx, ty)
                .gpu_threads(tx, ty)
                .unroll(t_);
            if (transpose) {
                f.reorder_storage(across, along).bound_storage(across, extent_across + t.pad);
            }
        };
        Func as = ac.in(partial), bs = bc.in(partial);
        staged(as, as.args()[0], as.args()[1], true, t.block_i);
        staged(bs, bs.args()[0], bs.args()[1], false, t.block_j);
        // Both copies in one thread loop: no barrier between them, both loads in flight at once.
        bs.compute_with(as, Var("tx"));
        // Each thread's operands of one k, from shared memory into registers as vectors.
        Func ar = as.in(partial), br = bs.in(partial);
        ar.compute_at(partial, k_in).store_in(MemoryType::Register).vectorize(ar.args()[1], 4).unroll(ar.args()[1]);
        br.compute_at(partial, k_in).store_in(MemoryType::Register).vectorize(br.args()[0], 4).unroll(br.args()[0]);
        // Three kernels, so that none takes whole_tiles as an argument (a bool kernel argument is invalid SPIR-V):
        // whole tiles with 16-byte aligned rows, any other size, and whole tiles with unaligned rows.
        c.specialize(whole_tiles && b.dim(0).min() % 4 == 0 && a.dim(1).stride() % 4 == 0 &&
                     b.dim(1).stride() % 4 == 0);
        c.specialize(!whole_tiles);
    }

private:
    RDom k_in, k_out;
    Expr whole_tiles;
    Var kb{"kb"};
    Var i{"i"}, j{"j"}, io{"io"}, ii{"ii"}, jo{"jo"}, ji{"ji"}, jt{"jt"}, jv{"jv"};
    Func prod{"prod"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
