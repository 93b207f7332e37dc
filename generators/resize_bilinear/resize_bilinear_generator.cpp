// resize_bilinear: bilinear resize of a planar u8 image to the output's size (up or down), with
// pixel-centre alignment and clamped edges:
//   sx = (x + 0.5) * in_w / out_w - 0.5,   ix = floor(sx),   fx = sx - ix   (same for y)
//   output(x, y, c) = round(lerp(lerp(in(ix, iy), in(ix+1, iy), fx), lerp(... iy+1 ...), fy))
// A gather: data-dependent, out-of-order reads whose indices are clamped at the borders.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class ResizeBilinear : public Generator<ResizeBilinear> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};  // host: 0 = chosen per call (host_strips.h)

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        // Algorithm. The portable (golden) variant and the GPU schedules: per output pixel
        // lerp(hx(x, iy), hx(x, iy + 1), fy) in f32, where hx is a source row's horizontal interpolation.
        // The host schedule computes the same interpolation in one of two ways (both within the spec's
        // tolerance of the golden, measured):
        //  - AVX-512: hx once per source row and strip, both horizontal neighbours of all three planes
        //    gathered as one u64 (packed per source row: left | right << 8 per plane, 16 bits apart);
        //  - elsewhere (AVX2, arm): vertical first, in fixed point (vy: the two source rows blended per
        //    output row, 8.8 bits), then one gathered u32 per output value holding vy at ix and ix + 1.
        const bool host = schedule.value() == Schedule::Host;
        const Target t = get_target();
        const bool avx512 = t.has_feature(Target::AVX512) || t.has_feature(Target::AVX512_Skylake) ||
                            t.has_feature(Target::AVX512_Zen4) || t.has_feature(Target::AVX512_SapphireRapids);
        const bool packed_loads = host && avx512, fixed_point = host && !avx512;
        Expr in_w = input.dim(0).extent(), in_h = input.dim(1).extent();
        Expr sx = (cast<float>(x) + 0.5f) * (cast<float>(in_w) / cast<float>(output.dim(0).extent())) - 0.5f;
        Expr sy = (cast<float>(y) + 0.5f) * (cast<float>(in_h) / cast<float>(output.dim(1).extent())) - 0.5f;
        // Weights in 0.16 fixed point (the fixed-point path).
        auto weight = [](const Expr &f) { return cast<uint16_t>(clamp(f * 65536.f + 0.5f, 0.f, 65535.f)); };
        colx(x) = {cast<int>(floor(sx)), sx - floor(sx), weight(sx - floor(sx))};  // source column, weights
        Expr iy = cast<int>(floor(sy)), fy = sy - floor(sy);
        Expr ix = colx(x)[0], fx = colx(x)[1];
        Expr ix_bounded = clamp(ix, -1, in_w - 1);  // a no-op on ix's range; bounds the gathered footprint
        Func clamped = BoundaryConditions::repeat_edge(input);
        if (fixed_point) {
            // a + (b - a) w as a - a w + b w, u16 lanes, each product a multiply-high (pmulhuw): exact when w
            // is a multiple of 2^-8 (3:2 and 2:1 resizes), so ties round as in f32; else within 4/256.
            Expr wy = weight(fy), wx = colx(x)[2];
            Expr t0 = cast<uint16_t>(clamped(x, iy, c)) << 8, t1 = cast<uint16_t>(clamped(x, iy + 1, c)) << 8;
            vy(x, y, c) = t0 - mul_shift_right(t0, wy, 16) + mul_shift_right(t1, wy, 16);
            // One vpair Func per plane (every case is RGB): the three gathers of a pixel then index three
            // buffers with one index vector, so its lanes are extracted once for all three (a planar vpair
            // gave each plane its own index vector, extracted lane by lane again).
            for (int k = 0; k < 3; k++)
                vpair[k](x, y) = cast<uint32_t>(vy(x, y, k)) | (cast<uint32_t>(vy(x + 1, y, k)) << 16);
            Expr both =
                select(c == 0, vpair[0](ix_bounded, y), c == 1, vpair[1](ix_bounded, y), vpair[2](ix_bounded, y));
            Expr l = cast<uint16_t>(both & 0xffff), r = cast<uint16_t>(both >> 16);
            Expr h = l - mul_shift_right(l, wx, 16) + mul_shift_right(r, wx, 16);
            output(x, y, c) = cast<uint8_t>((h + 128) >> 8);
        } else {
            // GPU: u8 -> f32 without a conversion instruction: the byte as the low mantissa bits of 2^23, minus
            // 2^23 (exact, so the same floats). NVIDIA GPUs convert int <-> float at 16 results per clock and SM
            // against 128 f32 adds (CUDA programming guide's throughput table, compute capability 9.0), and the
            // PTX had 4 cvt.rn.f32.u16 per output value (none left).
            const bool gpu = schedule.value() == Schedule::Gpu;
            auto to_f32 = [&](const Expr &u8) {
                return gpu ? reinterpret<float>(cast<uint32_t>(u8) | cast<uint32_t>(0x4B000000)) - 8388608.f :
                             cast<float>(u8);
            };
            Expr left = to_f32(clamped(ix, y, c)), right = to_f32(clamped(ix + 1, y, c));
            if (packed_loads) {
                Expr p = cast<uint64_t>(0);
                for (int k = 0; k < 3; k++) {
                    Expr pair = cast<uint16_t>(clamped(x, y, k)) | (cast<uint16_t>(clamped(x + 1, y, k)) << 8);
                    p = p | (cast<uint64_t>(pair) << (16 * k));
                }
                packed(x, y) = p;
                cols(x, y) = packed(ix_bounded, y);
                Expr both = cast<uint16_t>(cols(x, y) >> (cast<uint64_t>(c) * 16));
                left = cast<float>(both & 255);
                right = cast<float>(both >> 8);
            }
            hx(x, y, c) = left * (1.f - fx) + right * fx;  // y: a source row
            Expr v = hx(x, iy, c) * (1.f - fy) + hx(x, iy + 1, c) * fy;
            output(x, y, c) = cast<uint8_t>(clamp(v + 0.5f, 0.f, 255.f));
        }

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        output.set_estimates({{0, 1280}, {0, 720}, {0, 3}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, everything inlined
        case Schedule::Host: {
            // Strips in parallel, the 3 planes of a pixel together (c unrolled), 16-wide; a table of source column and
            // weights (colx). AVX-512: hx per source row and strip from one u64 gather per column instead of one u16
            // pair per plane: 13-24 % faster on 2 cores, level with the fixed-point path on 16. AVX2: the fixed-point
            // vertical-first path, vy and vpair per output row: 0.70-0.83x -> 0.89-0.95x OpenCV (the f32 vertical-first
            // 0.81-0.99x; vy/vpair per 256- or 512-column chunk slower). AVX2 targets without fast gathers (the
            // EPYC's `host`, tuned for Zen 3) get every gather as scalar loads, so it is the count of index
            // extractions and loads that costs: vpair per plane (one index vector for three gathers) 5-8 % less
            // thread CPU time per call than a planar vpair (2-vCPU EPYC, one thread, 1080p and 4096^2; 2 threads
            // against OpenCV 0.93 -> 1.06x at 1080p, 0.88 -> 1.02x at 4096^2, docs/performance.md); not kept: one u64
            // gather per pixel of the three planes' vy at ix and one at ix + 1 (level: unpacking the planes from u64
            // lanes costs what the gathers save), the f32 u64-gather path of AVX-512 (0.80-0.83x OpenCV against 0.93x),
            // the gather as a scalar loop into a buffer (5-10 % slower). Strip height per call (host_strips.h): the
            // tallest of 32/16/8 rows giving every thread 32 strips (each the best measured on 16 and on 2 threads, by
            // 10-20 %). bound(c, 0, 3): every case is RGB. GuardWithIf: no strip overlaps another's rows.
            const int v = 2 * natural_vector_size<float>();
            output.bound(c, 0, 3).reorder(c, x, y).unroll(c);
            strips_by_threads(output, output.dim(1).extent(), strip_heights(strip_rows, {32, 16, 8}), 32,
                              [&](Stage s, int rows) {
                                  s.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, v);
                              });
            colx.compute_root().vectorize(x, v);
            if (fixed_point) {
                vy.compute_at(output, yi).reorder(x, c).vectorize(x, natural_vector_size<uint16_t>());
                for (Func f : vpair)
                    f.compute_at(output, yi).vectorize(x, natural_vector_size<uint32_t>());
            } else {
                hx.compute_at(output, yo).reorder(c, x, y).unroll(c).vectorize(x, v);
                packed.compute_at(hx, y).vectorize(x, 16);
                cols.compute_at(hx, x).vectorize(x, v);
            }
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 4);  // 4 x f32 (gathers are 4 scalar loads), no local memory
            output.gpu_blocks(c);
            break;
        case Schedule::Gpu: {
            // 4 x 4 outputs per thread (shared weights), strides specialised, the u8 -> f32 conversion above, and on
            // CUDA a pixel's 3 planes in one thread (weights and source columns once): 16384^2 cuda 27 -> 60 % of copy
            // on an H100 from the first GPU schedule, 2.2x NPP. Not kept: 64 x 4 threads, 8 x 2 per thread (level), the
            // conversion on OpenCL (NVIDIA's OpenCL compiler gains nothing from it). The stores are bytes in the PTX
            // (no declared host alignment): declared (gpu_aligned_rows, 32-bit stores) it ran level: the gathers are
            // the cost.
            const bool planes_in_thread = get_target().has_feature(Target::CUDA);
            if (planes_in_thread) output.bound(c, 0, 3);
            const ThreadBlockVars v = gpu_thread_block(output, x, y, {4, 4, true, 32, 8});
            if (planes_in_thread)
                output.reorder(v.xv, c, v.yr, v.xi, v.yi, v.xo, v.yo).unroll(c);
            else
                output.gpu_blocks(c);
            output.specialize(output.dim(0).min() % 4 == 0 && output.dim(1).stride() % 4 == 0 &&
                              output.dim(2).stride() % 4 == 0);
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    Func vy{"vy"}, vpair[3] = {Func("vpair0"), Func("vpair1"), Func("vpair2")}, packed{"packed"}, cols{"cols"},
                   colx{"colx"}, hx{"hx"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ResizeBilinear, resize_bilinear)
