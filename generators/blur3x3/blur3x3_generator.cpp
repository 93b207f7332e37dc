// blur3x3: separable 3x3 box blur of a u8 image with clamped (repeat-edge) borders.
//   sum_x(x, y)  = in(x-1, y) + in(x, y) + in(x+1, y)              (u16)
//   output(x, y) = (sum_x(x, y-1) + sum_x(x, y) + sum_x(x, y+1) + 4) / 9   (rounded mean, u8)
#include "Halide.h"

namespace {

using namespace Halide;

class Blur3x3 : public Generator<Blur3x3> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func in16("in16");
        in16(x, y) = cast<uint16_t>(clamped(x, y));
        sum_x(x, y) = in16(x - 1, y) + in16(x, y) + in16(x + 1, y);
        output(x, y) = cast<uint8_t>((sum_x(x, y - 1) + sum_x(x, y) + sum_x(x, y + 1) + 4) / 9);

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        output.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable") {
            // Sliding window over rows: each row sum computed once, no vectors, no threads.
            sum_x.store_root().compute_at(output, y);
        } else if (s == "host") {
            // Strips of 32 rows in parallel, row sums kept in a sliding window per strip.
            const int v = natural_vector_size<uint16_t>();
            output.split(y, yo, yi, 32).parallel(yo).vectorize(x, 2 * v);
            sum_x.store_at(output, yo).compute_at(output, yi).vectorize(x, v);
        } else if (s == "mali") {
            // Mali: 8 x u16 lanes per work-item (128-bit), 8x4 work-groups; the row sums are
            // recomputed in registers instead of staged through local memory.
            output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Generic GPU: 16x16 tiles, row sums of the tile staged in local (shared) memory.
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            sum_x.compute_at(output, xo).gpu_threads(x, y);
        } else {
            throw CompileError("blur3x3: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func sum_x{"sum_x"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Blur3x3, blur3x3)
