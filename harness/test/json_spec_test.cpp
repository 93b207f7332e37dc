// JSON specs (json_spec.h) and specs from generator metadata (metadata_spec.h): every bad spec is one
// line "<file>: <key>: <problem>; <fix>", and the derived cases follow the stated rules.
#include "spec/json_spec.h"

#include <gtest/gtest.h>

#include <cstring>

#include "error_of.h"
#include "values/default_tolerance.h"
#include "harness/metadata_spec.h"

namespace harness {
namespace {

std::string bad(const std::string &text) {
    return error_of([&] { parse_json_spec(text, "p/spec.json"); });
}

TEST(JsonSpec, BadSpecsAreOneLineNamingFileKeyAndFix) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{\"cases\": [", "p/spec.json: not valid JSON ("},
        {"{\"tolerence\": {}}", "p/spec.json: tolerence: unknown key; use one of: format, summary, tolerance,"},
        {R"({"tolerance": {"kind": "exact"}})", "p/spec.json: tolerance.reason: missing; say why"},
        {R"({"tolerance": {"kind": "close", "reason": "r"}})",
         "p/spec.json: tolerance.kind: 'close' is not a tolerance kind; use exact, absolute, abs_rel, ulp or psnr"},
        {R"({"tolerance": {"kind": "abs_rel", "atol": 1, "reason": "r"}})",
         "p/spec.json: tolerance.rtol: missing for kind abs_rel; add \"rtol\": <number>"},
        {R"({"tolerance": {"kind": "exact", "atol": 1, "reason": "r"}})",
         "p/spec.json: tolerance.atol: does not apply to kind exact"},
        {R"({"tolerance": {"kind": "absolute", "atol": -1, "reason": "r"}})",
         "p/spec.json: tolerance.atol: is negative or not finite"},
        {R"({"inputs": {"in": {"range": [5, 1]}}})",
         "p/spec.json: inputs.in.range: is [5,1], not [lo, hi] with lo <= hi; write e.g. [0, 255]"},
        {R"({"inputs": {"in": {"fill": "noise"}}})",
         "p/spec.json: inputs.in.fill: 'noise' is not a fill; use uniform, gradient, checkerboard, constant"},
        {R"({"inputs": {"in": {"fill": "gradient", "seed": 3}}})",
         "p/spec.json: inputs.in.seed: given for a gradient fill; remove it"},
        {R"({"inputs": {"in": {"fill": "constant"}}})",
         "p/spec.json: inputs.in.value: missing for a constant fill; add \"value\": 0"},
        {R"({"inputs": {"in": {"image": "cat.png"}}})",
         "p/spec.json: inputs.in.sha256: missing; add the image's sha256 (sha256sum golden/inputs/cat.png)"},
        {R"({"inputs": {"in": {"image": "../x.png", "sha256": "00"}}})",
         "p/spec.json: inputs.in.image: '../x.png' is not a file name under <golden dir>/inputs/"},
        {R"({"scalars": {"gain": "high"}})", "p/spec.json: scalars.gain: is \"high\", not a number; write a number"},
        {R"({"cases": []})", "p/spec.json: cases: is not a non-empty list"},
        {R"({"cases": [{"size": [4, 4]}]})", "p/spec.json: cases[0].name: missing; give the case a name"},
        {R"({"cases": [{"name": "Big One"}]})",
         "p/spec.json: cases[0].name: 'Big One' has characters other than a-z 0-9 _ -"},
        {R"({"cases": [{"name": "a"}, {"name": "a"}]})",
         "p/spec.json: cases[1].name: 'a' appears twice; give each case its own name"},
        {R"({"cases": [{"name": "a", "size": [0, 4]}]})",
         "p/spec.json: cases[0].size[0]: is 0, not an integer from 1 to 1048576"},
        {R"({"cases": [{"name": "a", "size": [4, 4], "output_shape": [4, 4]}]})",
         "p/spec.json: cases[0].size: given with output_shape; keep one of the two"},
        {R"({"required_extensions": ["fp16"]})",
         "p/spec.json: required_extensions[0]: 'fp16' is not an OpenCL extension name"},
        {R"({"cuda_max_registers": 300})", "p/spec.json: cuda_max_registers: is 300, not an integer from 0 to 255"},
        {R"({"xfail": [{"profile": "opencl"}]})",
         "p/spec.json: xfail[0].reason: missing; say why this failure is expected"},
        {R"({"xfail": [{"pipeline": "x", "reason": "r"}]})",
         "p/spec.json: xfail[0].pipeline: unknown key; use one of: profile, case,"},
        // 300,000 levels crashed the spec parser (recursive copy); now refused before parsing
        {"{\"scalars\": {\"k\": " + std::string(300000, '[') + std::string(300000, ']') + "}}",
         "p/spec.json: line 1, column 81: arrays and objects nested deeper than 64 levels; fix the syntax"},
    };
    for (const auto &[text, want] : cases) {
        const std::string got = bad(text);
        EXPECT_EQ(got.rfind(want, 0), 0u) << text << "\n  got:  " << got << "\n  want: " << want;
        EXPECT_EQ(got.find('\n'), std::string::npos) << got;
    }
}

TEST(JsonSpec, GoodSpecParses) {
    const JsonSpec s =
        parse_json_spec(R"({"summary": "s", "required_extensions": ["cl_khr_fp16"], "cuda_max_registers": 255,
        "tolerance": {"kind": "abs_rel", "atol": 0.001, "rtol": 0.01, "max_fraction": 0.01, "reason": "why"},
        "inputs": {"in": {"fill": "uniform", "range": [-1, 1], "seed": 9}}, "scalars": {"gain": 2, "on": true},
        "cases": [{"name": "small", "size": [64, 48], "inputs": {"in": {"fill": "checkerboard", "cell": 4}}},
                  {"name": "big", "output_shape": [100, 50, 3], "nightly": true}],
        "xfail": [{"profile": "opencl", "outcomes": ["FAIL"], "reason": "driver bug"}]})",
                        "s.json");
    ASSERT_TRUE(s.tolerance.has_value());
    EXPECT_EQ(s.tolerance->kind, Tolerance::Kind::MismatchFraction);
    EXPECT_EQ(s.tolerance_reason, "why");
    EXPECT_EQ(s.cuda_max_registers, 255);
    EXPECT_EQ(s.inputs.at("in").recipe.seed, 9u);
    EXPECT_TRUE(s.inputs.at("in").has_seed);
    EXPECT_EQ(s.scalars.at("on"), 1);
    ASSERT_EQ(s.cases.size(), 2u);
    EXPECT_EQ(s.cases[0].inputs.at("in").recipe.kind, Recipe::Kind::Checkerboard);
    EXPECT_EQ(s.cases[0].inputs.at("in").recipe.cell, 4);
    EXPECT_EQ(s.cases[1].output_shape, (std::vector<int>{100, 50, 3}));
    EXPECT_TRUE(s.cases[1].nightly);
    EXPECT_EQ(s.xfail.size(), 1u);
}

// A fake compiled pipeline: out(x, y) from in(x, y) (f32) and a u8 scalar with a default; its
// bounds query asks for an input of the output's size plus 2 in x (a 3-tap stencil without a
// boundary condition).
const int64_t kOne = 0, kEstW = 1000, kEstH = 800;
const int64_t *kEst[] = {&kOne, &kEstW, &kOne, &kEstH};
halide_scalar_value_t def_value() {
    halide_scalar_value_t v;
    std::memset(static_cast<void *>(&v), 0, sizeof v);
    v.u.u8 = 7;
    return v;
}
halide_scalar_value_t kDef = def_value();
const halide_filter_argument_t kArgs[] = {
    {"in", halide_argument_kind_input_buffer, 2, {halide_type_float, 32, 1}, nullptr, nullptr, nullptr, nullptr, kEst},
    {"k", halide_argument_kind_input_scalar, 0, {halide_type_uint, 8, 1}, &kDef, nullptr, nullptr, nullptr, nullptr},
    {"out",
     halide_argument_kind_output_buffer,
     2,
     {halide_type_float, 32, 1},
     nullptr,
     nullptr,
     nullptr,
     nullptr,
     kEst},
};
const halide_filter_metadata_t kMeta{halide_filter_metadata_t::VERSION, 3, kArgs, "x86-64-linux", "fake__cpu"};
int fake_argv(void **args) {
    auto *in = static_cast<halide_buffer_t *>(args[0]);
    const auto *out = static_cast<const halide_buffer_t *>(args[2]);
    if (in->host == nullptr) {
        in->dim[0] = {0, out->dim[0].extent + 2, 1, 0};
        in->dim[1] = {0, out->dim[1].extent, out->dim[0].extent + 2, 0};
    }
    return 0;
}

DerivationInput input_of(const Variant &v) {
    DerivationInput in;
    in.cpu = &v;
    in.variants = {&v};
    return in;
}

Variant fake_variant() {
    Variant v;
    v.pipeline = "fake";
    v.profile = "cpu";
    v.function_name = "fake__cpu";
    v.argv_call = fake_argv;
    v.metadata = &kMeta;
    return v;
}

TEST(MetadataSpec, CasesFromEstimatesBoundsQueryAndDefaults) {
    const Variant v = fake_variant();
    const PipelineSpec s = derive_spec({"fake", "", "", "abc"}, input_of(v));
    ASSERT_EQ(s.cases.size(), 3u);
    EXPECT_EQ(s.cases[0].name, "small");
    // 1000 x 800 estimated: both shrink by one factor to about 64 x 48 elements.
    EXPECT_EQ(s.cases[0].outputs.at(0).shape, (std::vector<int>{62, 50}));
    EXPECT_EQ(s.cases[0].inputs.at(0).shape, (std::vector<int>{64, 50}));  // from the bounds query
    EXPECT_EQ(s.cases[1].name, "odd");
    EXPECT_EQ(s.cases[1].outputs.at(0).shape, (std::vector<int>{65, 53}));
    EXPECT_EQ(s.cases[2].name, "estimate");
    EXPECT_EQ(s.cases[2].outputs.at(0).shape, (std::vector<int>{1000, 800}));
    EXPECT_FALSE(s.cases[2].nightly);          // 800k elements: not above 2^21
    EXPECT_EQ(s.cases[0].scalars.at("k"), 7);  // the default
    EXPECT_EQ(s.cases[0].inputs.at(0).recipe.kind, Recipe::Kind::UniformFloat);
    EXPECT_EQ(s.cases[0].inputs.at(0).recipe.seed, 1u);
    EXPECT_EQ(s.tolerance_for("out").name(), default_tolerance({halide_type_float, 32, 1}).name());
    EXPECT_FALSE(s.reference);
    EXPECT_EQ(s.generator_sha256, "abc");
}

TEST(MetadataSpec, JsonSpecOverridesAndContradictions) {
    const Variant v = fake_variant();
    const PipelineSpec s = derive_spec({"fake", R"({"cases": [{"name": "tiny", "size": [8, 4], "scalars": {"k": 3},
        "inputs": {"in": {"fill": "constant", "value": 2}}}], "tolerance": {"kind": "exact", "reason": "r"}})",
                                        "f.json", ""},
                                       input_of(v));
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases[0].inputs.at(0).shape, (std::vector<int>{10, 4}));
    EXPECT_EQ(s.cases[0].inputs.at(0).recipe.kind, Recipe::Kind::Constant);
    EXPECT_EQ(s.cases[0].scalars.at("k"), 3);
    EXPECT_EQ(s.tolerance_for("out").name(), "Exact");
    EXPECT_EQ(error_of([&] {
                  derive_spec({"fake", R"({"inputs": {"input": {"fill": "gradient"}}})", "f.json", ""}, input_of(v));
              }),
              "f.json: inputs.input: the generator has no input buffer 'input'; use one of its inputs: in");
    EXPECT_EQ(
        error_of([&] {
            derive_spec({"fake", R"({"cases": [{"name": "a", "scalars": {"gain": 1}}]})", "f.json", ""}, input_of(v));
        }),
        "f.json: cases[0].scalars.gain: the generator has no scalar input 'gain'; use one of its scalars: k");
    EXPECT_EQ(
        error_of([&] {
            derive_spec({"fake", R"({"cases": [{"name": "a", "output_shape": [4]}]})", "f.json", ""}, input_of(v));
        }),
        "f.json: cases[0].output_shape: has 1 extents, output 'out' has 2 dimensions; give one extent per dimension");
}

TEST(DefaultTolerance, ExactForIntegersBoundedForFloats) {
    EXPECT_EQ(default_tolerance({halide_type_uint, 8, 1}).name(), "Exact");
    EXPECT_EQ(default_tolerance({halide_type_int, 32, 1}).name(), "Exact");
    EXPECT_EQ(default_tolerance({halide_type_float, 32, 1}).kind, Tolerance::Kind::AbsRel);
    EXPECT_EQ(default_tolerance({halide_type_float, 32, 1}).rtol, 1e-4);
    EXPECT_EQ(default_tolerance({halide_type_float, 16, 1}).rtol, 1e-2);
    CompareResult r;
    r.max_abs_error = 0.5;
    r.max_rel_error = 0.25;
    r.max_ulp_error = 12;
    EXPECT_EQ(measured_error(r, {halide_type_float, 32, 1}), "max abs error 0.5, max rel error 0.25, max ULP 12");
    EXPECT_EQ(measured_error(r, {halide_type_uint, 8, 1}), "max abs error 0.5");
}

}  // namespace
}  // namespace harness
