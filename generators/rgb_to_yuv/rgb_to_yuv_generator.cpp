// rgb_to_yuv: planar u8 RGB -> planar YUV 4:2:0 (BT.601 studio range, integer), three outputs:
//   out_y(x, y) = ((66 R + 129 G + 25 B + 128) >> 8) + 16                    full resolution
//   out_u(x, y) = ((-38 R' - 74 G' + 112 B' + 128) >> 8) + 128               half resolution, where
//   out_v(x, y) = ((112 R' - 94 G' - 18 B' + 128) >> 8) + 128                R' = rounded mean of the
//                                                                              2x2 block (edges clamped)
// >> of a negative value is an arithmetic (floor) shift. Three outputs of different sizes: each
// must be copied back from the device.
#include "Halide.h"

namespace {

using namespace Halide;

class RgbToYuv : public Generator<RgbToYuv> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 2>> out_y{"out_y"};
    Output<Buffer<uint8_t, 2>> out_u{"out_u"};
    Output<Buffer<uint8_t, 2>> out_v{"out_v"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in32(x, y, c) = cast<int32_t>(clamped(x, y, c));
        Expr r = in32(x, y, 0), g = in32(x, y, 1), b = in32(x, y, 2);
        out_y(x, y) = cast<uint8_t>(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
        sub(x, y, c) = (in32(2 * x, 2 * y, c) + in32(2 * x + 1, 2 * y, c) + in32(2 * x, 2 * y + 1, c) +
                        in32(2 * x + 1, 2 * y + 1, c) + 2) >> 2;
        Expr rs = sub(x, y, 0), gs = sub(x, y, 1), bs = sub(x, y, 2);
        out_u(x, y) = cast<uint8_t>(clamp(((-38 * rs - 74 * gs + 112 * bs + 128) >> 8) + 128, 0, 255));
        out_v(x, y) = cast<uint8_t>(clamp(((112 * rs - 94 * gs - 18 * bs + 128) >> 8) + 128, 0, 255));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        out_y.set_estimates({{0, 1920}, {0, 1080}});
        out_u.set_estimates({{0, 960}, {0, 540}});
        out_v.set_estimates({{0, 960}, {0, 540}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Plain loops, everything inlined.
        } else if (s == "host") {
            // One pass over the input: strips of 32 Y rows in parallel, and the 16 U and V rows of
            // the same input rows computed in the same task right after them (compute_with on the
            // strip loop), while those input rows are still in cache. Three separate parallel loops
            // (the first schedule) read the 3-plane input three times. Y 32 x u8 per vector, U and
            // V 16 (their 2x2 sums are 16-bit). GuardWithIf: no strip overlaps another's rows.
            // Halide 21 JIT, 2-vCPU shared VM (AVX2), 2026-11-23, one thread, process CPU time:
            // 1920x1080 2.0-2.1 -> 1.3-1.7 ms, 4096x4096 15.6 -> 12.3 ms; Y 16 wide, or V fused with
            // U down to the row or vector loop, within noise; the 2x2 sums computed once per strip
            // for U and V (sub.compute_at) 4x slower.
            out_y.split(y, yo, yi, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 32);
            for (Func out : {Func(out_u), Func(out_v)}) {
                out.split(y, yo, yi, 16, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 16);
                out.compute_with(out_y, yo);
            }
        } else if (s == "mali") {
            // Mali: 8x4 work-groups, no local memory. Y: 8 pixels per work-item (8 x u8 out,
            // 2 x 128-bit i32 math). U and V: one pixel per work-item, because vectorizing the 2x2
            // mean makes Halide 21 emit a pairwise "vector reduce add" that its OpenCL backend
            // prints in C-backend syntax (`short8_ops::broadcast`, `.s10` swizzles) and
            // clBuildProgram rejects (found by this pipeline on PoCL).
            out_y.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
            out_u.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
            out_v.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: one kernel for the three outputs. Each thread computes 4x2 Y pixels and
            // the 2 U and 2 V pixels of the same 4x2 input block (compute_with), 32x8 threads per
            // block, so the input is read from memory once instead of three times. compute_with
            // on GPU loops needs the fused loops' bounds to match exactly, hence the shape
            // constraints (the chroma planes are ceil(w/2) x ceil(h/2), mins 0: what the spec
            // passes); GuardWithIf for images narrower than a block (64 px wide: 16 threads of 4).
            // H100, 16384^2, resident (2026-11-23, experiments in
            // docs/evidence/h100/README.md): three kernels of one pixel per thread, 16x16 blocks,
            // took 1.81 ms opencl / 1.85 ms cuda (23 % / 22 % of the device copy; the input was
            // read 3 times: 10.5 bytes of traffic per pixel for the 4.5 counted); this one
            // 0.58 ms (71 %) / 0.60 ms (68 %). 2x2 Y per thread unvectorised: 69 % / 70 %.
            out_y.dim(0).set_min(0);
            out_y.dim(1).set_min(0);
            for (Func o : {Func(out_u), Func(out_v)}) {
                o.output_buffer().dim(0).set_min(0).set_extent((out_y.dim(0).extent() + 1) / 2);
                o.output_buffer().dim(1).set_min(0).set_extent((out_y.dim(1).extent() + 1) / 2);
            }
            out_y.split(x, x, xv, 4)
                .split(y, y, yr, 2)
                .reorder(xv, yr, x, y)
                .vectorize(xv)
                .unroll(yr)
                .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
            for (Func o : {Func(out_u), Func(out_v)}) {
                o.split(x, x, xv, 2).vectorize(xv).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
            }
            out_u.compute_with(out_y, xi);
            out_v.compute_with(out_u, xi);
        } else {
            throw CompileError("rgb_to_yuv: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yr{"yr"};
    Func in32{"in32"}, sub{"sub"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(RgbToYuv, rgb_to_yuv)
