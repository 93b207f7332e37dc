// Guessed scalars of a spec from metadata (metadata_spec.h): the values a generator's scalars get when
// it states no estimate, default or range for them, and the small search that settles them.
//   - each guessed scalar starts at its own value (floats 0.5, 1, 0.1, 2, 0.25, ...; integers 8, 3, 1,
//     16, 5, ...; bools true, false), so that two unrelated scalars are not equal by accident;
//   - two scalars whose names bound a range (x_min/x_max, min_x/max_x, lo/hi, low/high, lower/upper,
//     start/end, begin/end, xmin/xmax, dB_min/dB_max) are one unit whose candidates keep min < max,
//     also when one of them is stated and only the other guessed;
//   - a scalar with a default, or a range and no default, keeps that value unless it gives a degenerate
//     output; then other values inside its range are tried like guesses (a gain whose default is 0);
//   - the search: the first values, then every unit on the scale of each input fill at once (a threshold
//     or a clamp's two ends inside the data), then each unit's alternatives in turn with the others held
//     at the best so far, until a trial gives a meaningful output or the budget is spent.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "HalideRuntime.h"

namespace harness {

// One scalar of the generator, as derive_spec sees it.
struct ScalarArg {
    std::string name;
    halide_type_t type;
    bool guessed = false;            // no estimate, default or range: the search chooses it
    double value = 0;                // the stated value (not guessed) or the first plain guess
    std::optional<double> min, max;  // a bound the generator states
    // A default or a value inside [min, max] (not an estimate, nor a JSON spec's): tried first, and other
    // values (inside the range) only when it gives a degenerate output (a gain whose default is 0).
    std::string stated;  // "default", "inside [min, max]"; "" for an estimate or a guess
};

// The range [lo, hi] of values an input fill holds: guesses on the data's scale (a threshold, or the two
// ends of a clamp) come from it.
using FillRange = std::pair<double, double>;

// The partner of `name` that bounds the same range from above when `name` is its lower end
// (x_min -> x_max, lo -> hi, dB_min -> dB_max), among `names`; "" if none.
std::string range_upper_partner(const std::string &name, const std::vector<std::string> &names);

// What the search sets together: one guessed scalar, or a range pair with at least one guessed side.
struct GuessUnit {
    std::vector<std::string> names;               // 1, or 2 (lower end first)
    std::vector<std::vector<double>> candidates;  // each: a value per name; the first is tried first
    bool pair = false;
    std::string stated;            // the scalar's value is stated (ScalarArg::stated): the first candidate
    std::vector<size_t> on_scale;  // per fill range: the index of the candidate on its scale (none: empty)
};

// The units of `scalars` (in the generator's order) with their candidates. Per range in `fills`, every
// unit gets a candidate on that scale: the numeric scalars (a pair's two ends too) spread over it in
// the generator's order (k-th of n at lo + (k + 1) / (n + 1) * (hi - lo)), so that unrelated
// scalars differ and a pair's ends, or two scalars a clamp takes, lie inside the data in order.
std::vector<GuessUnit> guess_units(const std::vector<ScalarArg> &scalars, const std::vector<FillRange> &fills = {});

struct GuessSearch {
    std::map<std::string, double> values;  // every scalar's value: the best combination tried
    std::string why;                       // "" if it gives a meaningful output, else why not (the trial's)
    int trials = 0;
    bool exhaustive = false;  // every combination of the units' candidates was tried
};

// Tries combinations (at most `budget`) with `trial` ("" for a meaningful output, else why not) and keeps
// the first meaningful one, else the least bad (fewest degenerate outputs; an error is worst).
GuessSearch search_guesses(const std::vector<GuessUnit> &units, const std::map<std::string, double> &base,
                           const std::function<std::string(const std::map<std::string, double> &)> &trial, int budget);

// The cases' note on the guesses: "scalars guessed (...): a = 0.5, x_min = 0 < x_max = 1; ..." and, when
// no combination gave a meaningful output, whether every combination or only the ones tried did not.
std::string guess_note(const std::vector<GuessUnit> &units, const GuessSearch &s);

}  // namespace harness
