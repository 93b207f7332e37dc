// How a spec from a generator's metadata (metadata_spec.h) proposes its cases: sizes from the
// estimates of every dimension, input sizes for what is read within its own bounds, scalar values
// and input fills. The bounds queries (shape_query.h) then settle the proposal.
//
// Estimates come from the plain cpu variant's metadata, else from the estimates probe (the cpu
// variant built once more with an autoscheduler: many generators state estimates only then).
//
// Output sizes per case:
//   small     dimensions with an estimate of at most 16 (channels, batch) keep it; larger estimated
//             dimensions shrink by one factor so that they hold about 64 x 48 elements together
//             (never below 16); dimensions without an estimate are 64, 48, 3, then 2.
//   odd       the same, each shrunk dimension + 3 made odd (67, 51); without an estimate 67, 37, 3, 2.
//   estimate  every output at its estimates (only when every dimension has one); nightly above
//             2^21 elements.
// Scalars: the estimate, else the probe's estimate, else the default, else a value inside
// [min, max], else a guess (floats 0.5, 1, 0.1, 2; integers 8, 3, 1, 16; bools true) with the
// alternatives metadata_spec tries when the first gives a degenerate output.
#pragma once
#include <string>
#include <vector>

#include "HalideRuntime.h"
#include "spec/shape_query.h"
#include "harness/spec.h"

namespace harness {

enum class CaseKind { Small, Odd, Estimate };

// Per dimension the estimated region, or extent -1 where the argument states none. Empty for a
// buffer without any estimate. `probe` is the same argument in the estimates probe (or nullptr).
std::vector<DimRegion> buffer_estimates(const halide_filter_argument_t &a, const halide_filter_argument_t *probe);
bool has_all_estimates(const std::vector<DimRegion> &est, int dimensions);

// The factor by which `kind` shrinks estimated dimensions above 16 of an output with these estimates.
double case_scale(const std::vector<DimRegion> &est, int dimensions, CaseKind kind);
// An output's proposed shape for `kind` (min 0).
BufferShape case_output_shape(const std::vector<DimRegion> &est, int dimensions, CaseKind kind, double scale);
// An input's proposed shape (used where the pipeline reads it within its own bounds): its estimates
// shrunk like the outputs, else the first output's extent in that dimension, else 3 (dim 2) or 16.
BufferShape case_input_proposal(const std::vector<DimRegion> &est, int dimensions, CaseKind kind, double scale,
                                const BufferShape &first_output);

struct ScalarChoice {
    double value = 0;
    std::string source;                // "estimate", "default", "inside [min, max]", "guess", ...
    std::vector<double> alternatives;  // further guesses, tried when the first is degenerate
};
ScalarChoice choose_scalar(const halide_filter_argument_t &a, const halide_filter_argument_t *probe);

// The default fill of an input of type `t`: floats uniform [0, 1), 8-bit integers their whole range,
// 16-bit [0, 4095], wider [0, 1000], bool [0, 1]; seeded with `seed`.
Recipe default_recipe(halide_type_t t, uint64_t seed);

// "" if every output looks like a meaningful result, else why not, per output, whatever its number of
// dimensions and element type: constant ("1 distinct value in 3072 elements", any output of 2 elements or
// more), or, in 64 elements or more, one value everywhere but in at most 2 of them or 0.5 % of them,
// whichever is more ("all but 1 of 3072 elements hold one value"). How many distinct values an output holds
// does not matter (a 0/1/2 sign map is meaningful). With several outputs each reason names its output
// ("output 'mask': ..."; `names` in the outputs' order).
std::string degenerate_outputs(const std::vector<Array> &outputs, const std::vector<std::string> &names = {});
// How bad a trial's result is, for choosing between guesses: 0 meaningful; for degenerate_outputs()'
// reason, per degenerate output 2 (constant) or 1 (all but a handful of elements one value); kTrialFailed
// for anything else (an error).
inline constexpr int kTrialFailed = 1000;
int degenerate_count(const std::string &why);
// A cpu run in a child stopped by its time limit (`seconds`): the reason a derivation trial (try_case_on_cpu)
// or bless's determinism child gives, and the test for it. A generator whose small case outlasts the trial
// gets no case (metadata_spec.cpp); a case that outlasts bless's child is not blessed (bless.cpp).
std::string trial_out_of_time(int seconds);
bool is_trial_out_of_time(const std::string &why);

}  // namespace harness
