// Guessed scalars of derived specs (spec/scalar_guesses.h): range pairs by name, each scalar its own first
// value, min < max kept, the search over combinations and its note; and through derive_spec with a fake
// variant whose outputs depend on the scalars as real generators' do.
#include "spec/scalar_guesses.h"

#include <gtest/gtest.h>

#include "halide_types.h"
#include "harness/metadata_spec.h"

namespace harness {
namespace {

TEST(ScalarGuesses, RangePairsByName) {
    const std::vector<std::string> names{"x_min", "x_max", "min_y",  "max_y",  "lo",  "hi",   "dB_min", "dB_max",
                                         "xmin",  "xmax",  "minVal", "maxVal", "LOW", "HIGH", "legend", "end"};
    EXPECT_EQ(range_upper_partner("x_min", names), "x_max");
    EXPECT_EQ(range_upper_partner("min_y", names), "max_y");
    EXPECT_EQ(range_upper_partner("lo", names), "hi");
    EXPECT_EQ(range_upper_partner("dB_min", names), "dB_max");
    EXPECT_EQ(range_upper_partner("xmin", names), "xmax");
    EXPECT_EQ(range_upper_partner("minVal", names), "maxVal");
    EXPECT_EQ(range_upper_partner("LOW", names), "HIGH");
    EXPECT_EQ(range_upper_partner("x_max", names), "");   // the upper end has no upper partner
    EXPECT_EQ(range_upper_partner("legend", names), "");  // "end" inside a word is no range word
    EXPECT_EQ(range_upper_partner("slow", {"slow", "shigh"}), "");
    EXPECT_EQ(range_upper_partner("start", {"start", "end"}), "end");
    EXPECT_EQ(range_upper_partner("lower_bound", {"upper_bound", "lower_bound"}), "upper_bound");
}

ScalarArg scalar_arg(const std::string &name, halide_type_t t) {
    ScalarArg s;
    s.name = name;
    s.type = t;
    return s;
}

ScalarArg guessed_scalar(const std::string &name, halide_type_t t) {
    ScalarArg s = scalar_arg(name, t);
    s.guessed = true;
    return s;
}

TEST(ScalarGuesses, EachScalarItsOwnValueAndRangesInOrder) {
    const std::vector<GuessUnit> units =
        guess_units({guessed_scalar("a", kF32), guessed_scalar("dB_max", kF32), guessed_scalar("b", kF32),
                     guessed_scalar("dB_min", kF32), guessed_scalar("n", halide_type_t(halide_type_int, 32, 1)),
                     guessed_scalar("m", halide_type_t(halide_type_int, 32, 1))});
    ASSERT_EQ(units.size(), 5u);  // a, b, the pair (where its lower end is declared), n, m
    EXPECT_EQ(units[0].names, std::vector<std::string>{"a"});
    EXPECT_EQ(units[1].names, std::vector<std::string>{"b"});
    EXPECT_NE(units[0].candidates[0], units[1].candidates[0]);  // not the same value by accident
    EXPECT_NE(units[3].candidates[0], units[4].candidates[0]);
    const GuessUnit &pair = units[2];
    ASSERT_TRUE(pair.pair);
    EXPECT_EQ(pair.names, (std::vector<std::string>{"dB_min", "dB_max"}));
    ASSERT_GE(pair.candidates.size(), 3u);
    for (const auto &c : pair.candidates)
        EXPECT_LT(c[0], c[1]);
}

TEST(ScalarGuesses, AStatedEndAndOneSidedBoundsAreKept) {
    ScalarArg lo = scalar_arg("x_min", kF32);
    lo.value = 5;  // stated (an estimate): only x_max is guessed, above it
    const std::vector<GuessUnit> units = guess_units({lo, guessed_scalar("x_max", kF32)});
    ASSERT_EQ(units.size(), 1u);
    for (const auto &c : units[0].candidates) {
        EXPECT_EQ(c[0], 5);
        EXPECT_GT(c[1], 5);
    }
    ScalarArg k = guessed_scalar("k", halide_type_t(halide_type_int, 32, 1));
    k.min = 20;  // a min alone: every guess lies above it
    const std::vector<GuessUnit> bounded = guess_units({k});
    ASSERT_EQ(bounded.size(), 1u);
    for (const auto &c : bounded[0].candidates)
        EXPECT_GT(c[0], 20);
    // Nothing guessed: nothing to search.
    EXPECT_TRUE(guess_units({lo}).empty());
}

TEST(ScalarGuesses, TheSearchTriesCombinationsUntilOneMeansSomething) {
    const std::vector<GuessUnit> units = guess_units({guessed_scalar("a", kF32), guessed_scalar("b", kF32)});
    // Meaningful only for a == 2 and b == 0.1: the coordinate search finds it.
    std::vector<std::map<std::string, double>> tried;
    const auto trial = [&](const std::map<std::string, double> &v) -> std::string {
        tried.push_back(v);
        if (v.at("a") == 2 && v.at("b") == 0.1) return "";
        return v.at("a") == 2 ? "all but 3 of 3072 elements hold one value" : "1 distinct value in 3072 elements";
    };
    GuessSearch s = search_guesses(units, {}, trial, 16);
    EXPECT_EQ(s.why, "");
    EXPECT_EQ(s.values.at("a"), 2);
    EXPECT_EQ(s.values.at("b"), 0.1);
    EXPECT_EQ(s.trials, int(tried.size()));
    EXPECT_LE(s.trials, 16);
    EXPECT_NE(guess_note(units, s).find("a = 2, b = 0.1;"), std::string::npos) << guess_note(units, s);
    EXPECT_EQ(guess_note(units, s).find("degenerate"), std::string::npos);
    // Never meaningful, few combinations: every one is tried and the note says so.
    tried.clear();
    s = search_guesses(
        units, {},
        [&](const std::map<std::string, double> &v) {
            tried.push_back(v);
            return std::string("1 distinct value in 3072 elements");
        },
        100);
    EXPECT_TRUE(s.exhaustive);
    EXPECT_EQ(size_t(s.trials), units[0].candidates.size() * units[1].candidates.size());
    EXPECT_NE(guess_note(units, s).find("every combination of the guesses gives a degenerate output"),
              std::string::npos);
    // Never meaningful, more combinations than the budget: only "the ones tried", never "every".
    s = search_guesses(
        units, {},
        [](const std::map<std::string, double> &) { return std::string("1 distinct value in 3072 elements"); }, 5);
    EXPECT_FALSE(s.exhaustive);
    EXPECT_EQ(s.trials, 5);
    EXPECT_NE(guess_note(units, s).find("none of the 5 combinations tried gives a meaningful output"),
              std::string::npos);
    EXPECT_EQ(guess_note(units, s).find("every"), std::string::npos);
    // A degenerate result beats an error; the error is named as one.
    s = search_guesses(
        units, {},
        [](const std::map<std::string, double> &v) {
            return v.at("a") == 1 ? std::string("all but 1 of 64 elements hold one value") :
                                    std::string("the cpu variant failed: x");
        },
        100);
    EXPECT_EQ(s.values.at("a"), 1);
    s = search_guesses(
        units, {}, [](const std::map<std::string, double> &) { return std::string("the cpu variant failed: boom"); },
        100);
    EXPECT_NE(guess_note(units, s).find("every combination of the guesses fails on the cpu variant: the cpu variant "
                                        "failed: boom"),
              std::string::npos)
        << guess_note(units, s);
}

// A gain whose default is 0 (Input<int16_t> gain{"gain", 0, 0, 16}) makes out = in * gain constant: the default
// is tried first, then values inside its range, and the note says which value replaced it and why.
TEST(ScalarGuesses, AStatedDefaultThatGivesADegenerateOutputIsSearchedInsideItsRange) {
    ScalarArg gain = scalar_arg("gain", halide_type_t(halide_type_int, 16, 1));
    gain.value = 0, gain.min = 0, gain.max = 16, gain.stated = "default";
    const std::vector<GuessUnit> units = guess_units({gain});
    ASSERT_EQ(units.size(), 1u);
    EXPECT_EQ(units[0].candidates.front(), std::vector<double>{0});
    for (const auto &c : units[0].candidates) {
        EXPECT_GE(c[0], 0);
        EXPECT_LE(c[0], 16);
    }
    std::vector<double> tried;
    const auto trial = [&](const std::map<std::string, double> &v) {
        tried.push_back(v.at("gain"));
        return v.at("gain") == 0 ? std::string("1 distinct value in 3072 elements") : std::string();
    };
    GuessSearch s = search_guesses(units, {}, trial, 16);
    EXPECT_EQ(s.why, "");
    EXPECT_EQ(tried, (std::vector<double>{0, 8}));
    EXPECT_NE(guess_note(units, s).find("gain = 8 (not its default 0, which gives a degenerate output)"),
              std::string::npos)
        << guess_note(units, s);
    // A default that gives a meaningful output is kept, with one trial and no note.
    tried.clear();
    gain.value = 3;
    const std::vector<GuessUnit> kept = guess_units({gain});
    s = search_guesses(kept, {}, trial, 16);
    EXPECT_EQ(tried, std::vector<double>{3});
    EXPECT_EQ(guess_note(kept, s), "");
}

// clamp(v, a, b) with a and b named as no range (db_a, db_b), on 16-bit data filled in [0, 4095]: the
// usual guesses (0.5, 1, ...) are far below the data, so the output is constant; on the fill's scale both
// lie inside it, in order (a < b), tried together right after the first guesses. A threshold on float
// data filled in [0, 1) gets 0 as an integer (every guess 1 and up lies above the data).
TEST(ScalarGuesses, GuessesOnTheScaleOfTheInputFills) {
    const std::vector<GuessUnit> units =
        guess_units({guessed_scalar("db_a", kF32), guessed_scalar("db_b", kF32)}, {{0, 4095}});
    ASSERT_EQ(units.size(), 2u);
    ASSERT_EQ(units[0].on_scale.size(), 1u);
    const double a = units[0].candidates[units[0].on_scale[0]][0], b = units[1].candidates[units[1].on_scale[0]][0];
    EXPECT_DOUBLE_EQ(a, 1365);
    EXPECT_DOUBLE_EQ(b, 2730);
    std::vector<std::map<std::string, double>> tried;
    const auto clamp_trial = [&](const std::map<std::string, double> &v) {
        tried.push_back(v);
        const double lo = v.at("db_a"), hi = v.at("db_b");
        return hi - lo > 100 && lo < 4000 && hi > 100 ? std::string() :
                                                        std::string("1 distinct value in 3072 elements");
    };
    GuessSearch s = search_guesses(units, {}, clamp_trial, 16);
    EXPECT_EQ(s.why, "");
    EXPECT_EQ(tried.size(), 2u);  // the first guesses, then both on the data's scale
    // Without the fills the coordinate search never gets both ends inside the data.
    tried.clear();
    s = search_guesses(guess_units({guessed_scalar("db_a", kF32), guessed_scalar("db_b", kF32)}), {}, clamp_trial, 16);
    EXPECT_NE(s.why, "");
    // A named pair gets both ends on the scale too, in order; an integer threshold on [0, 1) data gets 0.
    const std::vector<GuessUnit> mixed =
        guess_units({guessed_scalar("t", halide_type_t(halide_type_int, 32, 1)), guessed_scalar("lo", kF32),
                     guessed_scalar("hi", kF32), guessed_scalar("on", halide_type_t(halide_type_uint, 1, 1))},
                    {{0, 1}, {0, 255}});
    ASSERT_EQ(mixed.size(), 3u);
    ASSERT_EQ(mixed[0].on_scale.size(), 2u);
    EXPECT_EQ(mixed[0].candidates[mixed[0].on_scale[0]], std::vector<double>{0});
    EXPECT_EQ(mixed[0].candidates[mixed[0].on_scale[1]], std::vector<double>{63});
    // Alone on [0, 1) data (fz1_143: select(in > t, ...) with t an int8), the threshold is 0, not 1.
    const std::vector<GuessUnit> alone =
        guess_units({guessed_scalar("t", halide_type_t(halide_type_int, 8, 1))}, {{0, 1}});
    EXPECT_EQ(alone[0].candidates[alone[0].on_scale[0]], std::vector<double>{0});
    ASSERT_TRUE(mixed[1].pair);
    EXPECT_EQ(mixed[1].candidates[mixed[1].on_scale[0]], (std::vector<double>{0.5, 0.75}));
    EXPECT_TRUE(mixed[2].on_scale.empty());  // a bool has no scale
    // A uint8 scalar on a wider fill stays inside its type.
    const std::vector<GuessUnit> narrow =
        guess_units({guessed_scalar("k", halide_type_t(halide_type_uint, 8, 1))}, {{0, 4095}});
    EXPECT_EQ(narrow[0].candidates[narrow[0].on_scale[0]], std::vector<double>{255});
}

// A fake generator: output = (in - lo) / (hi - lo) with scalars dB_min and dB_max, both without estimates.
halide_buffer_t *fake_buffer(void **args, int i) {
    return static_cast<halide_buffer_t *>(args[i]);
}
int ranged_fake(void **a) {
    if (fake_buffer(a, 0)->host == nullptr) {
        for (int d = 0; d < 2; d++)
            fake_buffer(a, 0)->dim[d] = fake_buffer(a, 3)->dim[d];
    }
    return 0;
}

TEST(ScalarGuesses, DerivedSpecKeepsARangeInOrder) {
    std::vector<halide_filter_argument_t> args{
        {"in", halide_argument_kind_input_buffer, 2, kF32, nullptr, nullptr, nullptr, nullptr, nullptr},
        {"dB_min", halide_argument_kind_input_scalar, 0, kF32, nullptr, nullptr, nullptr, nullptr, nullptr},
        {"dB_max", halide_argument_kind_input_scalar, 0, kF32, nullptr, nullptr, nullptr, nullptr, nullptr},
        {"out", halide_argument_kind_output_buffer, 2, kF32, nullptr, nullptr, nullptr, nullptr, nullptr}};
    halide_filter_metadata_t md{halide_filter_metadata_t::VERSION, 4, args.data(), "x86-64-linux", "ranged__cpu"};
    Variant v;
    v.function_name = "ranged__cpu";  // trials are kept per process by variant and case
    v.pipeline = "fake";
    v.profile = "cpu";
    v.argv_call = ranged_fake;
    v.metadata = &md;
    DerivationInput in;
    in.cpu = &v;
    in.variants = {&v};
    std::vector<std::pair<double, double>> tried;
    // Like a clamp to [0, 1] of dB values in [-40, 0]: constant unless dB_min < 0 < dB_max... or degenerate.
    in.trial = [&](const CaseSpec &c) -> std::string {
        const double lo = c.scalars.at("dB_min"), hi = c.scalars.at("dB_max");
        tried.push_back({lo, hi});
        return lo < 0 && lo < hi ? "" : "1 distinct value in 3072 elements";
    };
    const PipelineSpec s = derive_spec({"fake", "", "", ""}, in);
    ASSERT_FALSE(tried.empty());
    for (const auto &[lo, hi] : tried)
        EXPECT_LT(lo, hi);  // never min == max, as lock-step guesses gave
    const CaseSpec &c = s.cases.at(0);
    EXPECT_LT(c.scalars.at("dB_min"), 0);
    ASSERT_FALSE(c.notes.empty());
    EXPECT_NE(c.notes[0].find("dB_min = -1 < dB_max = 1"), std::string::npos) << c.notes[0];
    EXPECT_EQ(c.notes[0].find("degenerate"), std::string::npos) << c.notes[0];
}

}  // namespace
}  // namespace harness
