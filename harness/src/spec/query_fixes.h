// What a failed bounds query says about the output shapes a pipeline can compute, for the fixed point of
// shape_query.cpp: the outputs it asks for instead.
//   - "Applying the constraints on <out> to the required region made it smaller in dimension d": the
//     generator's bounds for that dimension (as a 1-element query returns them);
//   - "Input buffer <b> is accessed at A, which is beyond the max (M) in dimension d": <b> is a buffer
//     built into the pipeline (a constant table: arguments are never checked like this), so the output
//     can only be as large as that buffer covers. The output dimension whose extent moves the access is
//     clamped to the largest extent whose query no longer reads past M (a 4x4 table read at (x, y) makes
//     a 4x4 output). "... before the min (m) ...": that output dimension's min moves up instead.
//   - "Applying the constraints on Input buffer <b> to the required region made it smaller in dimension
//     d. Required size: A to B. Constrained size: C to D.": an input whose bounds the generator fixes
//     (in.dim(0).set_bounds(0, 40)) is read further than that; the outputs shrink (or their mins move
//     up) the same way, to what the fixed input covers.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "spec/shape_query.h"

namespace harness {

// A bounds query with these outputs: "" or Halide's error.
using OutputQuery = std::function<std::string(const ShapeMap &outputs)>;

// Changes `outputs` as `err` asks (see above) and says why in `notes`; false if `err` is none of these
// or nothing changes. `tiny_out` is what a 1-element query returned (`have_tiny` false: none).
bool fix_outputs_from_query_error(const std::string &err, const OutputQuery &query, const ShapeMap &tiny_out,
                                  bool have_tiny, ShapeMap &outputs, std::vector<std::string> &notes);

// The built-in buffer part alone: `err` from a query or from a call (Halide 21 checks a built-in
// buffer's bounds only when it computes, so derive_trials.h feeds it calls of the cpu variant).
bool clamp_to_built_in_buffer(const std::string &err, const OutputQuery &query, ShapeMap &outputs,
                              std::vector<std::string> &notes);

}  // namespace harness
