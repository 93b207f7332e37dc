// sobel: 3x3 Sobel gradients of a u8 image (clamped edges), then two f32 outputs:
//   magnitude(x, y) = sqrt(gx^2 + gy^2)     angle(x, y) = atan2(gy, gx)   (radians, [-pi, pi])
// gx, gy are exact integers (|g| <= 1020) converted to f32; the non-linear math (sqrt, atan2) is
// where devices differ: OpenCL allows 3 ULP for sqrt. atan2 is fast_atan2 (fast_atan2.h: a polynomial
// within 3.0e-7 rad of atan2 in double over every (gx, gy), as close as f32 libm's atan2f), the same
// on every profile: Halide 21 calls libm's scalar atan2f per lane on x86.
#include "Halide.h"
#include "fast_atan2.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class Sobel : public Generator<Sobel> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};
    GeneratorParam<int> per_thread{"per_thread", 0};  // host: > 0 = that many strips per thread  // host: 0 = chosen
                                                      // per call (host_strips.h)

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<float, 2>> magnitude{"magnitude"};
    Output<Buffer<float, 2>> angle{"angle"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in32(x, y) = cast<int32_t>(clamped(x, y));
        Expr gx = (in32(x + 1, y - 1) + 2 * in32(x + 1, y) + in32(x + 1, y + 1)) -
                  (in32(x - 1, y - 1) + 2 * in32(x - 1, y) + in32(x - 1, y + 1));
        Expr gy = (in32(x - 1, y + 1) + 2 * in32(x, y + 1) + in32(x + 1, y + 1)) -
                  (in32(x - 1, y - 1) + 2 * in32(x, y - 1) + in32(x + 1, y - 1));
        grad(x, y) = {cast<float>(gx), cast<float>(gy)};
        magnitude(x, y) = sqrt(grad(x, y)[0] * grad(x, y)[0] + grad(x, y)[1] * grad(x, y)[1]);
        angle(x, y) = sobel::fast_atan2(grad(x, y)[1], grad(x, y)[0]);

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        magnitude.set_estimates({{0, 1920}, {0, 1080}});
        angle.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops, everything inlined
        case Schedule::Host: {
            // Strips in parallel, gradients inlined (integer adds are cheaper than a round trip through memory).
            // Both outputs in one parallel loop (angle computed with magnitude at each vector of x): one pool
            // wake-up per call instead of two, each input row read once per strip. compute_with forbids
            // specialisations on angle, so the strip height is one expression (stencil_strip_height: 2 strips per
            // thread where they are at most 96 rows, else the tallest of 16/8 rows giving each thread 8; 1080p on
            // 16 threads: 2 per thread 1.18x OpenCV against 0.82x with 8-row strips, measured when the two
            // outputs were separate loops). 16 f32 lanes (two vectors per iteration): atan2's polynomial is a
            // chain of dependent multiply-adds, unfused under strict_float, and two independent chains per
            // iteration hide its latency: 2-vCPU EPYC (AVX2), one thread, thread CPU time per call, sobel_strict
            // 1080p 6.3 -> 5.4 ms, 4096^2 43.9 -> 35.4 ms, sobel 1080p 4.8 -> 3.8 ms (32 lanes: no further gain); with
            // the single loop, 2 threads against OpenCV (docs/performance.md) sobel_strict 1080p 1.08 -> 1.34x,
            // sobel 1.29 -> 1.60x. GuardWithIf: with ShiftInwards the last two strips overlap and two threads write the
            // same rows (the repeat check caught it). always_partition(x): the first strip (top edge) and the guarded
            // last one kept the repeat_edge clamp in every lane, 5-10x a whole strip's time (task-times).
            const Expr height = stencil_strip_height(magnitude.dim(1).extent(), per_thread, strip_rows, {16, 8});
            for (Func out : {Func(magnitude), Func(angle)}) {
                out.split(y, yo, yi, height, TailStrategy::GuardWithIf)
                    .parallel(yo)
                    .vectorize(x, 2 * natural_vector_size<float>())
                    .always_partition(x);
            }
            angle.compute_with(magnitude, x);
            break;
        }
        case Schedule::Mali:
            // 4 x f32 per work-item, gradients recomputed in registers by each output's kernel.
            for (Func out : {Func(magnitude), Func(angle)})
                mali_work_items(out, x, y, 4);
            break;
        case Schedule::Gpu: {
            // 4 x 4 pixels per thread (float4 stores), gradients inlined from the cached input (no local memory or
            // barriers), fast_atan2: 16384^2 33 -> 76 % of copy (opencl) on an H100; 4 x 2 per thread slower.
            // Both outputs in one kernel (angle computed with magnitude at the thread loop): at 1080p a launch is
            // most of a kernel's time.
            const ThreadBlockVars v = gpu_thread_block(magnitude, x, y, {4, 4, true, 32, 8});
            gpu_thread_block(angle, x, y, {4, 4, true, 32, 8});
            angle.compute_with(magnitude, v.xi);
            magnitude.never_partition_all();
            angle.never_partition_all();
            // Whole images (zero_mins: 30 -> 21 kernel arguments): 1920x1080 on an H200's OpenCL 0.0300-0.0312 ->
            // 0.0286-0.0302 ms a call.
            magnitude.specialize(zero_mins(input, magnitude, angle));
            break;
        }
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func in32{"in32"}, grad{"grad"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Sobel, sobel)
