// What one benchmark of pipeline-benchmarks does when Google Benchmark runs it: BM_opencv (an OpenCV
// peer, timed the way `aot-harness bench` times), BM_npp (an NPP peer, paired with a copy in
// NPP's own context) and BM_<pipeline> (a compiled variant, with its OpenCV call paired after each
// iteration and NPP's median of the same case as speedup_vs_npp). Which benchmarks exist, and in which
// order: pipeline_table.h.
#pragma once
#include <benchmark/benchmark.h>

#include <string>

#include "peers/npp_peers.h"
#include "peers/opencv_peers.h"
#include "harness/registry.h"
#include "harness/spec.h"

namespace bench {

// One benchmark of the table: an OpenCV or NPP peer (variant == nullptr) or a compiled variant.
struct Bench {
    std::string name;
    const harness::Variant *variant = nullptr;
    const OpenCvPeer *opencv = nullptr;  // the OpenCV call timed (BM_opencv) or paired (pipeline)
    const NppPeer *npp = nullptr;        // BM_npp: the NPP call timed; a GPU pipeline: its NPP peer
    const harness::CaseSpec *c = nullptr;
    bool roundtrip = false;
    int threads = 1;          // CPU threads of the profile (OpenCV's thread count)
    std::string gpu_runtime;  // "" for CPU profiles and peers
    std::string device, driver;
    std::string npp_case;  // a GPU pipeline: "BM_npp/<pipeline>/<size>", whose median speedup_vs_npp divides
};

// The OpenCV peer alone (b->opencv), timed as `aot-harness bench` times a call.
void run_peer(benchmark::State &state, const Bench *b);
// The NPP peer (b->npp); keeps its median per-iteration time for the pipelines of the same case.
void run_npp(benchmark::State &state, const Bench *b);
// A compiled variant (b->variant), its OpenCV call paired; speedup_vs_npp where NPP ran the case before.
void run_pipeline(benchmark::State &state, const Bench *b);

}  // namespace bench
