// bad_schedule: a test-only pipeline (not part of the suite) whose `gpu` schedule is deliberately
// impossible, to show that a generator failing for one profile does not break the build: the
// opencl/cuda variants become stubs whose runs are ERRORs carrying Halide's message.
//   output(x, y) = (2 * input(x, y)) / 2      (u8, through a u16 intermediate)
#include "Halide.h"

namespace {

using namespace Halide;

class BadSchedule : public Generator<BadSchedule> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        tmp(x, y) = cast<uint16_t>(input(x, y)) * 2;
        output(x, y) = cast<uint8_t>(tmp(x, y) / 2);

        // Estimates
        input.set_estimates({{0, 64}, {0, 48}});
        output.set_estimates({{0, 64}, {0, 48}});

        // Schedule
        const std::string s = schedule;
        if (s == "portable" || s == "host") {
            // Plain loops.
        } else if (s == "mali") {
            output.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (s == "gpu") {
            // Impossible on purpose: a GPU block loop nested inside a GPU thread loop. Halide rejects
            // it with "Funcs cannot be scheduled in between GPU block loops".
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            tmp.compute_at(output, xi).gpu_blocks(x);
        } else {
            throw CompileError("bad_schedule: unknown schedule '" + s + "'");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func tmp{"tmp"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BadSchedule, bad_schedule)
