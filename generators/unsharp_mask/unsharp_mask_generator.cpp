// unsharp_mask: a multi-stage u8 pipeline (clamped edges):
//   blur_x(x, y)  = in(x-2) + 4 in(x-1) + 6 in(x) + 4 in(x+1) + in(x+2)                  (u16)
//   blur_y(x, y)  = (blur_x(y-2) + 4 blur_x(y-1) + 6 blur_x(y) + 4 blur_x(y+1) + blur_x(y+2) + 128) >> 8
//   output(x, y)  = clamp(in + ((in - blur_y) * amount + 8) >> 4, 0, 255)    amount: Q4 (16 = 1.0)
// The intermediates are materialised (portable, mali) or fused into tiles (host, gpu): the same
// integers either way. >> of a negative difference is an arithmetic (floor) shift.
#include "Halide.h"

namespace {

using namespace Halide;

class UnsharpMask : public Generator<UnsharpMask> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<uint8_t> amount{"amount"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        in16(x, y) = cast<uint16_t>(clamped(x, y));
        blur_x(x, y) = in16(x - 2, y) + 4 * in16(x - 1, y) + 6 * in16(x, y) + 4 * in16(x + 1, y) + in16(x + 2, y);
        Expr sum_y = cast<int32_t>(blur_x(x, y - 2)) + 4 * cast<int32_t>(blur_x(x, y - 1)) +
                     6 * cast<int32_t>(blur_x(x, y)) + 4 * cast<int32_t>(blur_x(x, y + 1)) +
                     cast<int32_t>(blur_x(x, y + 2));
        blur_y(x, y) = (sum_y + 128) >> 8;
        Expr v = cast<int32_t>(clamped(x, y));
        Expr sharpened = v + (((v - blur_y(x, y)) * cast<int32_t>(amount) + 8) >> 4);
        output(x, y) = cast<uint8_t>(clamp(sharpened, 0, 255));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        amount.set_estimate(24);
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Every stage materialised over the whole image (the big-intermediates case).
            blur_x.compute_root();
            blur_y.compute_root();
        } else if (s == "host") {
            // Fused: strips of 32 rows in parallel, blur_x in a sliding window, blur_y inlined.
            // GuardWithIf: with the default ShiftInwards the last two strips overlap and two threads
            // write the same rows; the repeat check saw differing values on a 16-core host (2026-11-23).
            output.split(y, yo, yi, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 16);
            blur_x.store_at(output, yo).compute_at(output, yi).vectorize(x, 16);
        } else if (s == "mali") {
            // Mali: blur_x and blur_y materialised in global memory (no local memory), each kernel
            // 8 x 16-bit lanes per work-item (128-bit) in 8x4 work-groups.
            blur_x.compute_root().vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
            blur_y.compute_root().vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
            output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: fused into 16x16 tiles; the 16x20 blur_x tile is staged in local memory,
            // blur_y is inlined.
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            blur_x.compute_at(output, xo).gpu_threads(x, y);
        } else {
            throw CompileError("unsharp_mask: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func in16{"in16"}, blur_x{"blur_x"}, blur_y{"blur_y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(UnsharpMask, unsharp_mask)
