// Generators that only a spec derived from their metadata meets (no spec, as an outside project adds
// them), one per kind of case the derivation must make meaningful (cases_test.sh says what each must get):
//   half_io     float16 input and output
//   mixed16     float16 and bfloat16 inputs and outputs
//   few_values  a 1-D output of 64 elements, all 0 but one: a golden that tests next to nothing
//   db_range    scalars dB_min and dB_max: only dB_min < dB_max gives a meaningful output
//   levels      scalars black and white: equal values divide by zero
//   lut4        a 4x4 table built into the pipeline: the output can only be 4x4
//   pid_noise   adds the process id: the same inputs give other outputs in every process
//   auto_estimates  output estimates stated only for an autoscheduler, its input and scalar left without:
//               the estimates probe must still read them (Mullapudi2016 refuses such a pipeline)
#include "Halide.h"

namespace {

using namespace Halide;

class HalfIo : public Generator<HalfIo> {
public:
    Input<Buffer<float16_t, 2>> input{"input"};
    Input<float> gain{"gain"};  // Halide has no float16 scalar Input
    Output<Buffer<float16_t, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y");
        output(x, y) = input(x, y) * cast<float16_t>(gain) + cast<float16_t>(0.25f);
    }
};

class Mixed16 : public Generator<Mixed16> {
public:
    Input<Buffer<float16_t, 2>> half_in{"half_in"};
    Input<Buffer<bfloat16_t, 2>> brain_in{"brain_in"};
    Output<Buffer<float16_t, 2>> half_out{"half_out"};
    Output<Buffer<bfloat16_t, 2>> brain_out{"brain_out"};
    void generate() {
        Var x("x"), y("y");
        half_out(x, y) = half_in(x, y) * cast<float16_t>(2.0f) - cast<float16_t>(cast<float>(brain_in(x, y)));
        brain_out(x, y) = cast<bfloat16_t>(cast<float>(brain_in(x, y)) * 3.0f - cast<float>(half_in(x, y)));
    }
};

class FewValues : public Generator<FewValues> {
public:
    Input<Buffer<uint8_t, 1>> input{"input"};
    Output<Buffer<uint8_t, 1>> output{"output"};
    void generate() {
        Var x("x");
        output(x) = cast<uint8_t>(select(x == 5, input(x) / 2 + 1, 0));  // 1 to 128 at x == 5, else 0
    }
};

class DbRange : public Generator<DbRange> {
public:
    Input<Buffer<float, 2>> magnitude{"magnitude"};
    Input<float> dB_min{"dB_min"};
    Input<float> dB_max{"dB_max"};
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y");
        const Expr dB = 20.0f * log(max(magnitude(x, y), 1e-6f)) / float(std::log(10.0));
        output(x, y) = clamp((dB - dB_min) / (dB_max - dB_min), 0.0f, 1.0f);
    }
};

class Levels : public Generator<Levels> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Input<float> black{"black"};
    Input<float> white{"white"};
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y");
        output(x, y) = (input(x, y) - black) / (white - black);
    }
};

class Lut4 : public Generator<Lut4> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        Buffer<float> table(4, 4, "table");
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++)
                table(i, j) = float(1 + i + 4 * j);
        Var x("x"), y("y");
        output(x, y) = input(x, y) * table(x, y);
    }
};

class PidNoise : public Generator<PidNoise> {
public:
    Input<Buffer<int32_t, 2>> input{"input"};
    Output<Buffer<int32_t, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y");
        // getpid() (libc): the same in every call of one process, different in the next process, as a
        // race or a read of memory nobody wrote can be.
        const Expr pid = Internal::Call::make(Int(32), "getpid", {}, Internal::Call::Extern);
        output(x, y) = input(x, y) + pid;
    }
};

class AutoEstimates : public Generator<AutoEstimates> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};
    Input<int32_t> offset{"offset"};
    Output<Buffer<uint16_t, 2>> output{"output"};
    void generate() {
        Var x("x"), y("y");
        output(x, y) = input(x, y) + cast<uint16_t>(x + y + offset);
        if (using_autoscheduler()) {
            output.set_estimates({{0, 40}, {0, 24}});
        }
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HalfIo, half_io)
HALIDE_REGISTER_GENERATOR(Mixed16, mixed16)
HALIDE_REGISTER_GENERATOR(FewValues, few_values)
HALIDE_REGISTER_GENERATOR(DbRange, db_range)
HALIDE_REGISTER_GENERATOR(Levels, levels)
HALIDE_REGISTER_GENERATOR(Lut4, lut4)
HALIDE_REGISTER_GENERATOR(PidNoise, pid_noise)
HALIDE_REGISTER_GENERATOR(AutoEstimates, auto_estimates)
