// Cases derived from generator metadata (metadata_spec.h, metadata_cases.h, shape_query.h) against
// fake variants whose bounds queries behave like the classes real generators hit: an input behind a
// boundary condition, reads before 0, stated bounds, a schedule that needs larger outputs, a GPU
// variant that reads further, interleaved strides, estimates of every dimension, guessed scalars.
#include <gtest/gtest.h>

#include <cstring>

#include "base/error.h"
#include "halide_types.h"
#include "spec/metadata_cases.h"
#include "harness/metadata_spec.h"
#include "derivation_fakes.h"

using namespace harness;
using namespace harness::test_fakes;

namespace {

// in(x - 2, y - 1) .. in(x + 2, y + 1): an input read outside the output's region.
int stencil(void **a) {
    if (querying(a, 0)) {
        const halide_buffer_t *o = buf(a, 1);
        buf(a, 0)->dim[0] = {o->dim[0].min - 2, o->dim[0].extent + 4, 1, 0};
        buf(a, 0)->dim[1] = {o->dim[1].min - 1, o->dim[1].extent + 2, o->dim[0].extent + 4, 0};
    }
    return 0;
}

// A GPU variant of the stencil whose 16x16 tiles (RoundUp) compute whole tiles: outputs round up.
int stencil_tiled(void **a) {
    halide_buffer_t *o = buf(a, 1);
    if (querying(a, 1)) {
        for (int d = 0; d < 2; d++)
            o->dim[d].extent = (o->dim[d].extent + 15) / 16 * 16;
    }
    return stencil(a);
}

// out.dim(0).set_bounds(0, 32), in the same; interleaved: in.dim(2).set_stride(1).
int constrained(void **a) {
    if (querying(a, 1)) buf(a, 1)->dim[0] = {0, 32, 1, 0};
    if (querying(a, 0)) {
        const halide_buffer_t *o = buf(a, 1);
        halide_buffer_t *in = buf(a, 0);
        in->dim[0] = {0, 32, 3, 0};
        in->dim[1] = {0, o->dim[1].extent, 96, 0};
        in->dim[2] = {0, 3, 1, 0};
    }
    return 0;
}

const int64_t k0 = 0, k3 = 3, k1000 = 1000, k800 = 800;
const int64_t *const kEst3[] = {&k0, &k1000, &k0, &k800, &k0, &k3};

}  // namespace

TEST(Derivation, InputBehindABoundaryConditionGetsTheOutputsSize) {
    Fake f("fake__cpu", self_bounded, 2);
    const PipelineSpec s = derive({&f.v});
    ASSERT_EQ(s.cases.at(0).name, "small");
    EXPECT_EQ(s.cases[0].inputs.at(0).shape, (std::vector<int>{64, 48}));  // not 1x1
    EXPECT_TRUE(s.cases[0].inputs[0].min.empty());
}

TEST(Derivation, ReadsBeforeZeroGiveANegativeMin) {
    Fake f("fake__cpu", stencil, 2);
    const PipelineSpec s = derive({&f.v});
    const BufferSpec &in = s.cases.at(0).inputs.at(0);
    EXPECT_EQ(in.shape, (std::vector<int>{68, 50}));
    EXPECT_EQ(in.min, (std::vector<int>{-2, -1}));
    EXPECT_TRUE(s.cases[0].error.empty()) << s.cases[0].error;
}

TEST(Derivation, EveryVariantsScheduleSizesTheCase) {
    Fake cpu("fake__cpu", stencil, 2), gpu("fake__opencl", stencil_tiled, 2);
    const PipelineSpec s = derive({&cpu.v, &gpu.v});
    const CaseSpec &odd = s.cases.at(1);
    ASSERT_EQ(odd.name, "odd");
    EXPECT_EQ(odd.outputs.at(0).shape, (std::vector<int>{80, 48}));  // 67 x 37 rounded up to 16
    EXPECT_EQ(odd.inputs.at(0).shape, (std::vector<int>{84, 50}));   // what the tiles read
    ASSERT_FALSE(odd.notes.empty());
    EXPECT_NE(odd.notes[0].find("output 'out' is 80x48, not 67x37"), std::string::npos) << odd.notes[0];
}

TEST(Derivation, StatedBoundsAndInterleavedStridesAreHonoured) {
    Fake f("fake__cpu", constrained, 3);
    const PipelineSpec s = derive({&f.v});
    const CaseSpec &c = s.cases.at(0);
    EXPECT_EQ(c.outputs.at(0).shape, (std::vector<int>{32, 48, 3}));
    EXPECT_EQ(c.inputs.at(0).shape, (std::vector<int>{32, 48, 3}));
    EXPECT_EQ(c.inputs[0].storage_order, (std::vector<int>{2, 0, 1}));
}

TEST(Derivation, EstimatesOfEveryDimension) {
    Fake f("fake__cpu", self_bounded, 3, kEst3, kEst3);
    const PipelineSpec s = derive({&f.v});
    // 3 channels kept; 1000 x 800 shrunk by one factor to about 64 x 48 elements.
    EXPECT_EQ(s.cases.at(0).outputs.at(0).shape, (std::vector<int>{62, 50, 3}));
    EXPECT_EQ(s.cases.at(2).name, "estimate");
    EXPECT_EQ(s.cases[2].outputs.at(0).shape, (std::vector<int>{1000, 800, 3}));
    EXPECT_TRUE(s.cases[2].nightly);  // 2.4M elements
    // Channel-first: dims 1 and 2 shrink, dim 0 (3 channels) and dim 3 (batch 2) stay.
    EXPECT_EQ(case_output_shape({{0, 3}, {0, 1000}, {0, 800}, {0, 2}}, 4, CaseKind::Small,
                                case_scale({{0, 3}, {0, 1000}, {0, 800}, {0, 2}}, 4, CaseKind::Small))
                  .extents(),
              (std::vector<int>{3, 62, 50, 2}));
}

TEST(Derivation, AFailedBoundsQueryIsAnErrorCaseNotAThrow) {
    Fake f(
        "fake__cpu", [](void **) { return -1; }, 2);
    const PipelineSpec s = derive({&f.v});
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].name, "default");
    EXPECT_NE(s.cases[0].error.find("no case could be made"), std::string::npos) << s.cases[0].error;
    Fake stub("fake__cpu", self_bounded, 2);
    stub.v.compile_error = "boom";
    const PipelineSpec t = derive({&stub.v});
    EXPECT_NE(t.cases.at(0).error.find("failed to build"), std::string::npos) << t.cases[0].error;
}

namespace {

// Gives a fake a float scalar without estimate, default or range, after its two buffers (self_bounded reads
// args[0] and args[1] as buffers).
void add_guessed_scalar(Fake &f, const char *name) {
    f.args.push_back(halide_filter_argument_t{name, halide_argument_kind_input_scalar, 0, kF32, nullptr, nullptr,
                                              nullptr, nullptr, nullptr});
    f.md.num_arguments = int32_t(f.args.size());
    f.md.arguments = f.args.data();
}

}  // namespace

TEST(Derivation, GuessedScalarsAreTriedUntilTheOutputMeansSomething) {
    Fake f("fake__cpu", self_bounded, 2);
    add_guessed_scalar(f, "scale");
    DerivationInput in = input_of({&f.v});
    std::vector<double> tried;
    in.trial = [&](const CaseSpec &c) -> std::string {
        tried.push_back(c.scalars.at("scale"));
        return c.scalars.at("scale") == 1 ? "" : "1 distinct value in 3072 elements";
    };
    const PipelineSpec s = derive_spec({"fake", "", "", ""}, in);
    // The first guess, the middle of the uint8 input's fill [0, 255] (the data's scale), the next guess.
    EXPECT_EQ(tried, (std::vector<double>{0.5, 127.5, 1}));
    EXPECT_EQ(s.cases.at(0).scalars.at("scale"), 1);
    ASSERT_FALSE(s.cases[0].notes.empty());
    EXPECT_NE(s.cases[0].notes[0].find("scalars guessed"), std::string::npos) << s.cases[0].notes[0];
}

// A generator whose smallest case outlasts the trial's time limit gets no derived case (each would outlast a
// test), and the trials stop there instead of paying the limit once per scalar guess.
TEST(Derivation, ATrialOutOfTimeMakesNoCaseAndEndsTheTrials) {
    Fake f("slow__cpu", self_bounded, 2);
    add_guessed_scalar(f, "gain");
    DerivationInput in = input_of({&f.v});
    int trials = 0;
    in.trial = [&](const CaseSpec &) {
        trials++;
        return trial_out_of_time(30);
    };
    const PipelineSpec s = derive_spec({"fake", "", "", ""}, in);
    EXPECT_EQ(trials, 1);
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_NE(s.cases[0].error.find("no case could be made"), std::string::npos) << s.cases[0].error;
    EXPECT_NE(s.cases[0].error.find("did not finish the case within 30 s"), std::string::npos) << s.cases[0].error;
    EXPECT_TRUE(is_trial_out_of_time(trial_out_of_time(5)));
    EXPECT_FALSE(is_trial_out_of_time("1 distinct value in 3072 elements"));
}

namespace {

// What the cpu trial (try_case_on_cpu) says of a pipeline with a 4x4 table built into it, read at
// (x - shift, y): Halide checks such a buffer only when the pipeline computes, not in a bounds query.
std::string built_in_table_trial(const CaseSpec &c, int shift) {
    const BufferSpec &o = c.outputs.at(0);
    for (int d = 0; d < 2; d++) {
        const int lo = (o.min.empty() ? 0 : o.min[d]) - (d == 0 ? shift : 0), hi = lo + o.shape[d] - 1;
        if (lo >= 0 && hi <= 3) continue;
        return "the cpu variant failed: Input buffer table is accessed at " + std::to_string(lo < 0 ? lo : hi) +
               ", which is " + (lo < 0 ? "before the min (0)" : "beyond the max (3)") + " in dimension " +
               std::to_string(d);
    }
    return "";
}

}  // namespace

TEST(Derivation, ABufferBuiltIntoThePipelineBoundsTheOutput) {
    // Trials are kept per process by variant and case (derive_trials.h): each fake its own name.
    Fake f("table__cpu", self_bounded, 2), g("table_shifted__cpu", self_bounded, 2);
    DerivationInput in = input_of({&f.v});
    int trials = 0;
    in.trial = [&](const CaseSpec &c) {
        trials++;
        return built_in_table_trial(c, 0);
    };
    const PipelineSpec s = derive_spec({"fake", "", "", ""}, in);
    ASSERT_EQ(s.cases.size(), 1u);  // odd is the same 4x4 case
    const CaseSpec &c = s.cases[0];
    ASSERT_TRUE(c.error.empty()) << c.error;
    EXPECT_EQ(c.outputs.at(0).shape, (std::vector<int>{4, 4}));
    EXPECT_TRUE(c.outputs[0].min.empty());
    EXPECT_EQ(c.inputs.at(0).shape, (std::vector<int>{4, 4}));
    EXPECT_LT(trials, 30);
    std::string notes;
    for (const auto &n : c.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("output 'out' extent 4 in dimension 0, not 64: the pipeline reads table, a buffer built "
                         "into it, up to 3 in its dimension 0"),
              std::string::npos)
        << notes;
    EXPECT_NE(notes.find("extent 4 in dimension 1, not 48"), std::string::npos) << notes;
    // Read from x - 2: the output starts at 2 instead.
    in = input_of({&g.v});
    in.trial = [](const CaseSpec &c) { return built_in_table_trial(c, 2); };
    const CaseSpec shifted = derive_spec({"fake", "", "", ""}, in).cases.at(0);
    ASSERT_TRUE(shifted.error.empty()) << shifted.error;
    EXPECT_EQ(shifted.outputs.at(0).shape, (std::vector<int>{4, 4}));
    EXPECT_EQ(shifted.outputs[0].min, (std::vector<int>{2, 0}));
    // Without a trial (nothing can run the pipeline) the proposal stays.
    in.trial = nullptr;
    EXPECT_EQ(derive_spec({"fake", "", "", ""}, in).cases.at(0).outputs.at(0).shape, (std::vector<int>{64, 48}));
}

// An integer output of a pipeline with a float input is computed through float arithmetic: fma contraction
// on one target and not another moves it by one, so it allows one unit; an integer-only pipeline stays
// exact, and so does a bool output (1 would allow anything).
TEST(Derivation, IntegerOutputsOfFloatInputsAllowOneUnit) {
    Fake ints("ints", self_bounded, 2);
    EXPECT_EQ(derive({&ints.v}).tolerance.name(), "Exact");
    Fake f("float_in", self_bounded, 2);
    f.args[0].type = kF32;
    f.args[1].type = halide_type_t(halide_type_uint, 16, 1);
    const PipelineSpec s = derive({&f.v});
    EXPECT_EQ(s.tolerance.name(), "Absolute{atol=1}");
    EXPECT_EQ(s.tolerance_reason.rfind("abs 1: integer output computed through float arithmetic", 0), 0u)
        << s.tolerance_reason;
    f.args[1].type = halide_type_t(halide_type_uint, 1, 1);
    EXPECT_EQ(derive({&f.v}).tolerance.name(), "Exact");
}

TEST(Derivation, DegenerateOutputs) {
    Array constant(kU8, {64, 48});
    EXPECT_EQ(degenerate_outputs({constant}), "1 distinct value in 3072 elements");
    Array varied(kU8, {64, 48});
    for (size_t i = 0; i < varied.bytes.size(); i++)
        varied.bytes[i] = static_cast<uint8_t>(i * 7);
    EXPECT_EQ(degenerate_outputs({varied}), "");
    // Few distinct values are no flaw: a 0/255 mask, a sign map of 0s and 2s with a few 1s.
    Array two(kU8, {64, 48});
    for (size_t i = 0; i < two.bytes.size(); i++)
        two.bytes[i] = i % 2 ? 255 : 0;
    EXPECT_EQ(degenerate_outputs({two}), "");
    Array sign(kU8, {64, 48});
    for (size_t i = 0; i < sign.bytes.size(); i++)
        sign.bytes[i] = i % 97 == 0 ? 1 : (i / 3) % 2 ? 2 : 0;
    EXPECT_EQ(degenerate_outputs({sign}), "");
    // One value in all but a handful of elements: a mask with 1 true pixel, 15 (0.5 %) but not 16 of 3072.
    Array one_true(halide_type_t(halide_type_uint, 1, 1), {64, 48});
    one_true.bytes[1234] = 1;
    EXPECT_EQ(degenerate_outputs({one_true}), "all but 1 of 3072 elements hold one value");
    Array sparse(kU8, {64, 48});
    for (size_t i = 0; i < 15; i++)
        sparse.bytes[i * 200] = static_cast<uint8_t>(i + 1);
    EXPECT_EQ(degenerate_outputs({sparse}), "all but 15 of 3072 elements hold one value");
    sparse.bytes[3071] = 9;
    EXPECT_EQ(degenerate_outputs({sparse}), "");
    Array tiny(kU8, {2, 2});
    tiny.bytes = {0, 1, 0, 1};
    EXPECT_EQ(degenerate_outputs({tiny}), "");  // small outputs may hold few values
}

TEST(Derivation, DegenerateOutputsOfAnyRankAndSize) {
    // 1-D, 64 elements: all but 2 one value is degenerate (a handful), all but 3 is not; 2 values split
    // 40/24 are not.
    Array line(kU8, {64});
    for (size_t i = 0; i < 64; i++)
        line.bytes[i] = i < 40 ? 0 : 1;
    EXPECT_EQ(degenerate_outputs({line}), "");
    Array nearly(kU8, {64});
    nearly.bytes[5] = nearly.bytes[9] = 1;
    EXPECT_EQ(degenerate_outputs({nearly}), "all but 2 of 64 elements hold one value");
    nearly.bytes[11] = 1;
    EXPECT_EQ(degenerate_outputs({nearly}), "");
    Array three(kF32, {48});
    for (size_t i = 0; i < 48; i++)
        three.data<float>()[i] = float(i % 3);
    EXPECT_EQ(degenerate_outputs({three}), "");
    Array few(kF32, {48});  // under 64 elements only a constant output is judged
    few.data<float>()[0] = 1;
    EXPECT_EQ(degenerate_outputs({few}), "");
    // Constant: always, in any rank, from 2 elements on; one element is no evidence.
    EXPECT_EQ(degenerate_outputs({Array(kF32, {2})}), "1 distinct value in 2 elements");
    EXPECT_EQ(degenerate_outputs({Array(kU8, {4, 3, 2, 2})}), "1 distinct value in 48 elements");
    EXPECT_EQ(degenerate_outputs({Array(kF32, {1})}), "");
    EXPECT_EQ(degenerate_outputs({Array(kF32, {})}), "");
    // A bool half true is meaningful; a constant one is not.
    Array mask(halide_type_t(halide_type_uint, 1, 1), {64, 48});
    for (size_t i = 0; i < mask.bytes.size(); i++)
        mask.bytes[i] = (i / 7) % 2;
    EXPECT_EQ(degenerate_outputs({mask}), "");
    EXPECT_EQ(degenerate_outputs({Array(halide_type_t(halide_type_uint, 1, 1), {64})}),
              "1 distinct value in 64 elements");
    // Each output on its own, named: a meaningful one does not hide a constant one.
    Array varied(kU8, {64, 48});
    for (size_t i = 0; i < varied.bytes.size(); i++)
        varied.bytes[i] = static_cast<uint8_t>(i * 7);
    nearly.bytes[11] = 0;
    const std::string why = degenerate_outputs({varied, Array(kU8, {64, 48}), nearly}, {"image", "zero", "flags"});
    EXPECT_EQ(why, "output 'zero': 1 distinct value in 3072 elements; output 'flags': all but 2 of 64 elements "
                   "hold one value");
    EXPECT_EQ(degenerate_count(why), 2 + 1);  // constant, then all but a handful
    EXPECT_EQ(degenerate_count(""), 0);
    EXPECT_EQ(degenerate_count("the cpu variant failed: Input buffer b0 is accessed at 63"), kTrialFailed);
}

namespace {

// gemv: y(j) = sum_i A(i, j) x(i); x.dim(0) is constrained to A's extent in dimension 0 (a constraint
// that ties one input to another, not to the output).
int tied(void **a) {
    halide_buffer_t *A = buf(a, 0), *x = buf(a, 1);
    const halide_buffer_t *y = buf(a, 2);
    if (querying(a, 0)) {
        A->dim[0] = {0, std::max(1, A->dim[0].extent), 1, 0};
        A->dim[1] = {y->dim[0].min, y->dim[0].extent, A->dim[0].extent, 0};
    }
    if (querying(a, 1)) x->dim[0] = {0, A->dim[0].extent, 1, 0};
    return 0;
}

// fft's real input: re/im interleaved (dim(2).set_stride(1)) with a single plane.
int one_plane(void **a) {
    if (querying(a, 0)) {
        const halide_buffer_t *o = buf(a, 1);
        halide_buffer_t *in = buf(a, 0);
        in->dim[0] = {0, o->dim[0].extent, 1, 0};
        in->dim[1] = {0, o->dim[1].extent, o->dim[0].extent, 0};
        in->dim[2] = {0, 1, 1, 0};
    }
    return 0;
}

}  // namespace

TEST(Derivation, InputsTiedByAConstraintStayConsistent) {
    Fake f("fake__cpu", tied, 2);
    f.args = {{"A", halide_argument_kind_input_buffer, 2, kF32, nullptr, nullptr, nullptr, nullptr, nullptr},
              {"x", halide_argument_kind_input_buffer, 1, kF32, nullptr, nullptr, nullptr, nullptr, nullptr},
              {"y", halide_argument_kind_output_buffer, 1, kF32, nullptr, nullptr, nullptr, nullptr, nullptr}};
    f.md.num_arguments = 3;
    f.md.arguments = f.args.data();
    const PipelineSpec s = derive({&f.v});
    const CaseSpec &c = s.cases.at(0);
    ASSERT_TRUE(c.error.empty()) << c.error;
    EXPECT_EQ(c.inputs.at(0).shape.at(0), c.inputs.at(1).shape.at(0));  // x.extent.0 == A.extent.0
}

TEST(Derivation, AStrideOneConstraintOnAPlaneOfExtentOneIsAStorageOrder) {
    Fake f("fake__cpu", one_plane, 3);
    const PipelineSpec s = derive({&f.v});
    EXPECT_EQ(s.cases.at(0).inputs.at(0).storage_order, (std::vector<int>{2, 0, 1}));
}

// `run` checks every pipeline's golden provenance (stale_generator_provenance): reading the built
// generator's sha256 must not derive the spec, which would run every variant's bounds query (about
// 0.5 s of CPU per pipeline in an outside project's ctest, one `run` per test). A derived spec is
// cached, so had it been derived here, spec() would still know the pipeline once its source is gone.
TEST(Derivation, GeneratorShaNeedsNoDerivation) {
    const std::string name = "sha_without_derivation";
    derived_spec_sources().push_back({name, "", "", "0123abcd"});
    EXPECT_EQ(Registry::instance().generator_sha256(name), "0123abcd");
    derived_spec_sources().pop_back();
    EXPECT_THROW(Registry::instance().spec(name), Error);
    EXPECT_THROW(Registry::instance().generator_sha256(name), Error);
}
