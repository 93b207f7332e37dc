// Guessed scalars: range pairs by name, candidates per unit, the search and its note (scalar_guesses.h).
#include "spec/scalar_guesses.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "base/number_text.h"
#include "spec/metadata_cases.h"

namespace harness {

namespace {

// Lower-end word -> upper-end word of a range.
const std::pair<const char *, const char *> kRangeWords[] = {{"min", "max"},     {"lo", "hi"},     {"low", "high"},
                                                             {"lower", "upper"}, {"start", "end"}, {"begin", "end"}};

const double kFloatGuesses[] = {0.5, 1, 0.1, 2, 0.25, 4, 0.75, 3};
const double kIntGuesses[] = {8, 3, 1, 16, 5, 2, 12, 4};
const double kBoolGuesses[] = {1, 0};
constexpr size_t kAlternatives = 4;  // candidates per plain scalar after its first
// Ranges for a pair whose both ends are guessed.
const std::pair<double, double> kFloatRanges[] = {{0, 1}, {-1, 1}, {0.25, 0.75}, {-100, 100}, {0, 10}};
const std::pair<double, double> kIntRanges[] = {{1, 8}, {0, 16}, {0, 255}, {-8, 8}, {0, 1000}};
// Widths for a pair of which one end is stated.
const double kFloatWidths[] = {1, 0.5, 10, 100, 0.1};
const double kIntWidths[] = {8, 1, 255, 1000};

bool is_float(halide_type_t t) {
    return t.code == halide_type_float || t.code == halide_type_bfloat;
}

bool is_bool(halide_type_t t) {
    return t.code == halide_type_uint && t.bits == 1;
}

// `word` in the case of `like` (min -> MAX for MIN, Max for Min).
std::string cased_as(std::string word, const std::string &like) {
    const bool all_upper = std::all_of(like.begin(), like.end(), [](char c) { return std::isupper(c); });
    for (size_t i = 0; i < word.size(); i++) {
        if (all_upper || (i == 0 && std::isupper(static_cast<unsigned char>(like[0]))))
            word[i] = char(std::toupper(static_cast<unsigned char>(word[i])));
    }
    return word;
}

// Whether `name` has `word` at `p` as a word of its own: between non-letters, at a camelCase step
// (dBMin), or, for min/max, as a prefix or suffix of a longer word (xmin, minval).
bool word_at(const std::string &name, size_t p, const std::string &word) {
    const size_t e = p + word.size();
    if (e > name.size()) return false;
    for (size_t i = 0; i < word.size(); i++) {
        if (std::tolower(static_cast<unsigned char>(name[p + i])) != word[i]) return false;
    }
    const auto alpha = [&](size_t i) { return std::isalpha(static_cast<unsigned char>(name[i])) != 0; };
    const auto upper = [&](size_t i) { return std::isupper(static_cast<unsigned char>(name[i])) != 0; };
    const bool left = p == 0 || !alpha(p - 1) || (upper(p) && !upper(p - 1));
    const bool right = e == name.size() || !alpha(e) || (upper(e) && !upper(e - 1));
    const bool min_max = word == "min" || word == "max";
    return (left && right) || (min_max && (left || right));
}

// Candidates of a plain guessed scalar: its own first value (the k-th of its kind), then the usual ones;
// each fitted inside a one-sided bound the generator states.
std::vector<double> plain_candidates(const ScalarArg &s, size_t k) {
    const double *list = is_bool(s.type) ? kBoolGuesses : is_float(s.type) ? kFloatGuesses : kIntGuesses;
    const size_t n = is_bool(s.type) ? 2 : 8;
    std::vector<double> raw{list[k % n]};
    for (size_t i = 0; i < n && raw.size() < kAlternatives + 1; i++)
        raw.push_back(list[i]);
    const double step = is_float(s.type) ? 0.5 : 1;
    std::vector<double> out;
    for (double g : raw) {
        if (s.min && g < *s.min) g = is_float(s.type) ? *s.min + step : std::trunc(*s.min + step);
        if (s.max && g > *s.max) g = is_float(s.type) ? *s.max - step : std::trunc(*s.max - step);
        if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
    return out;
}

// Candidates of a scalar whose value is stated (a default, or the middle of its range): that value
// first, then others inside the range (its middle, ends and quarters), else the usual guesses fitted
// inside a one-sided bound.
std::vector<double> stated_candidates(const ScalarArg &s) {
    std::vector<double> out{s.value};
    const auto add = [&](double v) {
        if (!is_float(s.type)) v = std::round(v);
        if ((s.min && v < *s.min) || (s.max && v > *s.max)) return;
        if (std::find(out.begin(), out.end(), v) == out.end() && out.size() < kAlternatives + 1) out.push_back(v);
    };
    if (is_bool(s.type)) {
        add(1 - s.value);
    } else if (s.min && s.max) {
        const double lo = *s.min, hi = *s.max;
        for (double f : {0.5, 1.0, 0.0, 0.25, 0.75})
            add(lo + f * (hi - lo));
    } else {
        for (double g : plain_candidates(s, 0))
            add(g);
    }
    return out;
}

// The values a scalar of type t can hold (floats: any).
void type_limits(halide_type_t t, double *lo, double *hi) {
    *lo = -HUGE_VAL, *hi = HUGE_VAL;
    if (t.code == halide_type_uint) *lo = 0, *hi = std::ldexp(1.0, t.bits) - 1;
    if (t.code == halide_type_int) *lo = -std::ldexp(1.0, t.bits - 1), *hi = std::ldexp(1.0, t.bits - 1) - 1;
}

// `v` as scalar `s` can take it (rounded down for integers, so that a threshold on data in [0, 1) is 0,
// inside its type and stated bounds).
double fitted(const ScalarArg &s, double v) {
    double lo, hi;
    type_limits(s.type, &lo, &hi);
    if (s.min) lo = std::max(lo, *s.min);
    if (s.max) hi = std::min(hi, *s.max);
    if (!is_float(s.type)) v = std::floor(v);
    return std::min(std::max(v, lo), hi);
}

// Adds `c` to u's candidates unless it is there; its index.
size_t candidate_index(GuessUnit &u, const std::vector<double> &c) {
    const auto it = std::find(u.candidates.begin(), u.candidates.end(), c);
    if (it != u.candidates.end()) return size_t(it - u.candidates.begin());
    u.candidates.push_back(c);
    return u.candidates.size() - 1;
}

bool fits(const ScalarArg &s, double v) {
    return (!s.min || v >= *s.min) && (!s.max || v <= *s.max);
}

// Candidates of a range pair (lower end `lo`, upper `hi`), at least one guessed, the k-th pair.
std::vector<std::vector<double>> pair_candidates(const ScalarArg &lo, const ScalarArg &hi, size_t k) {
    std::vector<std::vector<double>> out;
    const bool f = is_float(lo.type) && is_float(hi.type);
    const auto add = [&](double a, double b) {
        if (!f) a = std::trunc(a), b = std::trunc(b);
        const std::vector<double> c{a, b};
        if (a < b && fits(lo, a) && fits(hi, b) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    if (lo.guessed && hi.guessed) {
        const auto *ranges = f ? kFloatRanges : kIntRanges;
        const size_t n = 5;
        for (size_t i = 0; i < n; i++)
            add(ranges[(k + i) % n].first, ranges[(k + i) % n].second);
    } else {
        const auto *widths = f ? kFloatWidths : kIntWidths;
        const size_t n = f ? 5 : 4;
        for (size_t i = 0; i < n; i++) {
            if (lo.guessed)
                add(hi.value - widths[i], hi.value);
            else
                add(lo.value, lo.value + widths[i]);
        }
    }
    if (out.empty()) {  // the stated bounds leave no room for the usual values: inside them, in order
        const double a = lo.min ? *lo.min : hi.max ? *hi.max - 2 : 0;
        const double b = hi.max ? *hi.max : a + 1;
        out.push_back(
            {lo.guessed ? a : lo.value, hi.guessed ? std::max(b, (lo.guessed ? a : lo.value) + 1) : hi.value});
    }
    return out;
}

}  // namespace

std::string range_upper_partner(const std::string &name, const std::vector<std::string> &names) {
    for (const auto &[lo, hi] : kRangeWords) {
        const std::string low = lo;
        for (size_t p = 0; p + low.size() <= name.size(); p++) {
            if (!word_at(name, p, low)) continue;
            const std::string partner =
                name.substr(0, p) + cased_as(hi, name.substr(p, low.size())) + name.substr(p + low.size());
            if (partner != name && std::find(names.begin(), names.end(), partner) != names.end()) return partner;
        }
    }
    return "";
}

std::vector<GuessUnit> guess_units(const std::vector<ScalarArg> &scalars, const std::vector<FillRange> &fills) {
    std::vector<std::string> names;
    for (const auto &s : scalars)
        names.push_back(s.name);
    const auto find = [&](const std::string &n) -> const ScalarArg * {
        for (const auto &s : scalars)
            if (s.name == n) return &s;
        return nullptr;
    };
    // The range pairs first (lower end -> upper end), so that a pair's upper end, wherever the generator
    // declares it, is no unit of its own.
    std::map<std::string, const ScalarArg *> upper_of;
    std::vector<std::string> in_pair;
    for (const auto &s : scalars) {
        const ScalarArg *hi = find(range_upper_partner(s.name, names));
        if (!hi || is_bool(s.type) || is_bool(hi->type) || !(s.guessed || hi->guessed)) continue;
        if (std::find(in_pair.begin(), in_pair.end(), s.name) != in_pair.end() ||
            std::find(in_pair.begin(), in_pair.end(), hi->name) != in_pair.end())
            continue;
        upper_of[s.name] = hi;
        in_pair.push_back(s.name), in_pair.push_back(hi->name);
    }
    std::vector<GuessUnit> units;
    size_t floats = 0, ints = 0, bools = 0, pairs = 0;
    for (const auto &s : scalars) {
        GuessUnit u;
        if (auto p = upper_of.find(s.name); p != upper_of.end()) {
            u.names = {s.name, p->second->name};
            u.candidates = pair_candidates(s, *p->second, pairs++);
            u.pair = true;
        } else if (s.guessed && std::find(in_pair.begin(), in_pair.end(), s.name) == in_pair.end()) {
            size_t &k = is_bool(s.type) ? bools : is_float(s.type) ? floats : ints;
            u.names = {s.name};
            for (double v : plain_candidates(s, k++))
                u.candidates.push_back({v});
        } else if (!s.stated.empty() && std::find(in_pair.begin(), in_pair.end(), s.name) == in_pair.end()) {
            u.names = {s.name};
            u.stated = s.stated;
            for (double v : stated_candidates(s))
                u.candidates.push_back({v});
        } else {
            continue;
        }
        units.push_back(u);
    }
    // On the scale of each fill: the numeric scalars spread over it in order.
    size_t slots = 0;
    for (const auto &u : units)
        slots += is_bool(find(u.names[0])->type) ? 0 : u.names.size();
    for (const auto &[lo, hi] : fills) {
        size_t k = 0;
        for (auto &u : units) {
            if (is_bool(find(u.names[0])->type)) continue;
            std::vector<double> c;
            for (const auto &n : u.names)
                c.push_back(fitted(*find(n), lo + double(++k) / double(slots + 1) * (hi - lo)));
            if (u.pair && !(c[0] < c[1])) continue;  // rounded onto one value: no range
            u.on_scale.push_back(candidate_index(u, c));
        }
    }
    return units;
}

GuessSearch search_guesses(const std::vector<GuessUnit> &units, const std::map<std::string, double> &base,
                           const std::function<std::string(const std::map<std::string, double> &)> &trial, int budget) {
    GuessSearch s;
    const auto values_of = [&](const std::vector<size_t> &p) {
        std::map<std::string, double> v = base;
        for (size_t u = 0; u < units.size(); u++) {
            for (size_t i = 0; i < units[u].names.size(); i++)
                v[units[u].names[i]] = units[u].candidates[p[u]][i];
        }
        return v;
    };
    size_t combinations = 1;
    for (const auto &u : units)
        combinations = std::min<size_t>(combinations * u.candidates.size(), 1u << 20);
    std::vector<std::vector<size_t>> tried;
    std::vector<size_t> pick(units.size(), 0);
    int best = kTrialFailed + 1;
    // Tries `p` unless it was; keeps it when it is better. False once the budget is spent.
    const auto attempt = [&](const std::vector<size_t> &p) {
        if (std::find(tried.begin(), tried.end(), p) != tried.end()) return true;
        if (int(tried.size()) >= budget) return false;
        tried.push_back(p);
        const std::map<std::string, double> v = values_of(p);
        const std::string why = trial(v);
        const int score = degenerate_count(why);
        if (score < best) best = score, pick = p, s.values = v, s.why = why;
        return true;
    };
    attempt(pick);
    // Every unit on the scale of one fill at once (a clamp's two ends inside the data need each other).
    const std::vector<size_t> first = pick;
    for (size_t j = 0; best > 0; j++) {
        std::vector<size_t> p = first;
        bool any = false;
        for (size_t u = 0; u < units.size(); u++) {
            if (j < units[u].on_scale.size()) p[u] = units[u].on_scale[j], any = true;
        }
        if (!any || !attempt(p)) break;
    }
    // Each unit's alternatives in turn, the others at the best so far; again while that improves.
    for (int round = 0; round < 3 && best > 0; round++) {
        const int before = best;
        for (size_t u = 0; u < units.size() && best > 0; u++) {
            const std::vector<size_t> from = pick;
            for (size_t c = 0; c < units[u].candidates.size() && best > 0; c++) {
                std::vector<size_t> p = from;
                p[u] = c;
                if (!attempt(p)) break;
            }
        }
        if (best == before) break;
    }
    // Few combinations in all: the rest of them too, before settling for a degenerate one.
    if (best > 0 && combinations <= size_t(budget)) {
        std::vector<size_t> p(units.size(), 0);
        for (size_t k = 0; k < combinations && best > 0; k++) {
            size_t rest = k;
            for (size_t u = 0; u < units.size(); u++)
                p[u] = rest % units[u].candidates.size(), rest /= units[u].candidates.size();
            if (!attempt(p)) break;
        }
    }
    s.trials = int(tried.size());
    s.exhaustive = tried.size() == combinations;
    return s;
}

std::string guess_note(const std::vector<GuessUnit> &units, const GuessSearch &s) {
    std::string list;
    bool guessed = false;
    for (const auto &u : units) {
        if (!u.stated.empty()) {
            // A stated value is only worth a word when the search moved it or found nothing better.
            const double first = u.candidates.front().front(), now = s.values.at(u.names[0]);
            if (now == first && s.why.empty()) continue;
            list +=
                (list.empty() ? "" : ", ") + u.names[0] + " = " + fmt_num(now) +
                (now == first ? " (its " + u.stated + ")" :
                                " (not its " + u.stated + " " + fmt_num(first) + ", which gives a degenerate output)");
            continue;
        }
        guessed = true;
        list += list.empty() ? "" : ", ";
        if (u.pair) {
            list += u.names[0] + " = " + fmt_num(s.values.at(u.names[0])) + " < " + u.names[1] + " = " +
                    fmt_num(s.values.at(u.names[1]));
        } else {
            list += u.names[0] + " = " + fmt_num(s.values.at(u.names[0]));
        }
    }
    if (list.empty()) return "";
    std::string note = guessed ? "scalars guessed (no estimate, default or range in the generator; a range's two ends "
                                 "kept in order): " +
                                     list :
                                 "scalars searched (a value the generator states gave a degenerate output): " + list;
    if (!s.why.empty()) {
        const bool failed = degenerate_count(s.why) == kTrialFailed;
        const std::string what = failed ? "runs on the cpu variant" : "gives a meaningful output";
        note += s.exhaustive ? " (every combination of the guesses " +
                                   std::string(failed ? "fails on the cpu variant: " : "gives a degenerate output: ") +
                                   s.why + ")" :
                               " (none of the " + std::to_string(s.trials) + " combinations tried " + what +
                                   (failed ? ": " : "; kept the least degenerate: ") + s.why + ")";
    }
    return note + "; state them with set_estimate() or in a JSON spec";
}

}  // namespace harness
