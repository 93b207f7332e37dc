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
        // Algorithm
        Expr in_w = input.dim(0).extent(), in_h = input.dim(1).extent();
        Expr sx = (cast<float>(x) + 0.5f) * (cast<float>(in_w) / cast<float>(output.dim(0).extent())) - 0.5f;
        Expr sy = (cast<float>(y) + 0.5f) * (cast<float>(in_h) / cast<float>(output.dim(1).extent())) - 0.5f;
        Expr ix = cast<int>(floor(sx)), iy = cast<int>(floor(sy));
        Expr fx = sx - floor(sx), fy = sy - floor(sy);
        Func clamped = BoundaryConditions::repeat_edge(input);
        in_f(x, y, c) = cast<float>(clamped(x, y, c));
        Expr top = in_f(ix, iy, c) * (1.f - fx) + in_f(ix + 1, iy, c) * fx;
        Expr bottom = in_f(ix, iy + 1, c) * (1.f - fx) + in_f(ix + 1, iy + 1, c) * fx;
        Expr v = top * (1.f - fy) + bottom * fy;
        output(x, y, c) = cast<uint8_t>(clamp(v + 0.5f, 0.f, 255.f));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        output.set_estimates({{0, 1280}, {0, 720}, {0, 3}});

        // Schedule (one measured line per decision; the experiments: benchmarks/RESULTS.md, "Schedule log")
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, everything inlined
        case Schedule::Host:
            // 16-row strips in parallel, the 3 planes of a pixel together (c unrolled: indices and weights
            // once for all three), 16-wide: 1080p one thread 7.9 -> 6.2 ms (AVX2 VM, 2026-11-23).
            // bound(c, 0, 3): every case is RGB. GuardWithIf: no strip overlaps another's rows.
            output.bound(c, 0, 3)
                .reorder(c, x, y)
                .unroll(c)
                .split(y, yo, yi, 16, TailStrategy::GuardWithIf)
                .parallel(yo)
                .vectorize(x, 2 * natural_vector_size<float>());
            break;
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
    Func in_f{"in_f"};
};


}  // namespace

HALIDE_REGISTER_GENERATOR(ResizeBilinear, resize_bilinear)
