// BM_harness_overhead/<pipeline>/host/<size>: what the harness adds to one call of a pipeline.
#pragma once

namespace bench {

// Registers, for every pipeline with a make_case and a host variant, a benchmark that alternates a
// bare call of the compiled pipeline (argv call) with the harness's verified call (output canary and
// guard bands filled, inputs marked dirty, buffer-mode set-up, read-back and release), and reports
// raw_call_ms, verified_call_ms, canary_fill_ms, overhead_pct = 100 x (verified - raw) / raw and
// dispatch_overhead_pct (the same without the canary fill). Manual time is the verified call. `quick`: 64x48 and one
// iteration (smoke).
void register_harness_overhead(bool quick);

}  // namespace bench
