// The declarative JSON spec of a pipeline (aot_harness_add_pipeline(... SPEC <file>.json)): what a
// user states without C++. Every key is optional; what is not stated comes from the generator's
// metadata (metadata_spec.h).
//
// {
//   "summary": "one line",
//   "tolerance": {"kind": "exact" | "absolute" | "abs_rel" | "ulp" | "psnr", "atol": 1, "rtol": 0.01,
//                 "ulp": 4, "min_db": 40, "max_fraction": 0.001, "reason": "why (required)"},
//   "required_extensions": ["cl_khr_fp16"],
//   "cuda_max_registers": 255,                 registers per thread for the CUDA kernels (0-255; 0: Halide's 64)
//   "inputs":  {"<input>": <recipe>},          defaults for every case
//   "scalars": {"<scalar>": 1.5},              defaults for every case
//   "cases": [{"name": "small", "size": [64, 48] | "output_shape": [64, 48, 3],
//              "inputs": {"<input>": <recipe>}, "scalars": {...}, "nightly": false}],
//   "xfail": [{"profile": "opencl*", "case": "*", "outcomes": ["FAIL"], "reason": "..."}]
// }
// <recipe>: {"fill": "uniform" | "gradient" | "checkerboard" | "constant", "range": [lo, hi],
//            "seed": 7, "cell": 8, "value": 0} or {"image": "camera.png", "sha256": "<hex>"}
//            (a PNG under <golden dir>/inputs/).
// A bad spec throws Error "<file>: <key>: <problem>; <fix>" (one line).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/compare.h"
#include "harness/spec.h"

namespace harness {

// A recipe of the JSON spec: `kind` and only the fields the JSON stated.
struct JsonRecipe {
    Recipe recipe;
    bool has_range = false;
    bool has_seed = false;
};

struct JsonCase {
    std::string name;
    bool nightly = false;
    std::vector<int> size;          // extents of dims 0 and 1 of every output ("size")
    std::vector<int> output_shape;  // every extent of every output ("output_shape")
    std::map<std::string, JsonRecipe> inputs;
    std::map<std::string, double> scalars;
};

struct JsonSpec {
    std::string path;  // for messages
    std::string summary;
    std::optional<Tolerance> tolerance;
    std::string tolerance_reason;
    std::vector<std::string> required_extensions;
    int cuda_max_registers = 0;  // PipelineSpec::cuda_max_registers
    std::map<std::string, JsonRecipe> inputs;
    std::map<std::string, double> scalars;
    std::vector<JsonCase> cases;
    nlohmann::json xfail = nlohmann::json::array();  // entries of xfail.json, pipeline not set
};

// Parses and validates `text` (the contents of `path`). Throws Error "<path>: <key>: <problem>; <fix>".
JsonSpec parse_json_spec(const std::string &text, const std::string &path);

// The error of a JSON spec that the generator's metadata contradicts (an input, output or scalar the
// generator does not have): "<path>: <key>: <problem>; <fix>".
[[noreturn]] void json_spec_error(const std::string &path, const std::string &key, const std::string &problem,
                                  const std::string &fix);

}  // namespace harness
