// Bounds queries of compiled variants and the fixed point of one case's shapes (shape_query.h).
#include "spec/shape_query.h"

#include <algorithm>
#include <cstring>

#include "base/files.h"
#include "base/profile.h"
#include "base/sha256.h"
#include "devices/probe_in_child.h"
#include "devices/runtime_hooks.h"
#include "spec/query_fixes.h"
#include "values/scalar_value.h"
#include "base/json_reader.h"

namespace harness {

std::vector<int> BufferShape::extents() const {
    std::vector<int> v;
    for (const auto &d : dims)
        v.push_back(d.extent);
    return v;
}

std::vector<int> BufferShape::mins() const {
    std::vector<int> v;
    for (const auto &d : dims)
        v.push_back(d.min);
    return v;
}

namespace {

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// The storage order that strides Halide proposed ask for: natural when they grow with the dimension
// (Halide proposes dense strides where none is constrained), a dimension of stride 1 other than 0
// first (interleaved, as RunGen's fix_chunky_strides assumes), else by increasing stride.
std::vector<int> storage_order_of(const halide_buffer_t &b) {
    const int n = b.dimensions;
    std::vector<int> order;
    // A dimension other than 0 of stride 1 where dense strides would not give 1: a constraint, even on
    // a dimension of extent 1 (fft's real input: re/im interleaved, one plane).
    int64_t dense = 1;
    for (int d = 0; d < n && order.empty(); d++) {
        if (d > 0 && b.dim[d].stride == 1 && dense != 1) order.push_back(d);
        dense *= std::max(1, b.dim[d].extent);
    }
    if (!order.empty()) {
        for (int d = 0; d < n; d++) {
            if (d != order[0]) order.push_back(d);
        }
        return order;
    }
    bool natural = true;
    for (int d = 1; d < n; d++)
        natural &= b.dim[d].extent <= 1 || b.dim[d].stride >= b.dim[d - 1].stride;
    if (natural) return {};
    for (int d = 0; d < n; d++)
        order.push_back(d);
    std::stable_sort(order.begin(), order.end(), [&](int a, int c) { return b.dim[a].stride < b.dim[c].stride; });
    return order;
}

// The smallest region containing both.
DimRegion hull(const DimRegion &a, const DimRegion &b) {
    const int lo = std::min(a.min, b.min), hi = std::max(a.max(), b.max());
    return {lo, hi - lo + 1};
}

// Every variant's query of the same case: one output dimension moves to what it asks for. A variant
// whose schedule starts before the output's min (ShiftInwards on a short output) widens it, keeping
// the min; a constraint on the min or the extent is taken as stated, and so is a min below the
// proposed one that the generator fixes (`pinned`: set_min(-4), set_bounds(-4, 32)).
bool widen(DimRegion &t, const DimRegion &r, bool pinned) {
    DimRegion n = t;
    if (r.min > t.min || (pinned && r.min != t.min)) {
        n = r;  // a constraint moves the min (set_min / set_bounds)
    } else {
        if (r.min < t.min) n.extent = std::max(n.extent, r.extent);
        if (r.max() > n.max()) n.extent = r.max() - n.min + 1;
        if (r.min == t.min && r.max() < t.max()) n.extent = r.extent;  // a constraint shrinks it
    }
    const bool changed = n != t;
    t = n;
    return changed;
}

// "64x48", or "24x64 from (-4, 0)" where a min is not 0.
std::string shape_text(const BufferShape &s) {
    std::string out, mins;
    bool moved = false;
    for (const auto &d : s.dims) {
        out += (out.empty() ? "" : "x") + std::to_string(d.extent);
        mins += (mins.empty() ? "" : ", ") + std::to_string(d.min);
        moved |= d.min != 0;
    }
    return moved ? out + " from (" + mins + ")" : out;
}

}  // namespace

std::string query_variant(const Variant &v, const std::map<std::string, double> &scalars, const ShapeMap &inputs,
                          const ShapeMap &outputs, ShapeMap *inputs_out, ShapeMap *outputs_out) {
    const halide_filter_metadata_t *md = v.metadata;
    const size_t n = static_cast<size_t>(md->num_arguments);
    std::vector<halide_buffer_t> bufs(n);
    std::vector<std::vector<halide_dimension_t>> dims(n);
    std::vector<halide_scalar_value_t> values(n);
    std::vector<void *> args(n, nullptr);
    for (size_t i = 0; i < n; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            auto it = scalars.find(a.name);
            values[i] = scalar_from_double(it == scalars.end() ? 0.0 : it->second, a.type);
            args[i] = &values[i];
            continue;
        }
        dims[i].assign(std::max(a.dimensions, 1), halide_dimension_t{0, 0, 0, 0});
        const ShapeMap &given = a.kind == halide_argument_kind_output_buffer ? outputs : inputs;
        auto it = given.find(a.name);
        if (it != given.end()) {
            int stride = 1;
            for (int d = 0; d < a.dimensions && d < static_cast<int>(it->second.dims.size()); d++) {
                dims[i][d] = halide_dimension_t{it->second.dims[d].min, it->second.dims[d].extent, stride, 0};
                stride *= std::max(1, it->second.dims[d].extent);
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
    const int err = v.argv_call(args.data());
    if (err != 0) {
        const std::string msg = trimmed(take_halide_error());
        return msg.empty() ? "Halide error " + std::to_string(err) : msg;
    }
    for (size_t i = 0; i < n; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) continue;
        BufferShape s;
        for (int d = 0; d < a.dimensions; d++)
            s.dims.push_back({bufs[i].dim[d].min, bufs[i].dim[d].extent});
        s.storage_order = storage_order_of(bufs[i]);
        (a.kind == halide_argument_kind_output_buffer ? *outputs_out : *inputs_out)[a.name] = s;
    }
    return "";
}

namespace {

SettledShapes settle_here(const std::vector<const Variant *> &variants, const std::map<std::string, double> &scalars,
                          const ShapeMap &outputs, const ShapeMap &initial_proposals) {
    // The inputs' proposals grow with what the queries ask for, so that an output a generator ties to
    // an input's extent (result.dim(1).set_bounds(0, B.width())) can grow with a schedule.
    ShapeMap proposals = initial_proposals;
    SettledShapes s;
    s.outputs = outputs;
    std::vector<const Variant *> usable = variants;
    // Constraint candidates: what each output's dimensions come back as for a 1-element output
    // (a generator's set_bounds, or the least a schedule computes).
    ShapeMap tiny = outputs, tiny_in, tiny_out;
    for (auto &[name, shape] : tiny) {
        for (auto &d : shape.dims)
            d = {0, 1};
    }
    const bool have_tiny =
        !usable.empty() && query_variant(*usable[0], scalars, proposals, tiny, &tiny_in, &tiny_out) == "";
    // A min the generator fixes comes back the same for a 1- and a 2-element output; a schedule's shift
    // (ShiftInwards: the last vector ends at the max) moves with the extent.
    std::map<std::string, std::vector<bool>> pinned;
    ShapeMap tiny2 = tiny, tiny2_in, tiny2_out;
    for (auto &[name, shape] : tiny2) {
        for (auto &d : shape.dims)
            d = {0, 2};
    }
    if (have_tiny && query_variant(*usable[0], scalars, proposals, tiny2, &tiny2_in, &tiny2_out) == "") {
        for (const auto &[name, shape] : tiny_out) {
            auto &p = pinned[name];
            const auto two = tiny2_out.find(name);
            for (size_t d = 0; d < shape.dims.size(); d++) {
                p.push_back(two != tiny2_out.end() && d < two->second.dims.size() && shape.dims[d].min != 0 &&
                            two->second.dims[d].min == shape.dims[d].min);
            }
        }
    }
    const auto is_pinned = [&](const std::string &name, size_t d) {
        const auto p = pinned.find(name);
        return p != pinned.end() && d < p->second.size() && p->second[d];
    };
    bool settled = false;
    std::string trace;  // the first output's shape per round, for the message when it never settles
    for (int iter = 0; iter < 12 && !settled; iter++) {
        settled = true;
        if (!s.outputs.empty()) trace += (trace.empty() ? "" : " -> ") + shape_text(s.outputs.begin()->second);
        for (size_t k = 0; k < usable.size() && settled; k++) {
            ShapeMap in_req, out_req;
            const std::string err = query_variant(*usable[k], scalars, proposals, s.outputs, &in_req, &out_req);
            if (!err.empty()) {
                // A constraint, or a buffer built into the pipeline, that bounds the outputs (query_fixes.h).
                const OutputQuery query = [&](const ShapeMap &outs) {
                    ShapeMap in_unused, out_unused;
                    return query_variant(*usable[k], scalars, proposals, outs, &in_unused, &out_unused);
                };
                if (fix_outputs_from_query_error(err, query, tiny_out, have_tiny, s.outputs, s.notes)) {
                    settled = false;
                    continue;
                }
                if (k == 0) {
                    s.error = "the bounds query of variant " + usable[0]->function_name + " failed: " + err;
                    return s;
                }
                s.notes.push_back("variant " + usable[k]->function_name +
                                  " left out of the sizing: its bounds query failed (" + err + ")");
                usable.erase(usable.begin() + static_cast<long>(k));
                settled = false;
                continue;
            }
            for (auto &[name, r] : in_req) {
                auto p = proposals.find(name);
                if (p == proposals.end()) continue;
                for (size_t d = 0; d < r.dims.size() && d < p->second.dims.size(); d++) {
                    // Not a reason for another round by itself: an input read just outside its own
                    // bounds (clamp(x, min, max) - 1) asks for more with every bigger proposal.
                    if (r.dims[d].extent > 0) p->second.dims[d] = hull(p->second.dims[d], r.dims[d]);
                }
            }
            for (auto &[name, shape] : s.outputs) {
                const BufferShape &r = out_req[name];
                for (size_t d = 0; d < shape.dims.size() && d < r.dims.size(); d++) {
                    const DimRegion before = shape.dims[d];
                    if (!widen(shape.dims[d], r.dims[d], is_pinned(name, d))) continue;
                    settled = false;
                    // An input proposed at the output's old size in that dimension follows it: a
                    // generator may bound its output by its input (output.bound(x, 0, input.width())).
                    for (auto &[in, p] : proposals) {
                        if (d < p.dims.size() && p.dims[d] == before) p.dims[d] = shape.dims[d];
                    }
                }
                if (k == 0) shape.storage_order = r.storage_order;
            }
        }
    }
    if (!settled) {
        s.error = "the output sizes did not settle: the variants' bounds queries keep asking for more (" + trace + ")";
        return s;
    }
    for (const auto &[name, shape] : s.outputs) {
        if (shape.extents() != outputs.at(name).extents() || shape.mins() != outputs.at(name).mins()) {
            s.notes.push_back("output '" + name + "' is " + shape_text(shape) + ", not " +
                              shape_text(outputs.at(name)) +
                              ": what the generator's bounds or every variant's schedule need");
        }
    }
    // Inputs: the union over variants of what each variant's query asks for with the proposals given:
    // for a dimension read within its own bounds (behind a boundary condition) that is the proposal
    // (or the part the outputs reach), for one a constraint ties to another buffer
    // (x.extent.0 == A.extent.1) the value consistent with it.
    for (size_t k = 0; k < usable.size(); k++) {
        ShapeMap in1, o1;
        const std::string err = query_variant(*usable[k], scalars, proposals, s.outputs, &in1, &o1);
        if (!err.empty()) {
            if (k == 0) {
                s.error = "the bounds query of variant " + usable[0]->function_name + " failed: " + err;
                return s;
            }
            s.notes.push_back("variant " + usable[k]->function_name + " left out of the input sizes: " + err);
            continue;
        }
        for (auto &[name, r1] : in1) {
            BufferShape want = r1;
            auto prop = proposals.find(name);
            for (size_t d = 0; d < want.dims.size(); d++) {
                if (want.dims[d].extent <= 0 && prop != proposals.end() && d < prop->second.dims.size())
                    want.dims[d] = prop->second.dims[d];
            }
            auto have = s.inputs.find(name);
            if (have == s.inputs.end()) {
                s.inputs[name] = want;
                continue;
            }
            for (size_t d = 0; d < want.dims.size() && d < have->second.dims.size(); d++)
                have->second.dims[d] = hull(have->second.dims[d], want.dims[d]);
        }
    }
    return s;
}

nlohmann::json shapes_json(const ShapeMap &m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto &[name, b] : m) {
        nlohmann::json dims = nlohmann::json::array();
        for (const auto &d : b.dims)
            dims.push_back({d.min, d.extent});
        j[name] = {{"dims", dims}, {"order", b.storage_order}};
    }
    return j;
}

ShapeMap shapes_from(const nlohmann::json &j) {
    ShapeMap m;
    for (const auto &[name, b] : j.items()) {
        BufferShape s;
        for (const auto &d : b.at("dims"))
            s.dims.push_back({d.at(0).get<int>(), d.at(1).get<int>()});
        s.storage_order = b.at("order").get<std::vector<int>>();
        m[name] = s;
    }
    return m;
}

nlohmann::json settled_json(const SettledShapes &s) {
    return {
        {"inputs", shapes_json(s.inputs)}, {"outputs", shapes_json(s.outputs)}, {"error", s.error}, {"notes", s.notes}};
}

SettledShapes settled_from(const nlohmann::json &j) {
    SettledShapes s;
    s.inputs = shapes_from(j.at("inputs"));
    s.outputs = shapes_from(j.at("outputs"));
    s.error = j.at("error").get<std::string>();
    s.notes = j.at("notes").get<std::vector<std::string>>();
    return s;
}

// Settled shapes of this process, by key (settle_shapes), for save_settled_shapes().
bool on_a_device(const Variant &v) {
    for (const auto &p : profiles()) {
        if (profile_ident(p.name) == v.profile) return p.is_gpu();
    }
    return false;
}

}  // namespace

SettledShapes settle_shapes(const std::vector<const Variant *> &variants, const std::map<std::string, double> &scalars,
                            const ShapeMap &outputs, const ShapeMap &initial_proposals) {
    // A GPU variant's bounds query first initialises its device runtime and compiles its kernels
    // (Halide puts halide_*_initialize_kernels before the bounds-query return), so those queries run
    // in a forked child: the process deriving a spec (a run's parent, a cpu child) never holds a GPU
    // context. Results are kept per process and, where shape_cache_dir() names a folder (a run
    // names one to its children), on disk, so one run forks once per case.
    bool gpu = false;
    for (const Variant *v : variants)
        gpu |= on_a_device(*v);
    if (!gpu) return settle_here(variants, scalars, outputs, initial_proposals);
    std::string key;
    for (const Variant *v : variants)
        key += v->function_name + ";";
    key += nlohmann::json(scalars).dump() + shapes_json(outputs).dump() + shapes_json(initial_proposals).dump();
    const nlohmann::json r = cached_in_derivation(key, [&] {
        return probe_in_child([&] { return settled_json(settle_here(variants, scalars, outputs, initial_proposals)); },
                              "the bounds queries");
    });
    if (r.contains("error") && !r.contains("inputs")) {
        SettledShapes s;
        s.error = "the bounds queries of the GPU variants died: " + r["error"].get<std::string>();
        return s;
    }
    try {
        return settled_from(r);
    } catch (const std::exception &) {
        SettledShapes s;  // a damaged cache entry
        s.error =
            "the bounds queries' cached shapes are unreadable; delete the shape cache (" + shape_cache_dir() + ")";
        return s;
    }
}

}  // namespace harness
