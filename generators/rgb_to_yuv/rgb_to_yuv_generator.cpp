// rgb_to_yuv: planar u8 RGB -> planar YUV 4:2:0 (BT.601 studio range, integer), three outputs:
//   out_y(x, y) = ((66 R + 129 G + 25 B + 128) >> 8) + 16                    full resolution
//   out_u(x, y) = ((-38 R' - 74 G' + 112 B' + 128) >> 8) + 128               half resolution, where
//   out_v(x, y) = ((112 R' - 94 G' - 18 B' + 128) >> 8) + 128                R' = rounded mean of the
//                                                                              2x2 block (edges clamped)
// >> of a negative value is an arithmetic (floor) shift. Three outputs of different sizes: each
// must be copied back from the device.
#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class RgbToYuv : public Generator<RgbToYuv> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};  // host: Y rows per strip (0 = 16; chroma half)

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
                        in32(2 * x + 1, 2 * y + 1, c) + 2) >>
                       2;
        Expr rs = sub(x, y, 0), gs = sub(x, y, 1), bs = sub(x, y, 2);
        out_u(x, y) = cast<uint8_t>(clamp(((-38 * rs - 74 * gs + 112 * bs + 128) >> 8) + 128, 0, 255));
        out_v(x, y) = cast<uint8_t>(clamp(((112 * rs - 94 * gs - 18 * bs + 128) >> 8) + 128, 0, 255));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}, {0, 3}});
        out_y.set_estimates({{0, 1920}, {0, 1080}});
        out_u.set_estimates({{0, 960}, {0, 540}});
        out_v.set_estimates({{0, 960}, {0, 540}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, everything inlined
        case Schedule::Host: {
            // Y strips in parallel, the strip's U and V rows in the same task (compute_with) while its input rows are
            // in cache: one pass over the input instead of three (4096^2 one thread 21 % faster). GuardWithIf: no strip
            // overlaps another's rows. One height for every size and thread count: Halide 21 refuses specialisations on
            // a Func computed with another ("must not have any specializations"), and Y strips of another height than
            // the chroma's made 1080p on 16 threads 0.39x OpenCV. 16 Y rows (8 U, V): on 16 threads 0.64x OpenCV at
            // 1080p against 0.43x with 32 rows and 0.77x with 8, and 8 would make 4096^2 512 strips; on 2 threads 16
            // and 8 are level.
            // always_partition(x): the guarded last strip (1080 = 67 x 16 + 8 rows) ran its x loops with the
            // repeat_edge clamp in every lane (gathers), 8x a whole strip's time (task-times); on 16 threads it is the
            // last task taken, so every call waited for it.
            const int rows = strip_rows > 0 ? (int)strip_rows : 16;
            out_y.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 32).always_partition(x);
            for (Func out : {Func(out_u), Func(out_v)}) {
                out.split(y, yo, yi, std::max(1, rows / 2), TailStrategy::GuardWithIf)
                    .parallel(yo)
                    .vectorize(x, 16)
                    .always_partition(x);
                out.compute_with(out_y, yo);
            }
            break;
        }
        case Schedule::Mali:
            // Y 8 pixels per work-item; U and V one each: a vectorized 2x2 mean makes Halide 21's OpenCL
            // backend print C-backend syntax (`short8_ops::broadcast`) that clBuildProgram rejects (PoCL).
            mali_work_items(out_y, x, y, 8);
            mali_work_items(out_u, x, y, 1);
            mali_work_items(out_v, x, y, 1);
            break;
        case Schedule::Gpu: {
            // One kernel for Y, U and V (compute_with), 4x2 Y + 2 U + 2 V per thread, the input read once: 16384^2 23
            // -> 71 % of copy (opencl) on an H100.
            // compute_with on GPU loops needs the fused loops' bounds to match exactly: chroma planes are
            // ceil(w/2) x ceil(h/2) with mins 0 (what the spec passes).
            out_y.dim(0).set_min(0);
            out_y.dim(1).set_min(0);
            for (Func o : {Func(out_u), Func(out_v)}) {
                o.output_buffer().dim(0).set_min(0).set_extent((out_y.dim(0).extent() + 1) / 2);
                o.output_buffer().dim(1).set_min(0).set_extent((out_y.dim(1).extent() + 1) / 2);
            }
            const ThreadBlockVars v = gpu_thread_block(out_y, x, y, {4, 2, true, 32, 8});
            gpu_thread_block(out_u, x, y, {2, 1, true, 32, 8});
            gpu_thread_block(out_v, x, y, {2, 1, true, 32, 8});
            out_u.compute_with(out_y, v.xi);
            out_v.compute_with(out_u, v.xi);
            // The input's mins specialised (zero_mins; the outputs' are fixed above): 31 -> 22 kernel arguments,
            // 1920x1080 on an H200's OpenCL 21.5-24.9 -> 19.0-22.2 us a call (never partitioning the loops: level).
            out_y.specialize(zero_mins(input));
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yo{"yo"}, yi{"yi"};
    Func in32{"in32"}, sub{"sub"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(RgbToYuv, rgb_to_yuv)
