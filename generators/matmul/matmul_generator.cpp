// matmul: f32 matrix product C = A * B, in Halide (column, row) order:
//   A(k, i): M rows of K,   B(j, k): K rows of N,   C(j, i) = sum_k A(k, i) * B(j, k)
// Reads outside A and B are 0 (constant_exterior), so tiles may overhang odd sizes. The `gpu`
// schedule is the classic shared-memory SGEMM: per k step, the block's threads copy a tile of A and
// one of B into shared memory with 128-bit loads, then each thread sums its 4 x 8 outputs over the
// step in registers from 128-bit shared loads (shared_staged below).
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
    // The gpu schedule's tiles, "block_j,block_i,thread_j,thread_i,k_step,pad" (Tiles below), so that a sweep
    // needs no edit of the schedule; empty: the measured best for the target (default_tiles).
    GeneratorParam<std::string> gpu_tiles{"gpu_tiles", ""};

    Input<Buffer<float, 2>> a{"a"};
    Input<Buffer<float, 2>> b{"b"};
    Output<Buffer<float, 2>> c{"c"};

    void generate() {
        // Algorithm
        Func ac = BoundaryConditions::constant_exterior(a, 0.f);
        Func bc = BoundaryConditions::constant_exterior(b, 0.f);
        RDom k(0, a.dim(0).extent(), "k");
        Tiles tiles = parse_tiles(gpu_tiles.value().empty() ? default_tiles() : gpu_tiles.value());
        // CUDA blocks get 48 KiB of shared memory without opting in to more; OpenCL and Vulkan devices often have
        // 32 KiB (oclgrind, lavapipe, many GPUs; Vulkan promises 16): there the tiles drop their padding first,
        // then take shorter k steps.
        const int shared_limit = (get_target().has_feature(Target::CUDA) ? 48 : 32) * 1024;
        if (shared_bytes(tiles) > shared_limit) {
            tiles.pad = 0;
        }
        while (shared_bytes(tiles) > shared_limit && tiles.k_step > 4) {
            tiles.k_step /= 2;
        }
        if (schedule == Schedule::Gpu) {
            define_gpu(ac, bc, tiles);
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
            // Shared-memory staging, 4 x 8 outputs per thread, k steps of 32 (the tiles: default_tiles). The register
            // blocking before it (Halide's apps/cuda_mat_mul: each thread's operands straight from global memory,
            // 64 x 32 per block, k steps of 8) was bound by L1 bandwidth at 0.75x cuBLAS on an H200 (1024^3, cuda;
            // opencl 0.71x), and no tile, per-thread shape or k step of it did better. What keeps this one from
            // cuBLAS: Halide keeps an allocation at the block level whole in every thread, so the running sums
            // cannot stay in registers across the k steps (define_gpu).
            shared_staged(tiles);
            break;
        }
    }

    // The gpu schedule's tiles: block_j x block_i outputs per GPU block, thread_j x thread_i per thread (both
    // multiples of 4: 128-bit loads of B along j and of A's transposed tile along i), k in steps of k_step (a
    // multiple of 4), A's tile rows in shared memory padded by pad floats (a multiple of 4, for bank conflicts).
    struct Tiles {
        int block_j, block_i, thread_j, thread_i, k_step, pad;
    };

    // The measured best tiles at 1024^3 on an H200, three rounds interleaved in one call (cuBLAS 0.068-0.073 ms):
    // CUDA 64x64 blocks of 16x8 threads, 4x8 outputs each: 0.083-0.085 ms (0.82x cuBLAS; the register-blocked
    // schedule before it 0.092, 4x4 per thread 0.092, 64x32 blocks 0.086-0.087, k steps of 16 0.088-0.090,
    // 32x64 and 32x32 blocks 0.092-0.096, 8x4 and 8x8 per thread 0.124-0.134). Those tiles take 33,280 bytes of
    // shared memory, over the 32 KiB an OpenCL device need offer: without the padding OpenCL took 0.097-0.101 ms,
    // so OpenCL and Vulkan take 64x32 blocks, padded (20,992 bytes): 0.091-0.092 ms (0.76x).
    std::string default_tiles() const {
        return get_target().has_feature(Target::CUDA) ? "64,64,4,8,32,4" : "64,32,4,8,32,4";
    }

    // The gpu schedule's shared memory per block: the running sums, A's tile (padded rows) and B's tile.
    static int shared_bytes(const Tiles &t) {
        return 4 * (t.block_j * t.block_i + t.k_step * (t.block_i + t.pad) + t.k_step * t.block_j);
    }

    // gpu_tiles, checked: a shape the schedule cannot tile is a one-line error naming the rule.
    static Tiles parse_tiles(const std::string &text) {
        Tiles t{};
        char end = 0;
        if (std::sscanf(text.c_str(), "%d,%d,%d,%d,%d,%d%c", &t.block_j, &t.block_i, &t.thread_j, &t.thread_i,
                        &t.k_step, &t.pad, &end) != 6) {
            throw CompileError("gpu_tiles '" + text +
                               "' is not six integers block_j,block_i,thread_j,thread_i,k_step,pad");
        }
        const bool positive = t.block_j > 0 && t.block_i > 0 && t.thread_j > 0 && t.thread_i > 0 && t.k_step > 0;
        const int threads = positive ? (t.block_j / t.thread_j) * (t.block_i / t.thread_i) : 1;
        if (!positive || t.pad < 0 || t.thread_j % 4 || t.thread_i % 4 || t.k_step % 4 || t.pad % 4 ||
            t.block_j % t.thread_j || t.block_i % t.thread_i || (t.k_step / 4 * t.block_i) % threads ||
            (t.block_j / 4 * t.k_step) % threads) {
            throw CompileError("gpu_tiles '" + text +
                               "': thread_j, thread_i, k_step and pad must be multiples of 4, "
                               "the blocks multiples of the thread tiles, and each shared tile a whole number of "
                               "4-float copies per thread");
        }
        return t;
    }

    // The gpu schedule's algorithm: sums of k_step terms (partial), then their sum (prod). Halide keeps an
    // allocation at the block level whole in every thread, so sums that live across the block-level loop over k
    // steps cannot be registers: each thread's sums of one step are (partial), the block's running sums are in
    // shared memory (prod): thread_j x thread_i / 4 128-bit shared loads and stores per thread and step (8
    // against 1,024 FMAs at 4 x 8 outputs per thread and k steps of 32). Terms past K are 0 * 0. Where every tile lies
    // inside A, B and C (the benchmarks' sizes: whole_tiles), the tiles read A and B without the boundary's clamps and
    // selects: dense 128-bit loads.
    void define_gpu(Func ac, Func bc, const Tiles &t) {
        whole_tiles = a.dim(0).min() == 0 && b.dim(1).min() == 0 && b.dim(1).extent() == a.dim(0).extent() &&
                      a.dim(0).extent() % t.k_step == 0 && c.dim(1).min() == a.dim(1).min() &&
                      c.dim(1).extent() == a.dim(1).extent() && a.dim(1).extent() % t.block_i == 0 &&
                      c.dim(0).min() == b.dim(0).min() && c.dim(0).extent() == b.dim(0).extent() &&
                      b.dim(0).extent() % t.block_j == 0;
        const auto inside = [](const Input<Buffer<float, 2>> &in, int d, const Expr &x) {
            return unsafe_promise_clamped(x, in.dim(d).min(), in.dim(d).max());
        };
        a_tiles(j, i) = select(whole_tiles, a(inside(a, 0, j), inside(a, 1, i)), ac(j, i));
        b_tiles(j, i) = select(whole_tiles, b(inside(b, 0, j), inside(b, 1, i)), bc(j, i));
        k_in = RDom(0, t.k_step, "ki");
        k_out = RDom(0, (a.dim(0).extent() + t.k_step - 1) / t.k_step, "ko");
        partial(j, i, kb) = 0.f;
        partial(j, i, kb) += a_tiles(kb * t.k_step + k_in, i) * b_tiles(j, kb * t.k_step + k_in);
        prod(j, i) = 0.f;
        prod(j, i) += partial(j, i, k_out);
    }

    // Shared-memory staging. Per k step the block's threads copy A's k_step x block_i tile and B's
    // block_j x k_step tile into shared memory, 4 floats a copy (128-bit global loads along k of A and j of B,
    // consecutive threads on consecutive addresses), A's transposed so that a thread's 4 values of i at one k
    // are one 128-bit shared load; after a barrier each thread sums its thread_j x thread_i outputs over the
    // step in registers, then adds them to the running sums.
    void shared_staged(const Tiles &t) {
        Var io("io"), it("it"), iv("iv");
        const int threads_j = t.block_j / t.thread_j, threads_i = t.block_i / t.thread_i;
        c.tile(j, i, jo, io, j, i, t.block_j, t.block_i, TailStrategy::GuardWithIf)
            .tile(j, i, jt, it, jv, iv, t.thread_j, t.thread_i, TailStrategy::GuardWithIf)
            .gpu_blocks(jo, io)
            .gpu_threads(jt, it)
            .unroll(jv)
            .unroll(iv);
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
        partial.compute_at(prod, jt).store_in(MemoryType::Register).vectorize(j, 4).unroll(j).unroll(i);
        partial.update().reorder(j, i, k_in, kb).vectorize(j, 4).unroll(j).unroll(i).unroll(k_in);
        // The copies: (along / 4, across) fused and dealt to the threads, consecutive threads along the rows.
        const auto staged = [&](Func f, bool transpose) {
            Var along = f.args()[0], across = f.args()[1], v("v"), t_("t"), tx("tx"), ty("ty");
            f.compute_at(prod, k_out)
                .store_in(MemoryType::GPUShared)
                .split(along, along, v, 4)
                .vectorize(v)
                .fuse(along, across, t_)
                .split(t_, t_, tx, threads_j)
                .split(t_, t_, ty, threads_i)
                .reorder(v, t_, tx, ty)
                .gpu_threads(tx, ty)
                .unroll(t_);
            if (transpose) {
                // Rows of block_i + pad floats: the transposing stores of a warp meet fewer times in one bank.
                f.reorder_storage(across, along).bound_storage(across, t.block_i + t.pad);
            }
            return f;
        };
        Func as = staged(a_tiles.in(partial), true), bs = staged(b_tiles.in(partial), false);
        // Both copies in one thread loop: no barrier between them, both loads in flight at once.
        bs.compute_with(as, Var("tx"));
        // Each thread's operands of one k, from shared memory into registers, 4 floats a load.
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
    // The gpu schedule's algorithm (define_gpu).
    RDom k_in, k_out;
    Expr whole_tiles;
    Var kb{"kb"};
    Func a_tiles{"a_tiles"}, b_tiles{"b_tiles"}, partial{"partial"};
    Var i{"i"}, j{"j"}, io{"io"}, ii{"ii"}, jo{"jo"}, ji{"ji"}, jt{"jt"}, jv{"jv"};
    Func prod{"prod"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MatMul, matmul)
