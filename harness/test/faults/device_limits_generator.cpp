// Test-only generator (not part of the suite): kernels a desktop GPU runs and a Mali cannot, for the device
// personalities of `run --device` (harness/src/devices/device_personality.h). The `portable` schedule (cpu
// profile) gives the golden; every GPU schedule plants the need:
//   need=work_group    a 32x32 work-group (1024 work-items): Bifrost Malis allow 384
//   need=local_memory  a 768x16 float tile in local/shared memory per 16x16 work-group (48 KiB): every Mali has 32
//   need=fp64          the tile in double (built with cl_doubles / vk_float64): no Mali has fp64
// Both PASS on PoCL, lavapipe and NVIDIA, and must fail under --device mali-g52 naming the kernel and the limit.
#include "Halide.h"

namespace {

using namespace Halide;

class DeviceLimits : public Halide::Generator<DeviceLimits> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};
    GeneratorParam<std::string> need{"need", "work_group"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    // How far right the second tap reads: with a 16-wide block the tile is 16 + kReach = 768 floats wide.
    static constexpr int kReach = 752;

    void generate() {
        const bool local = std::string(need) == "local_memory", fp64 = std::string(need) == "fp64";
        Func clamped = BoundaryConditions::repeat_edge(input);
        // d * (d + 1) / (d + 1) == d exactly for d below 256 (every step is exact in double), and no simplifier
        // takes the double away (Halide 21's Vulkan backend has no f64 sqrt, so no sqrt(d * d)).
        Expr d = cast<double>(clamped(x, y));
        tile(x, y) = fp64 ? cast<float>(d * (d + 1) / (d + 1)) : cast<float>(clamped(x, y));
        // (a + b) / 2 of two integers below 256 is exact in float: every schedule gives the same bytes.
        output(x, y) = cast<uint8_t>((tile(x, y) + tile(x + (local ? kReach : 0), y)) * 0.5f);
        if (std::string(schedule) == "portable") return;
        if (fp64) {
            output.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
            return;
        }
        if (!local) {
            output.gpu_tile(x, y, xo, yo, xi, yi, 32, 32);
            return;
        }
        output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        tile.compute_at(output, xo).store_in(MemoryType::GPUShared);
        tile.split(x, tx_outer, tx, 16).reorder(tx, y, tx_outer).gpu_threads(tx, y);
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, tx{"tx"}, tx_outer{"tx_outer"};
    Func tile{"tile"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(DeviceLimits, device_limits)
