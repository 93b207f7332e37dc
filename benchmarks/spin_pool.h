// A thread pool whose idle workers spin for a while before they sleep, installed as Halide's
// halide_do_par_for (--halide_spin_pool): a diagnostic that separates what Halide 21's own pool costs
// per call (its idle workers sleep at once, so every parallel loop wakes them) from what the schedule
// costs. Not how the host profile runs by default.
#pragma once

namespace bench {

// Installs the spinning pool (HL_NUM_THREADS threads, else one per hardware thread, the caller
// included) for every Halide pipeline of this process; idle workers spin `spin_us` microseconds before
// they sleep. Idempotent.
void install_halide_spin_pool(int spin_us = 2000);

}  // namespace bench
