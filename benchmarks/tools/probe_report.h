// What the device probes (gpu-launch-probe) print per thing they time: `reps` calls of
// `body` after max(20, reps / 10) untimed ones, each timed on the host's steady clock, then one line: what,
// the median, the 10th and the 90th percentile in microseconds.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace bench {

inline void report(const std::string &what, int reps, const std::function<void()> &body) {
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < std::max(20, reps / 10); i++)
        body();
    std::vector<double> us;
    us.reserve(reps);
    for (int i = 0; i < reps; i++) {
        const auto t0 = Clock::now();
        body();
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    std::sort(us.begin(), us.end());
    std::printf("%-66s %8.2f us  p10 %8.2f  p90 %8.2f\n", what.c_str(), us[us.size() / 2], us[us.size() / 10],
                us[us.size() * 9 / 10]);
    std::fflush(stdout);
}

}  // namespace bench
