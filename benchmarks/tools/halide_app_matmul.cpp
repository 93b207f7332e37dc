// halide-app-matmul: Halide's own CUDA matrix product (apps/cuda_mat_mul of Halide v21.0.0, unchanged, in
// third_party/halide-apps/cuda_mat_mul/) against cuBLAS and against this suite's matmul cuda variant, in one process
// on the same 1024^3 f32 product (the suite's `large` case): is the suite's gap to cuBLAS a schedule of ours or what
// Halide 21 reaches at best? A diagnostic run on the device, not a benchmark of record.
//
// Each line: what was timed, then the median and the 10th / 90th percentile in microseconds over `reps` calls after
// a warm-up (probe_report.h), each call with the device synchronised (resident: inputs and outputs stay on the device).
// Halide's app runs with the JIT register cap the suite's matmul spec sets (cuda_max_registers), through the same
// runtime. The app's result is checked against a CPU sum at 64 sampled elements. Exit 77 (and one line) where CUDA
// cannot run.
//   halide-app-matmul [reps]   (default 200)
#include <HalideBuffer.h>
#include <HalideRuntimeCuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "baselines/npp_baselines.h"
#include "devices/cuda_probe.h"
#include "devices/runtime_availability.h"
#include "halide_app_mat_mul.h"
#include "probe_report.h"
#include "harness/registry.h"
#include "variant/invocation.h"

namespace {

using bench::report;

void check(int rc, const char *what) {
    if (rc != 0) throw std::runtime_error(std::string(what) + " failed with Halide error " + std::to_string(rc));
}

}  // namespace

int main(int argc, char **argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
    try {
        const std::string why = harness::runtime_unavailable_reason("cuda", nlohmann::json(), harness::probe_cuda());
        if (!why.empty()) {
            std::printf("halide-app-matmul: SKIP: %s\n", why.c_str());
            return 77;
        }
        harness::Registry &reg = harness::Registry::instance();
        const harness::PipelineSpec &spec = reg.spec("matmul");
        const harness::CaseSpec &c = spec.find_case("large");
        std::vector<harness::Array> inputs = harness::case_inputs(c);
        const int n = inputs.at(0).shape.at(0);
        const std::string cap = std::to_string(spec.cuda_max_registers);
        std::printf("%dx%dx%d f32, %d calls each; CUDA JIT register cap %s (the suite's matmul spec)\n", n, n, n, reps,
                    cap.c_str());

        // cuBLAS (cublasSgemm, the suite's speedup_vs_npp peer for matmul), where it loads.
        if (const std::string no_npp = bench::npp_unavailable_reason(); no_npp.empty()) {
            bench::NppCall blas = bench::npp_baselines().at("matmul").bind(c, inputs);
            report("cuBLAS cublasSgemm (" + bench::npp_versions() + ")", reps, blas.run);
        } else {
            std::printf("cuBLAS: not run: %s\n", no_npp.c_str());
        }

        {  // The suite's matmul cuda variant, as pipeline-benchmarks times it (resident).
            const harness::Variant *v = reg.find("matmul", "cuda");
            if (!v) throw std::runtime_error("no matmul cuda variant in this build");
            harness::Invocation inv(*v, c, inputs);
            std::string err;
            if (inv.call(&err) != 0) throw std::runtime_error("suite matmul: " + err);
            inv.touch_inputs();
            report("suite matmul, cuda variant", reps, [&] {
                check(inv.call_resident(), "suite matmul");
                check(inv.device_sync(), "suite matmul device sync");
            });
        }

        // Halide's app: out(x, y) = sum_r A(x, r) * B(r, y), dense 16-byte aligned n x n buffers (its contract).
        setenv("HL_CUDA_JIT_MAX_REGISTERS", cap.c_str(), 0);
        Halide::Runtime::Buffer<float, 2> a(n, n), b(n, n), out(n, n);
        std::copy_n(inputs.at(0).data<float>(), size_t(n) * n, a.data());
        std::copy_n(inputs.at(1).data<float>(), size_t(n) * n, b.data());
        const halide_device_interface_t *cuda = halide_cuda_device_interface();
        a.set_host_dirty();  // written through data(): without it copy_to_device allocates and copies nothing
        b.set_host_dirty();
        check(a.copy_to_device(cuda), "copy A to the device");
        check(b.copy_to_device(cuda), "copy B to the device");
        check(out.device_malloc(cuda), "device_malloc out");
        report("Halide's apps/cuda_mat_mul (unchanged)", reps, [&] {
            check(halide_app_mat_mul(a, b, out), "apps/cuda_mat_mul");
            check(out.device_sync(), "apps/cuda_mat_mul device sync");
        });
        check(out.copy_to_host(), "copy out to the host");
        double worst = 0;
        for (int k = 0; k < 64; k++) {
            const int x = (k * 331) % n, y = (k * 577 + 13) % n;
            double sum = 0;
            for (int r = 0; r < n; r++)
                sum += double(a(x, r)) * double(b(r, y));
            worst = std::max(worst, std::fabs(sum - out(x, y)) / std::max(1.0, std::fabs(sum)));
        }
        std::printf("apps/cuda_mat_mul result: worst relative error %.2g at 64 sampled elements (%s)\n", worst,
                    worst < 1e-3 ? "correct" : "WRONG");
        return worst < 1e-3 ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "halide-app-matmul: error: %s\n", e.what());
        return 2;
    }
}
