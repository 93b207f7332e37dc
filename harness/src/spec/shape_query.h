// Bounds queries of compiled variants: the shapes a pipeline's buffers must have for one case, as
// Halide's RunGen sizes its buffers from the binary's own bounds query, but for every variant of a
// pipeline at once (a GPU schedule may read further than the cpu one) and settled to a fixed point:
//   - outputs grow to what every variant's schedule computes (a split of 64 with ShiftInwards or
//     RoundUp needs 64 columns) and take the bounds the generator states (dim(0).set_bounds(0, 64));
//   - inputs get the union of the regions every variant reads, from a non-zero or negative min where
//     the pipeline reads there; a dimension the pipeline reads only within its own bounds (behind a
//     boundary condition) gets the proposed size;
//   - the strides a generator states (dim(2).set_stride(1): interleaved) become the storage order.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/registry.h"

namespace harness {

struct DimRegion {
    int min = 0, extent = 0;
    int max() const { return min + extent - 1; }
    bool operator==(const DimRegion &o) const { return min == o.min && extent == o.extent; }
    bool operator!=(const DimRegion &o) const { return !(*this == o); }
};

// One buffer's region per dimension (Halide order) and the storage order its strides ask for
// (innermost first; empty: natural).
struct BufferShape {
    std::vector<DimRegion> dims;
    std::vector<int> storage_order;
    std::vector<int> extents() const;
    std::vector<int> mins() const;
};

using ShapeMap = std::map<std::string, BufferShape>;

// One bounds query of `v`: every buffer argument in query mode with the given regions (inputs absent
// from `inputs` get extent 0). Returns "" and the regions Halide asks for, or the error it raised.
std::string query_variant(const Variant &v, const std::map<std::string, double> &scalars, const ShapeMap &inputs,
                          const ShapeMap &outputs, ShapeMap *inputs_out, ShapeMap *outputs_out);

struct SettledShapes {
    ShapeMap inputs, outputs;
    std::string error;               // "" or why no shapes fit every variant (then the case is an ERROR)
    std::vector<std::string> notes;  // what changed from the proposal, and variants left out
};

// The shapes of one case for every variant in `variants` (the cpu variant first): outputs start at
// `outputs` (min 0) and are settled as described above; `proposals` gives each input's size for the
// dimensions it reads only within its own bounds. When a GPU variant is among them, the queries run in
// a forked child (a GPU variant's bounds query initialises its device runtime and compiles its
// kernels), remembered per process and, under shape_cache_dir(), on disk for a run's children
// (save_settled_shapes).
SettledShapes settle_shapes(const std::vector<const Variant *> &variants, const std::map<std::string, double> &scalars,
                            const ShapeMap &outputs, const ShapeMap &proposals);

// Writes the shapes this process settled with a fork into `dir`, where other processes told so read them
// (run's parent for its children: --shape-cache, run/child_protocol.h).
void save_settled_shapes(const std::string &dir);
// The folder settled shapes are read from and written to: set_shape_cache_dir's, else
// $AOT_HARNESS_SHAPE_CACHE (ctest's runs share one), else "" (none).
std::string shape_cache_dir();
void set_shape_cache_dir(const std::string &dir);

// Another result of a derivation that costs a fork (a guessed scalars' trial), by what it depends on:
// computed once per process and kept with the settled shapes, so that a run's children read it.
nlohmann::json cached_in_derivation(const std::string &what, const std::function<nlohmann::json()> &compute);

}  // namespace harness
