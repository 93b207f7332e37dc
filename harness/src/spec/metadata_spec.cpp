#include "harness/metadata_spec.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "values/default_tolerance.h"
#include "base/error.h"
#include "spec/json_spec.h"
#include "devices/runtime_hooks.h"
#include "spec/xfail.h"

namespace harness {

std::vector<DerivedSpecSource> &derived_spec_sources() {
    static std::vector<DerivedSpecSource> sources;
    return sources;
}

DerivedSpecRegistrar::DerivedSpecRegistrar(const char *pipeline, const char *json_text, const char *json_path,
                                           const char *generator_sha256) {
    derived_spec_sources().push_back({pipeline, json_text, json_path, generator_sha256});
}

Recipe default_recipe(halide_type_t t, uint64_t seed) {
    Recipe r;
    r.seed = seed;
    if (t.code == halide_type_float || t.code == halide_type_bfloat) {
        r.kind = Recipe::Kind::UniformFloat;
        r.lo = 0, r.hi = 1;
    } else if (t.bits == 1) {
        r.lo = 0, r.hi = 1;
    } else if (t.bits == 8) {
        r.lo = t.code == halide_type_int ? -128 : 0;
        r.hi = t.code == halide_type_int ? 127 : 255;
    } else if (t.bits == 16) {
        r.lo = 0, r.hi = 4095;
    } else {
        r.lo = 0, r.hi = 1000;
    }
    return r;
}

namespace {

using Shapes = std::map<std::string, std::vector<int>>;

double scalar_as_double(const halide_scalar_value_t *v, halide_type_t t) {
    switch (t.code) {
    case halide_type_float:
        return t.bits == 64 ? v->u.f64 : v->u.f32;
    case halide_type_int:
        return t.bits == 8  ? v->u.i8 :
               t.bits == 16 ? v->u.i16 :
               t.bits == 32 ? v->u.i32 :
                              static_cast<double>(v->u.i64);
    case halide_type_uint:
        return t.bits == 1  ? v->u.b :
               t.bits == 8  ? v->u.u8 :
               t.bits == 16 ? v->u.u16 :
               t.bits == 32 ? v->u.u32 :
                              static_cast<double>(v->u.u64);
    default:
        return 0;
    }
}

halide_scalar_value_t scalar_from_double(double d, halide_type_t t) {
    halide_scalar_value_t v;
    std::memset(static_cast<void *>(&v), 0, sizeof v);
    if (t.code == halide_type_float) {
        if (t.bits == 64)
            v.u.f64 = d;
        else
            v.u.f32 = static_cast<float>(d);
    } else if (t.code == halide_type_int) {
        if (t.bits == 8)
            v.u.i8 = static_cast<int8_t>(d);
        else if (t.bits == 16)
            v.u.i16 = static_cast<int16_t>(d);
        else if (t.bits == 32)
            v.u.i32 = static_cast<int32_t>(d);
        else
            v.u.i64 = static_cast<int64_t>(d);
    } else if (t.bits == 1) {
        v.u.b = d != 0;
    } else if (t.bits == 8) {
        v.u.u8 = static_cast<uint8_t>(d);
    } else if (t.bits == 16) {
        v.u.u16 = static_cast<uint16_t>(d);
    } else if (t.bits == 32) {
        v.u.u32 = static_cast<uint32_t>(d);
    } else {
        v.u.u64 = static_cast<uint64_t>(d);
    }
    return v;
}

// Estimate, default, middle of min..max, else 0.
double metadata_scalar(const halide_filter_argument_t &a) {
    if (a.scalar_estimate) return scalar_as_double(a.scalar_estimate, a.type);
    if (a.scalar_def) return scalar_as_double(a.scalar_def, a.type);
    if (a.scalar_min && a.scalar_max) {
        const double mid = (scalar_as_double(a.scalar_min, a.type) + scalar_as_double(a.scalar_max, a.type)) / 2;
        return a.type.code == halide_type_float ? mid : static_cast<double>(static_cast<int64_t>(mid));
    }
    return 0;
}

// The estimated extents of every dimension, or empty if any is missing.
std::vector<int> estimates(const halide_filter_argument_t &a) {
    std::vector<int> out;
    if (!a.buffer_estimates) return a.dimensions == 0 ? out : std::vector<int>{-1};
    for (int d = 0; d < a.dimensions; d++) {
        const int64_t *extent = a.buffer_estimates[d * 2 + 1];
        if (!extent || *extent <= 0) return {-1};
        out.push_back(static_cast<int>(*extent));
    }
    return out;
}

// Output shape for a case with dims 0 and 1 capped at (w, h) (or set to `size` when given).
std::vector<int> capped_shape(const halide_filter_argument_t &a, int w, int h, bool exact) {
    const std::vector<int> est = estimates(a);
    const bool have = est.empty() || est[0] != -1;
    std::vector<int> shape;
    for (int d = 0; d < a.dimensions; d++) {
        const int e = have ? est[d] : -1;
        if (d < 2) {
            const int cap = d == 0 ? w : h;
            shape.push_back(exact || e < 0 ? cap : std::min(e, cap));
        } else {
            shape.push_back(e > 0 ? e : (d == 2 ? 3 : 2));
        }
    }
    return shape;
}

// A bounds query of the cpu variant: given the outputs' shapes, the shapes of the inputs. Returns ""
// or why it failed.
std::string bounds_query(const Variant &cpu, const std::map<std::string, double> &scalars, const Shapes &outputs,
                         Shapes *inputs) {
    const halide_filter_metadata_t *md = cpu.metadata;
    const size_t n = static_cast<size_t>(md->num_arguments);
    std::vector<halide_buffer_t> bufs(n);
    std::vector<std::vector<halide_dimension_t>> dims(n);
    std::vector<halide_scalar_value_t> values(n);
    std::vector<void *> args(n, nullptr);
    for (size_t i = 0; i < n; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            values[i] = scalar_from_double(scalars.at(a.name), a.type);
            args[i] = &values[i];
            continue;
        }
        dims[i].assign(std::max(a.dimensions, 1), halide_dimension_t{0, 0, 0, 0});
        if (a.kind == halide_argument_kind_output_buffer) {
            const std::vector<int> &shape = outputs.at(a.name);
            int stride = 1;
            for (int d = 0; d < a.dimensions; d++) {
                dims[i][d] = halide_dimension_t{0, shape[d], stride, 0};
                stride *= shape[d];
            }
        }
        std::memset(static_cast<void *>(&bufs[i]), 0, sizeof(halide_buffer_t));
        bufs[i].type = a.type;
        bufs[i].dimensions = a.dimensions;
        bufs[i].dim = dims[i].data();
        args[i] = &bufs[i];
    }
    install_halide_error_handler();
    take_halide_error();
    const int err = cpu.argv_call(args.data());
    if (err != 0) {
        std::string msg = take_halide_error();
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
            msg.pop_back();
        return "bounds query failed (" + (msg.empty() ? "Halide error " + std::to_string(err) : msg) + ")";
    }
    // An input read through a boundary condition on its own bounds (BoundaryConditions::repeat_edge
    // (input), as most generators do) fits any size: the query leaves its extent at 0. It then gets
    // the first output's extent of that dimension, else its estimate, else 3 (dim 2) or 2.
    const std::vector<int> *first_out = nullptr;
    for (size_t i = 0; i < n && !first_out; i++) {
        if (md->arguments[i].kind == halide_argument_kind_output_buffer) first_out = &outputs.at(md->arguments[i].name);
    }
    for (size_t i = 0; i < n; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind != halide_argument_kind_input_buffer) continue;
        std::vector<int> shape;
        const std::vector<int> est = estimates(a);
        for (int d = 0; d < a.dimensions; d++) {
            if (bufs[i].dim[d].extent <= 0) {
                int e = d == 2 ? 3 : 2;
                if (first_out && d < static_cast<int>(first_out->size()))
                    e = (*first_out)[d];
                else if (!est.empty() && est[0] != -1)
                    e = est[d];
                shape.push_back(e);
                continue;
            }
            if (bufs[i].dim[d].min != 0) {
                return "input '" + std::string(a.name) + "' would need dimension " + std::to_string(d) + " from " +
                       std::to_string(bufs[i].dim[d].min) +
                       " at this output size (the harness's inputs start at 0: "
                       "a read without a boundary condition, or a split wider than the output shifting inwards); "
                       "state other sizes in a JSON spec";
            }
            shape.push_back(std::max(1, bufs[i].dim[d].extent));
        }
        (*inputs)[a.name] = shape;
    }
    return "";
}

struct Names {
    std::vector<std::string> inputs, outputs, scalars;
    static std::string list(const std::vector<std::string> &v) {
        std::string s;
        for (const auto &x : v)
            s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? "(none)" : s;
    }
};

void check_names(const JsonSpec &js, const std::map<std::string, JsonRecipe> &inputs,
                 const std::map<std::string, double> &scalars, const std::string &key, const Names &names) {
    for (const auto &[n, r] : inputs) {
        if (std::find(names.inputs.begin(), names.inputs.end(), n) == names.inputs.end()) {
            json_spec_error(js.path, key + "inputs." + n, "the generator has no input buffer '" + n + "'",
                            "use one of its inputs: " + Names::list(names.inputs));
        }
    }
    for (const auto &[n, v] : scalars) {
        if (std::find(names.scalars.begin(), names.scalars.end(), n) == names.scalars.end()) {
            json_spec_error(js.path, key + "scalars." + n, "the generator has no scalar input '" + n + "'",
                            "use one of its scalars: " + Names::list(names.scalars));
        }
    }
}

// One case: output shapes given, inputs from the bounds query, recipes and scalars by precedence.
std::string make_case(const Variant &cpu, const std::string &name, bool nightly, const Shapes &outputs,
                      const JsonSpec *js, const JsonCase *jc, CaseSpec *out) {
    const halide_filter_metadata_t *md = cpu.metadata;
    CaseSpec c;
    c.name = name;
    c.nightly = nightly;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind != halide_argument_kind_input_scalar) continue;
        double v = metadata_scalar(a);
        if (js && js->scalars.count(a.name)) v = js->scalars.at(a.name);
        if (jc && jc->scalars.count(a.name)) v = jc->scalars.at(a.name);
        c.scalars[a.name] = v;
    }
    Shapes input_shapes;
    const std::string why = bounds_query(cpu, c.scalars, outputs, &input_shapes);
    if (!why.empty()) return why;
    uint64_t seed = 1;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) continue;
        BufferSpec b;
        b.name = a.name;
        b.type = a.type;
        if (a.kind == halide_argument_kind_output_buffer) {
            b.shape = outputs.at(a.name);
            c.outputs.push_back(b);
            continue;
        }
        b.shape = input_shapes.at(a.name);
        b.recipe = default_recipe(a.type, seed++);
        for (const auto *over : {js ? &js->inputs : nullptr, jc ? &jc->inputs : nullptr}) {
            if (!over || !over->count(a.name)) continue;
            const JsonRecipe &jr = over->at(a.name);
            const Recipe dflt = b.recipe;
            b.recipe = jr.recipe;
            const bool is_float = a.type.code == halide_type_float || a.type.code == halide_type_bfloat;
            if (b.recipe.kind == Recipe::Kind::UniformInt && is_float) b.recipe.kind = Recipe::Kind::UniformFloat;
            if (!jr.has_range && b.recipe.kind != Recipe::Kind::Image) b.recipe.lo = dflt.lo, b.recipe.hi = dflt.hi;
            if (!jr.has_seed) b.recipe.seed = dflt.seed;
        }
        c.inputs.push_back(b);
    }
    *out = std::move(c);
    return "";
}

size_t elements(const Shapes &s) {
    size_t n = 0;
    for (const auto &[k, v] : s) {
        size_t e = 1;
        for (int x : v)
            e *= static_cast<size_t>(x);
        n += e;
    }
    return n;
}

}  // namespace

PipelineSpec derive_spec(const DerivedSpecSource &src, const Variant *cpu) {
    PipelineSpec spec;
    spec.name = src.pipeline;
    spec.generator_sha256 = src.generator_sha256;
    JsonSpec js;
    const bool has_json = !src.json_text.empty();
    if (has_json) js = parse_json_spec(src.json_text, src.json_path);
    spec.summary = has_json && !js.summary.empty() ? js.summary :
                   has_json                        ? "JSON spec " + src.json_path :
                                                     "cases from the generator's metadata (no spec)";
    spec.spec_source = has_json ? src.json_path : "generator metadata";
    spec.required_extensions = js.required_extensions;
    spec.xfail = js.xfail;
    if (!js.xfail.empty()) {
        nlohmann::json doc{{"format", 1}, {"xfail", js.xfail}};
        for (auto &e : doc["xfail"])
            e["pipeline"] = spec.name;
        for (const auto &e : XfailList::parse(doc.dump(), src.json_path + " (xfail)").entries()) {
            XfailList::stated_by_specs().push_back(e);
        }
    }
    if (!cpu || !cpu->compile_error.empty()) {
        // Nothing to derive: every run reports the build's error (or the missing cpu variant).
        spec.cases.push_back(CaseSpec{"default", false, {}, {}, {}});
        return spec;
    }
    const halide_filter_metadata_t *md = cpu->metadata;
    Names names;
    std::vector<const halide_filter_argument_t *> outs;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar)
            names.scalars.push_back(a.name);
        else if (a.kind == halide_argument_kind_input_buffer)
            names.inputs.push_back(a.name);
        else
            names.outputs.push_back(a.name), outs.push_back(&a);
    }
    if (has_json) {
        check_names(js, js.inputs, js.scalars, "", names);
        for (size_t i = 0; i < js.cases.size(); i++) {
            check_names(js, js.cases[i].inputs, js.cases[i].scalars, "cases[" + std::to_string(i) + "].", names);
        }
    }
    // Tolerance: the JSON spec's for every output, else the default of each output's type.
    for (const auto *a : outs) {
        std::string reason;
        const Tolerance t = js.tolerance ? *js.tolerance : default_tolerance(a->type, &reason);
        if (js.tolerance) reason = js.tolerance_reason;
        if (spec.output_tolerances.empty()) spec.tolerance = t, spec.tolerance_reason = reason;
        spec.output_tolerances[a->name] = t;
    }
    std::vector<std::string> dropped;
    auto add = [&](const std::string &name, bool nightly, const Shapes &shapes, const JsonCase *jc) {
        for (const auto &c : spec.cases) {
            bool same = true;
            for (const auto &o : c.outputs)
                same &= shapes.at(o.name) == o.shape;
            if (same && !jc) return;  // identical to an earlier derived case
        }
        CaseSpec c;
        const std::string why = make_case(*cpu, name, nightly, shapes, has_json ? &js : nullptr, jc, &c);
        if (!why.empty()) {
            if (jc) json_spec_error(src.json_path, "cases." + name, why, "change the case's size or the generator");
            dropped.push_back(name + ": " + why);
            return;
        }
        spec.cases.push_back(std::move(c));
    };
    if (has_json && !js.cases.empty()) {
        for (size_t i = 0; i < js.cases.size(); i++) {
            const JsonCase &jc = js.cases[i];
            Shapes shapes;
            for (const auto *a : outs) {
                if (!jc.output_shape.empty()) {
                    if (static_cast<int>(jc.output_shape.size()) != a->dimensions) {
                        json_spec_error(src.json_path, "cases[" + std::to_string(i) + "].output_shape",
                                        "has " + std::to_string(jc.output_shape.size()) + " extents, output '" +
                                            a->name + "' has " + std::to_string(a->dimensions) + " dimensions",
                                        "give one extent per dimension");
                    }
                    shapes[a->name] = jc.output_shape;
                } else if (!jc.size.empty()) {
                    shapes[a->name] = capped_shape(*a, jc.size[0], jc.size.size() > 1 ? jc.size[1] : 1, true);
                } else {
                    shapes[a->name] = capped_shape(*a, 64, 48, false);
                }
            }
            add(jc.name, jc.nightly, shapes, &jc);
        }
    } else {
        Shapes small, odd, est;
        bool have_estimates = !outs.empty();
        for (const auto *a : outs) {
            small[a->name] = capped_shape(*a, 64, 48, false);
            odd[a->name] = capped_shape(*a, 67, 37, false);
            est[a->name] = estimates(*a);
            have_estimates &= est[a->name].empty() || est[a->name][0] != -1;
        }
        add("small", false, small, nullptr);
        add("odd", false, odd, nullptr);
        if (have_estimates) add("estimate", elements(est) > (size_t(1) << 21), est, nullptr);
    }
    if (spec.cases.empty()) {
        std::string all;
        for (const auto &d : dropped)
            all += (all.empty() ? "" : "; ") + d;
        throw Error("pipeline " + spec.name + ": no case could be made from the generator's metadata (" + all +
                    "); state cases with sizes in a JSON spec (SPEC <file>.json)");
    }
    for (const auto &d : dropped)
        spec.summary += "; dropped case " + d;
    return spec;
}

}  // namespace harness
