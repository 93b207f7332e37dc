// resize_bilinear: bilinear resize of a planar u8 image to the output's size (up or down), with
// pixel-centre alignment and clamped edges:
//   sx = (x + 0.5) * in_w / out_w - 0.5,   ix = floor(sx),   fx = sx - ix   (same for y)
//   output(x, y, c) = round(lerp(lerp(in(ix, iy), in(ix+1, iy), fx), lerp(... iy+1 ...), fy))
// A gather: data-dependent, out-of-order reads whose indices are clamped at the borders.
#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class ResizeBilinear : public Generator<ResizeBilinear> {
public:
    ScheduleParam schedule;

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        // Algorithm. The horizontal interpolation of a source row (hx) is a Func of its own, so that a
        // schedule can compute it once per source row and blend rows with dense loads; per output pixel
        // it is the same arithmetic as lerp(lerp(...), lerp(...), fy) (top = hx(x, iy), bottom =
        // hx(x, iy + 1)). The host schedule also reads both horizontal neighbours through one gathered u16
        // (pair: left | right << 8), on AVX-512 those of all three planes through one u64: the same values.
        const bool pair_loads = schedule.value() == Schedule::Host;
        const Target t = get_target();
        const bool packed_loads =
            pair_loads && (t.has_feature(Target::AVX512) || t.has_feature(Target::AVX512_Skylake) ||
                           t.has_feature(Target::AVX512_Zen4) || t.has_feature(Target::AVX512_SapphireRapids));
        Expr in_w = input.dim(0).extent(), in_h = input.dim(1).extent();
        Expr sx = (cast<float>(x) + 0.5f) * (cast<float>(in_w) / cast<float>(output.dim(0).extent())) - 0.5f;
        Expr sy = (cast<float>(y) + 0.5f) * (cast<float>(in_h) / cast<float>(output.dim(1).extent())) - 0.5f;
        colx(x) = {cast<int>(floor(sx)), sx - floor(sx)};  // source column and weight of output column x
        Expr iy = cast<int>(floor(sy)), fy = sy - floor(sy);
        Func clamped = BoundaryConditions::repeat_edge(input);
        in_f(x, y, c) = cast<float>(clamped(x, y, c));
        pair(x, y, c) = cast<uint16_t>(clamped(x, y, c)) | (cast<uint16_t>(clamped(x + 1, y, c)) << 8);
        Expr ix = colx(x)[0], fx = colx(x)[1];
        Expr left = in_f(ix, y, c), right = in_f(ix + 1, y, c);
        if (packed_loads) {
            // Both neighbours of all three planes in one u64 (packed: left | right << 8 per plane, 16 bits
            // apart), gathered once per output column and source row (cols), then split per plane.
            Expr p = cast<uint64_t>(0);
            for (int k = 0; k < 3; k++) {
                p = p | (cast<uint64_t>(pair(x, y, k)) << (16 * k));
            }
            packed(x, y) = p;
            cols(x, y) = packed(clamp(ix, -1, in_w - 1), y);  // a no-op on ix's range; bounds the footprint
            Expr both = cast<uint16_t>(cols(x, y) >> (cast<uint64_t>(c) * 16));
            left = cast<float>(both & 255);
            right = cast<float>(both >> 8);
        } else if (pair_loads) {
            Expr both = pair(clamp(ix, -1, in_w - 1), y, c);  // a no-op on ix's range; bounds pair's footprint
            left = cast<float>(both & 255);
            right = cast<float>(both >> 8);
        }
        hx(x, y, c) = left * (1.f - fx) + right * fx;  // y: a source row
        Expr v = hx(x, iy, c) * (1.f - fy) + hx(x, iy + 1, c) * fy;
        output(x, y, c) = cast<uint8_t>(clamp(v + 0.5f, 0.f, 255.f));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        output.set_estimates({{0, 1280}, {0, 720}, {0, 3}});

        // Schedule (one measured line per decision; the experiments: benchmarks/RESULTS.md, "Schedule log")
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, everything inlined
        case Schedule::Host: {
            // 16-row strips in parallel, the 3 planes of a pixel together (c unrolled), 16-wide: 1080p one
            // thread 7.9 -> 6.2 ms (AVX2 VM, 2026-11-23). Per strip, each source row's horizontal pass
            // (hx) once, from u16 neighbour pairs (one gather per value instead of two) and a per-column
            // table of source index and weight (colx); the rows blended with dense loads: 0.31x -> 0.50x
            // OpenCV at 1080p (AVX-512 VM, 2026-11-24, paired). One u64 gather for both neighbours of all three
            // planes (packed per source row, cols per vector of columns) instead of one u16 per plane: 1080p
            // 1.54 -> 1.17 ms, 4096^2 12.2 -> 10.6 ms (AVX-512 VM, quiet, 2026-11-24 06:30 UTC); on AVX2 (no
            // 64-bit lane narrowing) the u64 is slower: 1.61-1.67 -> 1.89-1.91 ms, 13.9-14.1 -> 15.6-15.7 ms
            // (AVX2 VM, quiet, 2026-11-24 08:41 UTC), so AVX2 and arm keep the u16 pairs.
            // bound(c, 0, 3): every case is RGB. GuardWithIf: no strip overlaps another's rows.
            const int v = 2 * natural_vector_size<float>();
            output.bound(c, 0, 3)
                .reorder(c, x, y)
                .unroll(c)
                .split(y, yo, yi, 16, TailStrategy::GuardWithIf)
                .parallel(yo)
                .vectorize(x, v);
            colx.compute_root().vectorize(x, v);
            hx.compute_at(output, yo).reorder(c, x, y).unroll(c).vectorize(x, v);
            if (packed_loads) {
                packed.compute_at(hx, y).vectorize(x, 16);
                cols.compute_at(hx, x).vectorize(x, v);
            } else {
                pair.compute_at(output, yo).vectorize(x, natural_vector_size<uint16_t>());
            }
            break;
        }
        case Schedule::Mali:
            mali_work_items(output, x, y, 4);  // 4 x f32 (gathers are 4 scalar loads), no local memory
            output.gpu_blocks(c);
            break;
        case Schedule::Gpu:
            // 4 outputs x 2 rows per thread (shared weights), aligned 4-byte stores (strides specialised):
            // H100 16384^2 -> 10922^2 x 3 opencl 1.49 -> 0.75 ms (27 -> 54 % of copy), cuda 1.43 -> 0.84 ms.
            gpu_thread_block(output, x, y, {4, 2, true, 32, 8});
            output.gpu_blocks(c);
            output.specialize(output.dim(0).min() % 4 == 0 && output.dim(1).stride() % 4 == 0 &&
                              output.dim(2).stride() % 4 == 0);
            break;
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    Func in_f{"in_f"}, pair{"pair"}, packed{"packed"}, cols{"cols"}, colx{"colx"}, hx{"hx"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ResizeBilinear, resize_bilinear)
