// Specs from a compiled generator's metadata, with or without a JSON spec (metadata_spec.h): the
// cases proposed by metadata_cases.h, settled by every variant's bounds query (shape_query.h).
#include "harness/metadata_spec.h"

#include <algorithm>

#include "base/error.h"
#include "base/number_text.h"
#include "spec/json_spec.h"
#include "spec/metadata_cases.h"
#include "spec/derive_trials.h"
#include "spec/xfail.h"
#include "values/default_tolerance.h"
#include "values/scalar_value.h"

namespace harness {

namespace {

constexpr size_t kNightlyElements = size_t(1) << 21;
constexpr size_t kMaxCaseBytes = size_t(1) << 30;

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

const halide_filter_argument_t *probe_arg(const Variant *probe, const char *name) {
    if (!probe || !probe->compile_error.empty() || !probe->metadata) return nullptr;
    for (int i = 0; i < probe->metadata->num_arguments; i++) {
        if (std::string(probe->metadata->arguments[i].name) == name) return &probe->metadata->arguments[i];
    }
    return nullptr;
}

// What one case is made of before the bounds queries: the outputs' shapes, the inputs' proposals.
struct Proposal {
    std::string name;
    bool nightly = false;
    ShapeMap outputs, inputs;
    const JsonCase *json = nullptr;
};

class Deriver {
public:
    Deriver(const DerivedSpecSource &src, const DerivationInput &in, const JsonSpec *js)
        : src_(src), in_(in), js_(js), md_(in.cpu->metadata) {}

    // Every argument's estimates (plain variant, else the probe) and the proposals for `kinds`.
    std::vector<Proposal> proposals() const {
        std::vector<Proposal> out;
        if (js_ && !js_->cases.empty()) {
            for (size_t i = 0; i < js_->cases.size(); i++)
                out.push_back(json_proposal(js_->cases[i], i));
            return out;
        }
        for (CaseKind k : {CaseKind::Small, CaseKind::Odd, CaseKind::Estimate}) {
            Proposal p;
            p.name = k == CaseKind::Small ? "small" : k == CaseKind::Odd ? "odd" : "estimate";
            if (!propose(k, &p)) continue;
            out.push_back(p);
        }
        return out;
    }

    // The case settled for every variant, or a case whose `error` says why it could not be.
    CaseSpec settle(const Proposal &p, const std::map<std::string, double> &scalars) const {
        CaseSpec c;
        c.name = p.name;
        c.nightly = p.nightly;
        c.scalars = scalars;
        if (p.json) {
            for (const auto &[k, v] : p.json->scalars)
                c.scalars[k] = v;
        }
        const SettledShapes s = settle_shapes(in_.variants, c.scalars, p.outputs, p.inputs);
        if (!s.error.empty()) {
            c.error = s.error;
            return c;
        }
        c.notes = s.notes;
        uint64_t seed = 1;
        size_t bytes = 0, out_elements = 0;
        for (int i = 0; i < md_->num_arguments; i++) {
            const halide_filter_argument_t &a = md_->arguments[i];
            if (a.kind == halide_argument_kind_input_scalar) continue;
            const bool is_out = a.kind == halide_argument_kind_output_buffer;
            const ShapeMap &from = is_out ? s.outputs : s.inputs;
            auto it = from.find(a.name);
            if (it == from.end()) {
                c.error = std::string("the bounds query gave no shape for ") + (is_out ? "output" : "input") + " '" +
                          a.name + "'";
                return c;
            }
            BufferSpec b;
            b.name = a.name;
            b.type = a.type;
            b.shape = it->second.extents();
            const std::vector<int> mins = it->second.mins();
            if (std::any_of(mins.begin(), mins.end(), [](int m) { return m != 0; })) b.min = mins;
            b.storage_order = it->second.storage_order;
            size_t n = 1;
            for (int e : b.shape)
                n *= static_cast<size_t>(std::max(e, 0));
            bytes += n * ((a.type.bits + 7) / 8);
            if (is_out) {
                out_elements += n;
                c.outputs.push_back(b);
                continue;
            }
            b.recipe = default_recipe(a.type, seed++);
            apply_json_recipe(p.json, a, &b.recipe);
            c.inputs.push_back(b);
        }
        if (bytes > kMaxCaseBytes) {
            c.error = "the case needs " + std::to_string(bytes >> 20) +
                      " MiB of buffers (over the 1024 MiB a derived case may use); state smaller sizes in a JSON spec";
            c.inputs.clear(), c.outputs.clear();
        }
        if (!p.json && out_elements > kNightlyElements) c.nightly = true;
        return c;
    }

private:
    std::vector<DimRegion> estimates(const halide_filter_argument_t &a) const {
        return buffer_estimates(a, probe_arg(in_.probe, a.name));
    }

    const halide_filter_argument_t *first_output() const {
        for (int i = 0; i < md_->num_arguments; i++) {
            if (md_->arguments[i].kind == halide_argument_kind_output_buffer) return &md_->arguments[i];
        }
        return nullptr;
    }

    bool propose(CaseKind k, Proposal *p) const {
        const halide_filter_argument_t *first = first_output();
        if (!first) return false;
        const double scale = case_scale(estimates(*first), first->dimensions, k);
        for (int i = 0; i < md_->num_arguments; i++) {
            const halide_filter_argument_t &a = md_->arguments[i];
            if (a.kind != halide_argument_kind_output_buffer) continue;
            const std::vector<DimRegion> est = estimates(a);
            if (k == CaseKind::Estimate && !has_all_estimates(est, a.dimensions)) return false;
            p->outputs[a.name] = case_output_shape(est, a.dimensions, k, scale);
        }
        propose_inputs(k, scale, p);
        return true;
    }

    void propose_inputs(CaseKind k, double scale, Proposal *p) const {
        const BufferShape &first = p->outputs.at(first_output()->name);
        for (int i = 0; i < md_->num_arguments; i++) {
            const halide_filter_argument_t &a = md_->arguments[i];
            if (a.kind != halide_argument_kind_input_buffer) continue;
            p->inputs[a.name] = case_input_proposal(estimates(a), a.dimensions, k, scale, first);
        }
    }

    Proposal json_proposal(const JsonCase &jc, size_t index) const {
        Proposal p;
        p.name = jc.name;
        p.nightly = jc.nightly;
        p.json = &jc;
        for (int i = 0; i < md_->num_arguments; i++) {
            const halide_filter_argument_t &a = md_->arguments[i];
            if (a.kind != halide_argument_kind_output_buffer) continue;
            BufferShape s;
            if (!jc.output_shape.empty()) {
                if (static_cast<int>(jc.output_shape.size()) != a.dimensions) {
                    json_spec_error(src_.json_path, "cases[" + std::to_string(index) + "].output_shape",
                                    "has " + std::to_string(jc.output_shape.size()) + " extents, output '" + a.name +
                                        "' has " + std::to_string(a.dimensions) + " dimensions",
                                    "give one extent per dimension");
                }
                for (int e : jc.output_shape)
                    s.dims.push_back({0, e});
            } else {
                const std::vector<DimRegion> est = estimates(a);
                s = case_output_shape(est, a.dimensions, CaseKind::Small,
                                      case_scale(est, a.dimensions, CaseKind::Small));
                for (size_t d = 0; d < jc.size.size() && d < s.dims.size(); d++)
                    s.dims[d].extent = jc.size[d];
            }
            p.outputs[a.name] = s;
        }
        propose_inputs(CaseKind::Small, 1, &p);
        return p;
    }

    void apply_json_recipe(const JsonCase *jc, const halide_filter_argument_t &a, Recipe *r) const {
        for (const auto *over : {js_ ? &js_->inputs : nullptr, jc ? &jc->inputs : nullptr}) {
            if (!over || !over->count(a.name)) continue;
            const JsonRecipe &jr = over->at(a.name);
            const Recipe dflt = *r;
            *r = jr.recipe;
            const bool is_float = a.type.code == halide_type_float || a.type.code == halide_type_bfloat;
            if (r->kind == Recipe::Kind::UniformInt && is_float) r->kind = Recipe::Kind::UniformFloat;
            if (!jr.has_range && r->kind != Recipe::Kind::Image) r->lo = dflt.lo, r->hi = dflt.hi;
            if (!jr.has_seed) r->seed = dflt.seed;
        }
    }

    const DerivedSpecSource &src_;
    const DerivationInput &in_;
    const JsonSpec *js_;
    const halide_filter_metadata_t *md_;
};

std::string case_key(const CaseSpec &c) {
    std::string k;
    for (const auto *list : {&c.inputs, &c.outputs}) {
        for (const auto &b : *list)
            k += b.name + ":" + shape_string(b.shape) + ":" + std::to_string(b.min.size()) + ";";
    }
    return k;
}

}  // namespace

PipelineSpec derive_spec(const DerivedSpecSource &src, const DerivationInput &in) {
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
    spec.cuda_max_registers = js.cuda_max_registers;
    if (!js.xfail.empty()) {
        nlohmann::json doc{{"format", 1}, {"xfail", js.xfail}};
        for (auto &e : doc["xfail"])
            e["pipeline"] = spec.name;
        const XfailList stated = XfailList::parse(doc.dump(), src.json_path + " (xfail)");  // outlives the loop
        for (const auto &e : stated.entries())
            XfailList::stated_by_specs().push_back(e);
    }
    if (!in.cpu || !in.cpu->compile_error.empty()) {
        CaseSpec c;
        c.name = "default";
        c.error = !in.cpu ? "no case: the pipeline has no cpu variant (it makes the goldens); build the cpu profile" :
                            "no case: the cpu variant (it makes the goldens) failed to build: " +
                                compile_error_message(*in.cpu);
        spec.cases.push_back(c);
        return spec;
    }
    const halide_filter_metadata_t *md = in.cpu->metadata;
    // Integer outputs of a pipeline with float inputs get one unit, float64 ones without float64 inputs
    // float32's tolerance (default_tolerance.h).
    bool float_inputs = false, f64_inputs = false;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        const bool input = a.kind != halide_argument_kind_output_buffer;
        float_inputs |= input && (a.type.code == halide_type_float || a.type.code == halide_type_bfloat);
        f64_inputs |= input && a.type.code == halide_type_float && a.type.bits == 64;
    }
    Names names;
    std::map<std::string, double> scalars;
    std::vector<ScalarArg> scalar_args;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            names.scalars.push_back(a.name);
            const ScalarChoice sc = choose_scalar(a, probe_arg(in.probe, a.name));
            scalars[a.name] = sc.value;
            ScalarArg arg;
            arg.name = a.name;
            arg.type = a.type;
            arg.guessed = !sc.alternatives.empty() && !(has_json && js.scalars.count(a.name));
            arg.value = has_json && js.scalars.count(a.name) ? js.scalars.at(a.name) : sc.value;
            if (!(has_json && js.scalars.count(a.name)) && (sc.source == "default" || sc.source == "inside [min, max]"))
                arg.stated = sc.source == "default" ? "default" : "range's middle";
            if (a.scalar_min) arg.min = scalar_as_double(*a.scalar_min, a.type);
            if (a.scalar_max) arg.max = scalar_as_double(*a.scalar_max, a.type);
            scalar_args.push_back(arg);
        } else if (a.kind == halide_argument_kind_input_buffer) {
            names.inputs.push_back(a.name);
        } else {
            names.outputs.push_back(a.name);
            std::string reason;
            const Tolerance t =
                js.tolerance ? *js.tolerance : default_tolerance(a.type, &reason, float_inputs, f64_inputs);
            if (js.tolerance) reason = js.tolerance_reason;
            if (spec.output_tolerances.empty()) spec.tolerance = t, spec.tolerance_reason = reason;
            spec.output_tolerances[a.name] = t;
        }
    }
    if (has_json) {
        check_names(js, js.inputs, js.scalars, "", names);
        for (size_t i = 0; i < js.cases.size(); i++) {
            check_names(js, js.cases[i].inputs, js.cases[i].scalars, "cases[" + std::to_string(i) + "].", names);
        }
        for (const auto &[k, v] : js.scalars)
            scalars[k] = v;
    }
    const Deriver deriver(src, in, has_json ? &js : nullptr);
    // The small case run on the cpu variant (derive_trials.h): outputs a built-in buffer bounds, and the
    // guessed scalars.
    std::vector<Proposal> proposals = deriver.proposals();
    std::string guess_note_text, out_of_time;
    std::vector<std::string> clamp_notes;
    if (!proposals.empty()) {
        const ShapeMap small = proposals.front().outputs;
        const TrialFindings f = run_derivation_trials(
            in, scalar_args, scalars, small, [&](const ShapeMap &outputs, const std::map<std::string, double> &v) {
                Proposal p = proposals.front();
                p.outputs = outputs;
                return deriver.settle(p, v);
            });
        scalars = f.scalars;
        out_of_time = f.out_of_time;
        guess_note_text = f.guess_note;
        clamp_notes = f.clamp_notes;
        for (Proposal &p : proposals) {
            if (p.json) continue;  // a JSON spec's sizes are the user's
            const ShapeMap before = p.outputs;
            p.outputs = clamped_like(p.outputs, small, f.outputs);
            // An input proposed at an output's size (case_input_proposal) follows it.
            for (auto &[name, in] : p.inputs) {
                for (const auto &[out, shape] : p.outputs) {
                    for (size_t d = 0; d < in.dims.size() && d < shape.dims.size(); d++) {
                        if (shape.dims[d] != before.at(out).dims[d] && in.dims[d] == before.at(out).dims[d])
                            in.dims[d] = shape.dims[d];
                    }
                }
            }
        }
    }
    std::vector<std::string> dropped, keys;
    for (const Proposal &p : proposals) {
        CaseSpec c = deriver.settle(p, scalars);
        if (!p.json && !out_of_time.empty() && c.error.empty())
            c.error =
                out_of_time + " (the smallest derived case, tried while deriving): larger ones cannot finish in a test";
        if (!c.error.empty()) {
            if (p.json)
                json_spec_error(src.json_path, "cases." + p.name, c.error, "change the case's size or the generator");
            dropped.push_back(p.name + ": " + c.error);
            continue;
        }
        const std::string key = case_key(c);
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;  // identical to an earlier case
        keys.push_back(key);
        if (!guess_note_text.empty()) c.notes.insert(c.notes.begin(), guess_note_text);
        c.notes.insert(c.notes.end(), clamp_notes.begin(), clamp_notes.end());
        spec.cases.push_back(std::move(c));
    }
    if (spec.cases.empty()) {
        CaseSpec c;
        c.name = "default";
        std::string all;
        for (const auto &d : dropped)
            all += (all.empty() ? "" : "; ") + d;
        c.error = "no case could be made from the generator's metadata (" + (all.empty() ? "no output" : all) +
                  "); state cases with sizes in a JSON spec (SPEC <file>.json)";
        spec.cases.push_back(c);
        return spec;
    }
    for (const auto &d : dropped)
        spec.summary += "; dropped case " + d;
    return spec;
}

}  // namespace harness
