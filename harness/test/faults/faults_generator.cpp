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
        Func ext("ext");
        ext.define_extern(extern_name, {input}, UInt(8), {x, y}, NameMangling::C, DeviceAPI::Host);
        if (std::string(schedule) == "mali" || std::string(schedule) == "gpu") {
            // GPU profiles: the extern stage's result goes through a GPU kernel (a copy), so that the
            // process has a live GPU runtime (e.g. Vulkan) when the fault strikes.
            ext.compute_root();
            output(x, y) = ext(x, y);
            output.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
            return;
        }
        // The output *is* the extern stage: it writes straight into the harness's buffer.
        output = ext;
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
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

// GPU variant whose result the harness is told not to copy back (set_test_fault, variant/test_fault.h).
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

// A histogram whose GPU update lets every work-item add into the shared bins. The `gpu` schedule
// (opencl profile) uses atomics and is correct; the `mali` schedule has the atomics removed
// (allow_race_conditions), so concurrent increments of one bin are lost.
class FaultRace : public Halide::Generator<FaultRace> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<int32_t, 1>> output{"output"};
    void generate() {
        RDom r(0, input.width(), 0, input.height());
        output(x) = 0;
        output(clamp(cast<int32_t>(input(r.x, r.y)), 0, 255)) += 1;
        const std::string s = schedule;
        if (s == "portable") return;
        output.gpu_tile(x, xo, xi, 64);
        Stage update = output.update();
        if (s == "gpu") {
            update.atomic();
        } else {
            update.allow_race_conditions();  // the fault: atomics removed
        }
        update.gpu_blocks(r.y).gpu_threads(r.x);
    }

private:
    Var x{"x"}, xo{"xo"}, xi{"xi"};
};

// Reads one pixel past the input's right edge: out(x, y) = (in(x, y) + in(x + 1, y)) / 2. The
// portable schedule clamps (repeat_edge) and gives the golden; the faulty variant drops the
// boundary condition and is built with no_asserts, so nothing stops the read past the last pixel.
class FaultReadPastEdge : public Halide::Generator<FaultReadPastEdge> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        const std::string s = schedule;
        Func in = s == "portable" ? BoundaryConditions::repeat_edge(input) : Func(input);
        output(x, y) = cast<uint8_t>((cast<uint16_t>(in(x, y)) + in(x + 1, y)) / 2);
        if (s != "portable") output.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

// 3x3 box blur with the wrong boundary condition: the golden clamps to the edge (repeat_edge),
// the faulty variant pads with zeros (constant_exterior), so only the 1-pixel border differs.
class FaultBoundary : public Halide::Generator<FaultBoundary> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        const std::string s = schedule;
        Func in = s == "portable" ? BoundaryConditions::repeat_edge(input) :
                                    BoundaryConditions::constant_exterior(input, uint8_t(0));
        RDom k(-1, 3, -1, 3);
        output(x, y) = cast<uint8_t>(sum(cast<uint16_t>(in(x + k.x, y + k.y))) / 9);
        if (s != "portable") output.vectorize(x, 16).parallel(y);
    }

private:
    Var x{"x"}, y{"y"};
};

}  // namespace

namespace {

// A planted GPU-only error in a middle stage (aot-harness bisect's test): widen -> blur_x -> blur_y ->
// scaled -> output, where blur_y adds 81 at (5,3) in the gpu and mali schedules only. On the GPU,
// blur_x is computed inside blur_y's kernel (bisect cannot dump it as scheduled), widen and scaled are
// inlined.
class FaultMiddleStage : public Halide::Generator<FaultMiddleStage> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        const std::string s = schedule;
        const bool gpu = s == "gpu" || s == "mali";
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func widen("widen"), blur_x("blur_x"), blur_y("blur_y"), scaled("scaled");
        widen(x, y) = cast<uint16_t>(clamped(x, y)) * 3;
        blur_x(x, y) = widen(x - 1, y) + widen(x, y) + widen(x + 1, y);
        Expr sum = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
        blur_y(x, y) = gpu ? select(x == 5 && y == 3, sum + 81, sum) : sum;
        scaled(x, y) = blur_y(x, y) / 27;
        output(x, y) = cast<uint8_t>(min(scaled(x, y), 255));
        if (gpu) {  // widen stays inlined: lavapipe cannot allocate its 66-wide region
            blur_y.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
            blur_x.compute_at(blur_y, xo).gpu_threads(x, y);
            output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
        } else if (s == "host") {
            blur_x.compute_at(output, y);
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(FaultMiddleStage, fault_middle_stage)
HALIDE_REGISTER_GENERATOR(ExternFault, fault_extern)
HALIDE_REGISTER_GENERATOR(FaultError, fault_error)
HALIDE_REGISTER_GENERATOR(FaultNan, fault_nan)
HALIDE_REGISTER_GENERATOR(FaultNoCopyBack, fault_no_copy_back)
HALIDE_REGISTER_GENERATOR(FaultRace, fault_race)
HALIDE_REGISTER_GENERATOR(FaultReadPastEdge, fault_read_past_edge)
HALIDE_REGISTER_GENERATOR(FaultBoundary, fault_boundary)
