// Guessed scalars of a spec from metadata (metadata_spec.h): the values a generator's scalars get when
// it states no estimate, default or range for them, and the small search that settles them.
//   - each guessed scalar starts at its own value (floats 0.5, 1, 0.1, 2, 0.25, ...; integers 8, 3, 1,
//     16, 5, ...; bools true, false), so that two unrelated scalars are not equal by accident;
//   - two scalars whose names bound a range (x_min/x_max, min_x/max_x, lo/hi, low/high, lower/upper,
//     start/end, begin/end, xmin/xmax, dB_min/dB_max) are one unit whose candidates keep min < max,
//     also when one of them is stated and only the other guessed;
//   - the search: the first values, then each unit's alternatives in turn with the others held at the
//     best so far, until a trial gives a meaningful output or the budget is spent.
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
    std::optional<double> min, max;  // a one-sided bound the generator states
};

// The partner of `name` that bounds the same range from above when `name` is its lower end
// (x_min -> x_max, lo -> hi, dB_min -> dB_max), among `names`; "" if none.
std::string range_upper_partner(const std::string &name, const std::vector<std::string> &names);

// What the search sets together: one guessed scalar, or a range pair with at least one guessed side.
struct GuessUnit {
    std::vector<std::string> names;               // 1, or 2 (lower end first)
    std::vector<std::vector<double>> candidates;  // each: a value per name; the first is tried first
    bool pair = false;
};

// The units of `scalars` (in the generator's order) with their candidates.
std::vector<GuessUnit> guess_units(const std::vector<ScalarArg> &scalars);

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
