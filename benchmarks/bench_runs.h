// What one benchmark of pipeline-benchmarks does when Google Benchmark runs it: BM_opencv (an OpenCV
// baseline, timed the way `aot-harness bench` times), BM_npp (an NPP baseline, paired with a copy in
// NPP's own context) and BM_<pipeline> (a compiled variant, with its OpenCV call paired after each
// iteration and NPP's median of the same case as speedup_vs_npp). Which benchmarks exist, and in which
// order: pipeline_table.h.
#pragma once
#include <benchmark/benchmark.h>

#include <string>

#include "baselines/npp_baselines.h"
#include "baselines/opencv_baselines.h"
#include "harness/registry.h"
#include "harness/spec.h"

namespace bench {

// One benchmark of the table: an OpenCV or NPP baseline (variant == nullptr) or a compiled variant.
struct Bench {
    std::string name;
    const harness::Variant *variant = nullptr;
    const OpenCvBaseline *baseline = nullptr;  // the OpenCV call timed (baseline) or paired (pipeline)
    const NppBaseline *npp = nullptr;          // BM_npp: the NPP call timed; a GPU pipeline: its NPP peer
    const harness::CaseSpec *c = nullptr;
    bool roundtrip = false;
    int threads = 1;          // CPU threads of the profile (OpenCV's thread count)
    std::string gpu_runtime;  // "" for CPU profiles and baselines
    std::string device, driver;
    std::string npp_case;  // a GPU pipeline: "BM_npp/<pipeline>/<size>", whose median speedup_vs_npp divides
};

// The OpenCV baseline alone (b->baseline), timed as `aot-harness bench` times a call.
void run_baseline(benchmark::State &state, const Bench *b);
// The NPP baseline (b->npp); keeps its median per-iteration time for the pipelines of the same case.
void run_npp(benchmark::State &state, const Bench *b);
// A compiled variant (b->variant), its OpenCV call paired; speedup_vs_npp where NPP ran the case before.
void run_pipeline(benchmark::State &state, const Bench *b);

}  // namespace bench
