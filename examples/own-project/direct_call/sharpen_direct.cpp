// sharpen-direct: the host variant of sharpen called directly (its generated sharpen__host() and
// Halide::Runtime::Buffer, no harness), timed the way Google Benchmark times `aot-harness bench`: each
// repetition calls it until --min-time seconds have passed and reports the mean per call; the median
// over the repetitions is printed. `aot-harness bench --pipeline sharpen --profile host --case estimate
// --mode resident --repetitions N --min-time S` against it is what bench adds to a call.
//
// usage: sharpen-direct [WIDTH HEIGHT REPETITIONS MIN_TIME]   (default 4096 4096 15 0.5)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "HalideBuffer.h"
#include "sharpen__host.h"

int main(int argc, char **argv) {
    const int w = argc > 1 ? std::atoi(argv[1]) : 4096, h = argc > 2 ? std::atoi(argv[2]) : 4096;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 15;
    const double min_time = argc > 4 ? std::atof(argv[4]) : 0.5;
    Halide::Runtime::Buffer<uint8_t> input(w + 2, h + 2), output(w, h);  // the output is the input's interior
    uint64_t s = 1;
    input.for_each_value([&](uint8_t &v) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        v = static_cast<uint8_t>(s >> 56);
    });
    if (int e = sharpen__host(input, output)) {  // warm-up: pages, thread pool
        std::fprintf(stderr, "sharpen__host failed: %d\n", e);
        return 1;
    }
    using Clock = std::chrono::steady_clock;
    std::vector<double> per_call_ms;
    for (int r = 0; r < reps; r++) {
        double total = 0;
        long n = 0;
        while (total < min_time) {
            const auto t0 = Clock::now();
            sharpen__host(input, output);
            total += std::chrono::duration<double>(Clock::now() - t0).count();
            n++;
        }
        per_call_ms.push_back(total / n * 1e3);
        std::printf("repetition %d: %ld calls, %.4f ms per call\n", r, n, per_call_ms.back());
    }
    std::sort(per_call_ms.begin(), per_call_ms.end());
    std::printf("sharpen__host %dx%d direct: median %.4f ms per call over %d repetitions (min %.4f, max %.4f)\n", w, h,
                per_call_ms[per_call_ms.size() / 2], reps, per_call_ms.front(), per_call_ms.back());
    return 0;
}
