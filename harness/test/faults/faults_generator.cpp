// Test-only generators, one fault each (not part of the suite). The `portable` schedule (cpu
// profile) is always correct and gives the golden; every other schedule carries the fault.
#include "Halide.h"

namespace {

using namespace Halide;

// Correct reference algorithm shared by the u8 faults: out = 255 - in.
Expr inverted(Func in, Var x, Var y) {
    return cast<uint8_t>(255 - cast<int32_t>(in(x, y)));
}

// A fault implemented by a host extern stage that computes 255 - in (and misbehaves).
class ExternFault : public Halide::Generator<ExternFault> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    GeneratorParam<std::string> extern_name{"extern_name", ""};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        if (std::string(schedule) == "portable") {
            output(x, y) = inverted(input, x, y);
            return;
        }
        // The output *is* the extern stage: it writes straight into the harness's buffer.
        Func ext("ext");
        ext.define_extern(extern_name, {input}, UInt(8), {x, y}, NameMangling::C, DeviceAPI::Host);
        output = ext;
    }

private:
    Var x{"x"}, y{"y"};
};

// Halide error: the faulty variant only handles outputs up to 16 wide.
class FaultError : public Halide::Generator<FaultError> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        output(x, y) = inverted(input, x, y);
        if (std::string(schedule) != "portable") output.bound(x, 0, 16);
    }

private:
    Var x{"x"}, y{"y"};
};

// NaN: the faulty variant divides by zero at one pixel.
class FaultNan : public Halide::Generator<FaultNan> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> output{"output"};
    void generate() {
        Expr v = input(x, y) * 0.5f + 1.0f;
        if (std::string(schedule) != "portable") {
            v = select(x == 5 && y == 3, Expr(std::numeric_limits<float>::quiet_NaN()), v);
        }
        output(x, y) = v;
    }

private:
    Var x{"x"}, y{"y"};
};

// GPU variant whose result the harness is told not to copy back (spec test_fault).
class FaultNoCopyBack : public Halide::Generator<FaultNoCopyBack> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        output(x, y) = inverted(input, x, y);
        const std::string s = schedule;
        if (s == "mali" || s == "gpu") output.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ExternFault, fault_extern)
HALIDE_REGISTER_GENERATOR(FaultError, fault_error)
HALIDE_REGISTER_GENERATOR(FaultNan, fault_nan)
HALIDE_REGISTER_GENERATOR(FaultNoCopyBack, fault_no_copy_back)
