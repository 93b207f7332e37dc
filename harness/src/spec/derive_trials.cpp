// Trials of a derived spec's small case: built-in buffers' bounds and guessed scalars (derive_trials.h).
#include "spec/derive_trials.h"

#include <algorithm>

#include "spec/metadata_cases.h"
#include "spec/query_fixes.h"

namespace harness {

namespace {

// Trials of guessed scalars (each a fork and a cpu run of the small case): enough for every combination of
// two units of four candidates, or each unit's alternatives once for a handful of scalars.
constexpr int kGuessBudget = 16;
// Built-in buffers read past their bounds, each clamping one output dimension.
constexpr int kClampRounds = 6;

// What a trial of `c` on `cpu` depends on: the variant, the scalars and every buffer as it is made.
std::string trial_key(const Variant &cpu, const CaseSpec &c) {
    std::string k = "trial;" + cpu.function_name + ";" + nlohmann::json(c.scalars).dump();
    for (const auto *list : {&c.inputs, &c.outputs}) {
        for (const auto &b : *list) {
            k += ";" + b.name + ":" + shape_string(b.shape) + ":" + nlohmann::json(b.min).dump() +
                 nlohmann::json(b.storage_order).dump() + ":" + b.recipe.describe();
        }
    }
    return k;
}

// The distinct ranges the case's inputs are filled with (at most two: the first inputs'), for guesses on
// the data's scale.
std::vector<FillRange> fill_ranges(const CaseSpec &c) {
    std::vector<FillRange> out;
    for (const auto &b : c.inputs) {
        const Recipe &r = b.recipe;
        if (r.kind == Recipe::Kind::Image || r.kind == Recipe::Kind::Constant || r.hi <= r.lo) continue;
        const FillRange f{r.lo, r.hi};
        if (std::find(out.begin(), out.end(), f) == out.end() && out.size() < 2) out.push_back(f);
    }
    return out;
}

}  // namespace

TrialFindings run_derivation_trials(const DerivationInput &in, const std::vector<ScalarArg> &scalar_args,
                                    std::map<std::string, double> scalars, const ShapeMap &small_outputs,
                                    const SettleCase &settle) {
    TrialFindings f;
    f.outputs = small_outputs;
    std::vector<GuessUnit> units = guess_units(scalar_args);
    for (const auto &u : units) {
        for (size_t i = 0; i < u.names.size(); i++)
            scalars[u.names[i]] = u.candidates.front()[i];
    }
    f.scalars = scalars;
    GuessSearch search;
    search.values = scalars;
    if (in.trial && in.cpu) {
        // "" if the case runs (degenerate or not), else why it cannot be made or run.
        // A trial that ran out of time ends the trials: each more would cost the limit again (13 scalar
        // guesses of one slow fuzzed generator took 6.5 minutes of every `list`).
        const auto trial = [&](const ShapeMap &outputs, const std::map<std::string, double> &values) -> std::string {
            if (!f.out_of_time.empty()) return f.out_of_time;
            const CaseSpec c = settle(outputs, values);
            if (!c.error.empty()) return "the case cannot be made: " + c.error;
            std::string why = cached_in_derivation(trial_key(*in.cpu, c), [&] {
                                  return nlohmann::json(in.trial(c));
                              }).get<std::string>();
            if (is_trial_out_of_time(why)) f.out_of_time = why;
            return why;
        };
        const OutputQuery call = [&](const ShapeMap &outputs) {
            const std::string why = trial(outputs, scalars);
            return degenerate_count(why) == kTrialFailed ? why : std::string();
        };
        for (int round = 0; round < kClampRounds; round++) {
            const std::string err = call(f.outputs);
            if (err.empty() || !clamp_to_built_in_buffer(err, call, f.outputs, f.clamp_notes)) break;
        }
        if (!units.empty()) {
            const CaseSpec c = settle(f.outputs, scalars);
            units = guess_units(scalar_args, fill_ranges(c));  // the same first candidates, more after them
            search = search_guesses(
                units, scalars, [&](const std::map<std::string, double> &values) { return trial(f.outputs, values); },
                kGuessBudget);
        }
    }
    f.scalars = search.values;
    if (!units.empty()) f.guess_note = guess_note(units, search);
    return f;
}

ShapeMap clamped_like(const ShapeMap &outputs, const ShapeMap &from, const ShapeMap &to) {
    ShapeMap out = outputs;
    for (auto &[name, shape] : out) {
        const auto a = from.find(name), b = to.find(name);
        if (a == from.end() || b == to.end()) continue;
        for (size_t d = 0; d < shape.dims.size() && d < a->second.dims.size() && d < b->second.dims.size(); d++) {
            if (a->second.dims[d] == b->second.dims[d]) continue;
            shape.dims[d].min = b->second.dims[d].min;
            shape.dims[d].extent = std::min(shape.dims[d].extent, b->second.dims[d].extent);
        }
    }
    return out;
}

}  // namespace harness
