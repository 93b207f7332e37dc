// hist_equalize: histogram equalisation of a u8 image, two outputs:
//   histogram(i) = #{(x, y) : input(x, y) == i}            (i32[256], scattered updates / atomics)
//   cdf(i)       = histogram(0) + ... + histogram(i)        (a serial scan)
//   lut(i)       = (cdf(i) * 255 + total / 2) / total       (total = width * height)
//   output(x, y) = lut(input(x, y))                          (a gather through the LUT)
// cdf(i) * 255 must fit i32: images up to 8.4 Mpixels.
#include "Halide.h"

namespace {

using namespace Halide;

class HistEqualize : public Generator<HistEqualize> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<int32_t, 1>> histogram{"histogram"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        RDom r(0, input.dim(0).extent(), 0, input.dim(1).extent(), "r");
        hist(i) = 0;
        hist(cast<int32_t>(input(r.x, r.y))) += 1;
        RDom b(1, 255, "b");
        cdf(i) = hist(i);
        cdf(b) = cdf(b - 1) + cdf(b);
        Expr total = input.dim(0).extent() * input.dim(1).extent();
        lut(i) = cast<uint8_t>((cdf(i) * 255 + total / 2) / total);
        histogram(i) = hist(i);
        output(x, y) = lut(cast<int32_t>(input(x, y)));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        histogram.set_estimates({{0, 256}});
        output.set_estimates({{0, 1920}, {0, 1080}});
        histogram.dim(0).set_bounds(0, 256);

        // Schedule
        const std::string s = schedule;
        hist.compute_root();
        cdf.compute_root();
        lut.compute_root();
        if (s == "portable") {
            // Plain loops: one serial pass for the histogram, a serial scan, a LUT pass.
        } else if (s == "host") {
            // Partial histograms in parallel (rfactor): one per 32-row strip and per x % 4, the 4 of a
            // strip updated in turn in one unrolled loop, so that runs of one bin do not chain every
            // increment through the same counter; then summed. Output rows in parallel with 32-wide
            // u8 gathers from the LUT. Halide 21 JIT, 2-vCPU shared VM (AVX2), 2026-11-23, 4096x4096,
            // one thread, process CPU time: 13.3 ms (one histogram per strip, 16-wide gathers) ->
            // 12.4 ms; a scalar LUT loop unrolled by 4 was the same. cv::equalizeHist took 12.9-13.1
            // ms: both are about 1.8 cycles per pixel (a scalar increment, a LUT lookup). GuardWithIf:
            // with the default ShiftInwards the last two strips overlap and two threads write the same
            // rows; the repeat check saw differing values on a 16-core host (2026-11-23).
            RVar ryo("ryo"), ryi("ryi"), rxo("rxo"), rxi("rxi");
            hist.update().split(r.y, ryo, ryi, 32).split(r.x, rxo, rxi, 4);
            Func partial = hist.update().rfactor({{ryo, u}, {rxi, w}});
            partial.compute_root().update().reorder(w, rxo, ryi, u).parallel(u).unroll(w);
            output.split(y, yo, yi, 16, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 32);
        } else if (s == "mali" || s == "gpu") {
            // Both GPU schedules: every pixel adds 1 to its bin with a global atomic; the scan runs
            // on one GPU thread; the LUT and outputs are plain kernels. Mali: 8x4 work-groups and
            // 4 x u8 lanes per work-item (no local memory). gpu: 16x16 blocks.
            // Per-block histograms in local memory would pay on a discrete GPU under heavy bin
            // contention; the global-atomics version is the one that exercises atomics everywhere.
            const int tx = s == "mali" ? 8 : 16, ty = s == "mali" ? 4 : 16;
            RVar rxo("rxo"), ryo("ryo"), rxi("rxi"), ryi("ryi");
            hist.gpu_tile(i, io, ii, 64);
            hist.update().atomic().gpu_tile(r.x, r.y, rxo, ryo, rxi, ryi, tx, ty);
            cdf.gpu_single_thread();
            cdf.update().gpu_single_thread();
            lut.gpu_tile(i, io, ii, 64);
            histogram.gpu_tile(i, io, ii, 64);
            if (s == "mali") output.vectorize(x, 4);
            output.gpu_tile(x, y, xo, yo, xi, yi, tx, ty);
        } else {
            throw CompileError("hist_equalize: unknown schedule '" + s + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, i{"i"}, u{"u"}, w{"w"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, io{"io"}, ii{"ii"};
    Func hist{"hist"}, cdf{"cdf"}, lut{"lut"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistEqualize, hist_equalize)
