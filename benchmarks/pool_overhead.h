// BM_pool/<pool>/threads:<n>/after_<prev>: what a parallel call costs on each thread pool, and what
// the call before it does to that cost (the pairing of the host benchmarks runs an OpenCV call right
// before every Halide call).
#pragma once

namespace bench {

// Registers, for Halide's pool and OpenCV's (both at `threads`), an empty-ish parallel loop of
// `threads` tasks of ~20 us of spinning each, timed on its own, after a call of the same shape on the
// other pool (untimed), and after 1 ms of sleep. Counter `overhead_us`: the median wall time of the
// loop minus the task's 20 us.
void register_pool_overhead(int threads);

}  // namespace bench
