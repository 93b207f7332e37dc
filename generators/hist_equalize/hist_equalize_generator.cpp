// hist_equalize: histogram equalisation of a u8 image, two outputs:
//   histogram(i) = #{(x, y) : input(x, y) == i}            (i32[256], scattered updates / atomics)
//   cdf(i)       = histogram(0) + ... + histogram(i)        (a serial scan)
//   lut(i)       = (cdf(i) * 255 + total / 2) / total       (total = width * height; in i64)
//   output(x, y) = lut(input(x, y))                          (a gather through the LUT)
// The LUT is computed in 64 bits: cdf(i) * 255 passes i32 from 8.4 Mpixels (the `huge` case, 4096^2);
// counts are i32: images up to 2^31 - 1 pixels.
#include "Halide.h"
#include "harness/host_strips.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class HistEqualize : public Generator<HistEqualize> {
public:
    ScheduleParam schedule;
    GeneratorParam<int> strip_rows{"strip_rows", 0};  // host: 0 = chosen per call (host_strips.h)

    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<int32_t, 1>> histogram{"histogram"};
    Output<Buffer<uint8_t, 2>> output{"output"};

    void generate() {
        // Algorithm
        // CUDA and OpenCL (gpu_shared_histogram): the histogram output is the reduction itself (no device
        // intermediate), and the cdf is 256 independent sums (one GPU thread each: the same integers as the scan).
        cl_or_cuda = schedule.value() == Schedule::Gpu && !get_target().has_feature(Target::Vulkan);
        RDom r(0, input.dim(0).extent(), 0, input.dim(1).extent(), "r");
        if (cl_or_cuda) hist = histogram;
        hist(i) = 0;
        hist(cast<int32_t>(input(r.x, r.y))) += 1;
        RDom b(1, 255, "b");
        cdf(i) = hist(i);
        cdf(b) = cdf(b - 1) + cdf(b);
        if (cl_or_cuda) {
            hsh(i) = hist(i);
            RDom j(0, 256, "j");
            csum(i) = 0;
            csum(i) += select(j <= i, hsh(j), 0);
        }
        Func c = cl_or_cuda ? csum : cdf;
        Expr total = input.dim(0).extent() * input.dim(1).extent();
        Expr total64 = cast<int64_t>(total);
        lut(i) = cast<uint8_t>((cast<int64_t>(c(i)) * 255 + total64 / 2) / total64);
        if (!cl_or_cuda) histogram(i) = hist(i);
        output(x, y) = lut(cast<int32_t>(input(x, y)));

        // Estimates
        input.set_estimates({{0, 1920}, {0, 1080}});
        histogram.set_estimates({{0, 256}});
        output.set_estimates({{0, 1920}, {0, 1080}});
        histogram.dim(0).set_bounds(0, 256);

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        if (!cl_or_cuda) hist.compute_root();
        cdf.compute_root();
        lut.compute_root();
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // one serial pass for the histogram, a serial scan, a LUT pass
        case Schedule::Host: {
            // Partial histograms per 32-row strip (parallel) and per x % 4 (interleaved counters), then summed; output
            // rows in parallel. GuardWithIf: no strip overlaps another's rows.
            RVar ryo("ryo"), ryi("ryi"), rxo("rxo"), rxi("rxi");
            hist.update().split(r.y, ryo, ryi, 32).split(r.x, rxo, rxi, 4);
            Func partial = hist.update().rfactor({{ryo, u}, {rxi, w}});
            partial.compute_root().update().reorder(w, rxo, ryi, u).parallel(u).unroll(w);
            // The partials' sum (serial, after the parallel pass) with the bins innermost, 16 per vector: one bin at a
            // time was a chain of dependent scalar load-add-stores (~131 K at 4096^2).
            hist.update().reorder(i, rxi, ryo).vectorize(i, 16);
            // The LUT pass as a scalar loop unrolled by 8: Halide 21 scalarises 32-wide gathers into
            // extract/load/insert, which on AVX-512 took 2.2x the unrolled loop. Output strip height per call
            // (host_strips.h): 16 rows where 32 would give a thread fewer than 16 strips (4096^2 on 16 threads: 1.12x
            // OpenCV against 0.90-0.97x with 32-64 rows), else 32.
            strips_by_threads(output, output.dim(1).extent(), strip_heights(strip_rows, {32, 16}), 16,
                              [&](Stage s, int rows) {
                                  s.split(y, yo, yi, rows, TailStrategy::GuardWithIf).parallel(yo).unroll(x, 8);
                              });
            break;
        }
        case Schedule::Gpu:
        case Schedule::Mali: {
            const bool mali = schedule.value() == Schedule::Mali;
            const bool vulkan = get_target().has_feature(Target::Vulkan);
            RVar ryo("ryo"), ryi("ryi"), rxo("rxo"), rxi("rxi");
            if (!mali && !vulkan) {
                gpu_shared_histogram(r);
                break;
            }
            hist.gpu_tile(i, io, ii, 64);
            if (vulkan) {
                // Halide 21's Vulkan backend cannot compile atomic updates ("Atomic updates are not
                // supported inside Vulkan kernels"; harness/test/vulkan_repro/atomic_update.py): one
                // partial histogram per 8-row strip, one GPU thread per strip (no two threads share a
                // counter), then one thread per bin sums the strips.
                hist.update().split(r.y, ryo, ryi, 8);
                Func partial = hist.update().rfactor(ryo, u);
                partial.compute_root().gpu_tile(i, u, io, yo, ii, yi, 64, 1);
                partial.update().gpu_tile(u, yo, yi, 16);
                hist.update().gpu_tile(i, io, ii, 64);
            } else {
                // Global atomics per pixel (the variant that exercises atomics everywhere); 8x4 work-groups
                // with 4 x u8 per work-item (not measured on a Mali).
                hist.update().atomic().gpu_tile(r.x, r.y, rxo, ryo, rxi, ryi, 8, 4);
            }
            cdf.gpu_single_thread();
            cdf.update().gpu_single_thread();
            // The LUT's 64-bit arithmetic needs vk_int64, which the Vulkan profiles do not ask of a device:
            // there its 256 entries are computed on the host.
            if (!vulkan) lut.gpu_tile(i, io, ii, 64);
            histogram.gpu_tile(i, io, ii, 64);
            if (mali) output.vectorize(x, 4);
            output.gpu_tile(x, y, xo, yo, xi, yi, mali ? 8 : 16, mali ? 4 : 16);
            break;
        }
        }
    }

    // CUDA and OpenCL: NPP's HistogramEven way. A fixed number of blocks (a grid-stride over rows: block b
    // counts rows b, b + blocks, ...; its threads read consecutive bytes of a row) each count into 256 bins
    // of their own in GPU shared memory (shared atomics), then add them to the histogram output (one global
    // atomic per bin and block). Then the output pass over a fixed grid of 1024 blocks (rows yi, yi + 1024,
    // ...), each with the LUT in shared memory: its 256 threads load the histogram, thread i sums bins
    // 0..i into lut(i), then 4 bytes per thread and row (vector loads and stores, gathers from the LUT).
    // Three kernels (histogram init, count, output) and no device allocation per call.
    void gpu_shared_histogram(const RDom &r) {
        // Counting: OpenCL 1024 blocks of 256 threads; CUDA 264 blocks (2 per SM) of 1024 threads, a quarter of the
        // global atomics; 4 loads in flight per thread (4096^2 cuda 6x faster than per-pixel global atomics; 512
        // blocks, 128-thread blocks or 1 load in flight: slower). The LUT in the output pass instead of a scan kernel,
        // a LUT kernel and the histogram copied out of an intermediate: 3 kernels and no device allocation per call
        // instead of 4 and 2 (an OpenCL launch costs ~5 us and a clCreateBuffer + release ~4.5 us, gpu-launch-probe),
        // 4096^2 opencl 0.85 -> 1.23x NPP. Other output grids, or 16 bytes per thread: level or slower.
        const bool cuda = get_target().has_feature(Target::CUDA);
        const int threads = cuda ? 1024 : 256, blocks = cuda ? 264 : 1024, unroll = 4, out_blocks = 1024;
        RVar ryo("ryo"), ryi("ryi"), rxo("rxo"), rxi("rxi"), rxu("rxu");
        hist.gpu_tile(i, io, ii, 64);
        hist.update().split(r.y, ryo, ryi, blocks).split(r.x, rxo, rxi, threads);
        Func block_hist = hist.update().rfactor(ryi, u);  // block_hist(i, u): rows u, u + blocks, ...
        hist.update().reorder(i, ryi).atomic().gpu_blocks(ryi).gpu_threads(i);
        block_hist.compute_at(hist, ryi).store_in(MemoryType::GPUShared).gpu_threads(i);
        block_hist.update().split(rxo, rxo, rxu, unroll).reorder(rxu, rxo, ryo, rxi, u).unroll(rxu);
        block_hist.update().atomic().gpu_threads(rxi);
        Var xv("xv");
        output.split(x, xo, xv, 4)
            .split(xo, xo, xi, 256, TailStrategy::GuardWithIf)
            .split(y, yo, yi, out_blocks, TailStrategy::GuardWithIf)
            .reorder(xv, xi, xo, yo, yi)
            .vectorize(xv)
            .gpu_blocks(yi)
            .gpu_threads(xi);
        hsh.compute_at(output, yi).store_in(MemoryType::GPUShared).gpu_threads(i);
        lut.compute_at(output, yi).store_in(MemoryType::GPUShared).gpu_threads(i);
        csum.compute_at(lut, i);  // in a register of lut's thread i
    }

private:
    Var x{"x"}, y{"y"}, i{"i"}, u{"u"}, w{"w"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, io{"io"}, ii{"ii"};
    Func hist{"hist"}, cdf{"cdf"}, lut{"lut"}, hsh{"hsh"}, csum{"csum"};
    bool cl_or_cuda = false;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistEqualize, hist_equalize)
