// Derived cases of generators that fix bounds (metadata_spec.h, shape_query.h, query_fixes.h), against fake
// variants: an output min the generator fixes below 0 is taken, told apart from a schedule that starts
// before the min; an input whose bounds the generator fixes narrower than the proposed output bounds it.
#include <gtest/gtest.h>

#include <string>

#include "derivation_fakes.h"

using namespace harness;
using namespace harness::test_fakes;

namespace {

// out.dim(1).set_bounds(-4, 32): a query returns those bounds whatever region it is asked for.
int pinned_negative_min(void **a) {
    if (querying(a, 1)) buf(a, 1)->dim[1] = {-4, 32, buf(a, 1)->dim[0].extent, 0};
    return self_bounded(a);
}

// out.vectorize(x, 8) (ShiftInwards): the last vector ends at the max, so an output narrower than 8 is
// computed from before its min.
int shift_inwards(void **a) {
    if (querying(a, 1)) {
        halide_dimension_t &d = buf(a, 1)->dim[0];
        if (d.extent < 8) d.min += d.extent - 8, d.extent = 8;
    }
    return self_bounded(a);
}

// in.dim(0).set_bounds(0, 40), read at (x, y): Halide's query refuses a region past it, as it words it.
int fixed_input(void **a) {
    const halide_buffer_t *o = buf(a, 1);
    const int lo = o->dim[0].min, hi = o->dim[0].min + o->dim[0].extent - 1;
    if (querying(a, 0)) {
        if (lo < 0 || hi > 39) {
            const std::string m =
                "Applying the constraints on Input buffer in to the required region made it smaller in "
                "dimension 0. Required size: " +
                std::to_string(lo) + " to " + std::to_string(hi) + ". Constrained size: 0 to 39.";
            halide_error(nullptr, m.c_str());
            return -7;
        }
        buf(a, 0)->dim[0] = {0, 40, 1, 0};
        buf(a, 0)->dim[1] = {o->dim[1].min, o->dim[1].extent, 40, 0};
    }
    return 0;
}

const int64_t kZero = 0;

}  // namespace

// fz1_003 of genfuzz seed 1: out0.dim(1).set_bounds(-4, 32) gave a case of [0, 32) that every run refused
// ("Output buffer out0 is accessed at -4, which is before the min (0)").
TEST(Derivation, AnOutputMinTheGeneratorFixesBelowZeroIsTaken) {
    Fake f("pinned__cpu", pinned_negative_min, 2);
    const PipelineSpec s = derive({&f.v});
    for (const CaseSpec &c : s.cases) {
        ASSERT_TRUE(c.error.empty()) << c.error;
        EXPECT_EQ(c.outputs.at(0).shape[1], 32) << c.name;
        EXPECT_EQ(c.outputs[0].min, (std::vector<int>{0, -4})) << c.name;
    }
    std::string notes;
    for (const auto &n : s.cases.at(0).notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("output 'out' is 64x32 from (0, -4), not 64x48"), std::string::npos) << notes;
    // A schedule that starts before the min for narrow outputs only moves nothing: the min stays 0.
    const int64_t k5 = 5;
    const int64_t *const est5[] = {&kZero, &k5, &kZero, &k5};
    Fake g("shift_inwards__cpu", shift_inwards, 2, nullptr, est5);
    const PipelineSpec t = derive({&g.v});
    ASSERT_TRUE(t.cases.at(0).error.empty()) << t.cases[0].error;
    EXPECT_EQ(t.cases[0].outputs.at(0).shape, (std::vector<int>{8, 5}));
    EXPECT_TRUE(t.cases[0].outputs[0].min.empty());
}

// 15 of genfuzz seed 1's 200: an input with fixed bounds narrower than the proposed output made "no case
// could be made"; the output shrinks to what the input covers, and the note says why.
TEST(Derivation, AnInputWithFixedBoundsBoundsTheOutput) {
    Fake f("fixed_input__cpu", fixed_input, 2);
    const PipelineSpec s = derive({&f.v});
    const CaseSpec &c = s.cases.at(0);
    ASSERT_TRUE(c.error.empty()) << c.error;
    EXPECT_EQ(c.outputs.at(0).shape, (std::vector<int>{40, 48}));
    EXPECT_EQ(c.inputs.at(0).shape, (std::vector<int>{40, 48}));
    std::string notes;
    for (const auto &n : c.notes)
        notes += n + "\n";
    EXPECT_NE(notes.find("output 'out' extent 40 in dimension 0, not 64: the pipeline reads in, an input whose "
                         "bounds the generator fixes, up to 39"),
              std::string::npos)
        << notes;
}
