// resize_bilinear: bilinear resize of a planar u8 image to the output's size (up or down), with
// pixel-centre alignment and clamped edges:
//   sx = (x + 0.5) * in_w / out_w - 0.5,   ix = floor(sx),   fx = sx - ix   (same for y)
//   output(x, y, c) = round(lerp(lerp(in(ix, iy), in(ix+1, iy), fx), lerp(... iy+1 ...), fy))
// A gather: data-dependent, out-of-order reads whose indices are clamped at the borders.
#include "Halide.h"

namespace {

using namespace Halide;

class ResizeBilinear : public Generator<ResizeBilinear> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

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

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain loops, everything inlined.
        } else if (s == "host") {
            // Strips of 16 rows in parallel; the three planes of a pixel computed together (c
            // innermost, unrolled: the source indices and weights, which depend on x and y only, are
            // computed once for all three), 16-wide f32 math. Every source pixel is a gathered lane:
            // Halide 21 lowers a vector load at data-dependent indices to one extract, load and
            // insert per lane on x86 (no vpgatherdd), 4 gathers per output pixel, which is where the
            // time goes. Halide 21 JIT, 2-vCPU shared VM (AVX2), 2026-11-23, 1920x1080 -> 1280x720,
            // one thread, process CPU time: 7.9 ms (the previous schedule: fused rows x planes in
            // parallel, 8-wide) -> 6.2 ms (8-wide with the planes unrolled 6.6 ms; 16-wide per plane
            // 7.3 ms; the source rows converted to f32 once per output row: no gain). cv::resize
            // took 2.0 ms: it interpolates each source row once horizontally (fixed point, index
            // tables), then blends rows with dense vector loads; see benchmarks/RESULTS.md.
            // bound(c, 0, 3): the planes are unrolled; every case is RGB. GuardWithIf: no strip
            // overlaps another's rows.
            output.bound(c, 0, 3)
                .reorder(c, x, y)
                .unroll(c)
                .split(y, yo, yi, 16, TailStrategy::GuardWithIf)
                .parallel(yo)
                .vectorize(x, 2 * natural_vector_size<float>());
        } else if (s == "mali") {
            // Mali: 4 x f32 lanes per work-item (gathers become 4 scalar loads, the math is one
            // 128-bit op), 8x4 work-groups, no local memory.
            output.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 8, 4).gpu_blocks(c);
        } else if (s == "gpu") {
            // Generic GPU: 4 outputs x 2 rows per thread (the x and y weights are shared), 32x8
            // threads per block; output strides specialised to multiples of 4 so that OpenCL
            // stores aligned uchar4. Staging the source footprint in local memory does not pay
            // here: each source pixel is read at most ~4 times and the footprint of a block
            // depends on the scale factor. H100, 16384^2 -> 10922^2 x 3, resident (2026-11-23,
            // experiments in docs/evidence/h100/README.md): one pixel per thread in 16x16
            // blocks took 1.49 ms opencl / 1.43 ms cuda (27 % / 28 % of the device copy); this
            // one 0.75 ms (54 %) / 0.84 ms (48 %). The rest is arithmetic: ~30 instructions per
            // output byte (f32 coordinates, 4 gathered loads, 3 lerps, conversions). Tried: 3
            // channels per thread (opencl 55 %, cuda 42 %), 4 pixels 32 apart (51 % / 47 %),
            // 4 pixels per thread (48 % / 42 %).
            output.split(x, x, xv, 4)
                .split(y, y, yr, 2)
                .reorder(xv, yr, x, y, c)
                .vectorize(xv)
                .unroll(yr)
                .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf)
                .gpu_blocks(c);
            output.specialize(output.dim(0).min() % 4 == 0 && output.dim(1).stride() % 4 == 0 &&
                              output.dim(2).stride() % 4 == 0);
        } else {
            throw CompileError("resize_bilinear: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yc{"yc"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yr{"yr"};
    Func in_f{"in_f"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ResizeBilinear, resize_bilinear)
