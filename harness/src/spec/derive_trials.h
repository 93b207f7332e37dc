// What a derived spec learns by running its small case on the cpu variant (the registry's case trial,
// a forked child; results kept per process and for a run's children, shape_query.h):
//   - a buffer built into the pipeline (a constant table) is no argument, so no bounds query checks
//     it and only a call fails ("Input buffer table is accessed at 63, which is beyond the max (3) in
//     dimension 0"): the output dimension that moves the access is clamped to what the table covers
//     (query_fixes.h), in every case the harness proposes;
//   - guessed scalars are settled by the search of scalar_guesses.h.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "harness/metadata_spec.h"
#include "spec/scalar_guesses.h"
#include "spec/shape_query.h"

namespace harness {

// The small case settled with these outputs and scalars (its `error` says why when it cannot be).
using SettleCase = std::function<CaseSpec(const ShapeMap &outputs, const std::map<std::string, double> &scalars)>;

struct TrialFindings {
    ShapeMap outputs;                       // the small case's outputs, clamped where a call showed it
    std::vector<std::string> clamp_notes;   // why, per clamped dimension
    std::map<std::string, double> scalars;  // every scalar, guesses settled
    std::string guess_note;                 // "" when nothing was guessed
    std::string out_of_time;                // a trial's time-limit reason (is_trial_out_of_time), else ""
};

// Runs the trials of `in` (none without in.trial: the outputs stay, the first guesses are kept).
TrialFindings run_derivation_trials(const DerivationInput &in, const std::vector<ScalarArg> &scalar_args,
                                    std::map<std::string, double> scalars, const ShapeMap &small_outputs,
                                    const SettleCase &settle);

// `outputs` of another proposed case with the dimensions the trials clamped (`from` -> `to`, the small
// case's outputs before and after) clamped alike: the clamped min, the extent at most the clamped one.
ShapeMap clamped_like(const ShapeMap &outputs, const ShapeMap &from, const ShapeMap &to);

}  // namespace harness
