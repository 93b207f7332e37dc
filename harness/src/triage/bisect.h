// aot-harness bisect <pipeline> --profile P --case C: the first stage, in producer order, whose values
// differ between the cpu build and the P build beyond the tolerance.
//
// The unmodified generator executable (the add_halide_generator target the build already has) is run
// again with the harness's plugin (-p, harness/bisect/bisect_plugin.cpp), which wraps the generator and
// adds debug_to_file to every intermediate Func that can be materialised, after the generator's own
// schedule. A Python generator's pipeline is built in its interpreter (bisect_python.py) and
// serialized, then instrumented the same way by the plugin in harness-bisect-generator. The plugin and
// that executable are targets of the build (built on first use where aot_harness_finalize() made them).
// Three AOT builds, each linked with the repro main (repro.h) and run on the case's inputs:
//   cpu, materialised   every Func computed at the root and dumped: the reference values
//   P, as scheduled     only what the schedule already computes at the root is dumped; the
//                       computation is the variant's own
//   P, materialised     every Func at the root (on GPU targets with a GPU tiling of its own)
// Dumps are compared in P's producer order under the pipeline's tolerance (the output type's) or the
// default tolerance of the stage's type. Stage names lose Halide's `$N` renames.
#pragma once
#include <string>
#include <vector>

namespace harness {

struct BisectRequest {
    std::string pipeline, profile, case_name;
    std::string golden_dir, build_dir;
    std::string keep;  // keep the work directory here ("" = a temporary one, removed)
};

// One stage of one build, compared with the cpu build's.
struct BisectStage {
    int index = 0;
    std::string name;     // as Halide named it ("blur_x$1")
    std::string display;  // without `$N`
    std::string type, where;
    std::string not_dumped;  // why it could not be dumped ("" = dumped)
    bool compared = false;   // dumped in both builds and loaded
    bool passed = true;
    std::string message;  // the comparison, or why it was not compared
    std::string worst;    // "(x,y): cpu E, P A" for a stage that differs
};

struct BisectPass {
    std::string mode, target;
    std::string error;                // the build or run failed: what and where its log is
    int exit_code = -1;               // the runner's: 0 outputs match, 1 differ
    std::vector<BisectStage> stages;  // producer order
    int first_bad = -1;               // index into stages of the first that differs, -1 none
    double seconds = 0;
};

struct BisectReport {
    std::string id, tolerance;
    BisectPass cpu, scheduled, materialised;
    std::string conclusion;  // one paragraph: the stage named, and what the passes say
    int exit_code = 0;       // 0 no stage differs, 1 a stage differs, 2 the bisect could not run
    double seconds = 0;
};

// Runs the three builds and compares them. Throws Error for bad requests (unknown names, no build
// tree description, the plugin not built); build and run failures are reported in the passes.
BisectReport run_bisect(const BisectRequest &req);

// The console text of a report: one line per stage of each P pass, the conclusion, the time.
std::string bisect_text(const BisectReport &r);

// The text of harness/bisect/bisect_python.py (compiled in from the source).
const char *bisect_python_source();

// "blur_x$1" -> "blur_x": Halide's unique-name suffixes removed.
std::string strip_halide_renames(const std::string &name);

}  // namespace harness
