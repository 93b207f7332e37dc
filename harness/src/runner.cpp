#include "harness/runner.h"


#include <algorithm>
#include <chrono>
#include <cstring>

#include "harness/default_tolerance.h"
#include "harness/error.h"
#include "harness/files.h"
#include "harness/golden.h"
#include "harness/images.h"
#include "harness/inputs.h"
#include "harness/npy.h"
#include "harness/profile.h"
#include "harness/runtime_hooks.h"
#include "harness/sha256.h"

namespace harness {

namespace {

bool same_type(const halide_type_t &a, const halide_type_t &b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

std::vector<uint8_t> scalar_bytes(const std::string &name, halide_type_t t, double v) {
    std::vector<uint8_t> b(8, 0);
    auto put = [&](auto x) { std::memcpy(b.data(), &x, sizeof x); };
    if (t.code == halide_type_uint && t.bits == 1) put(static_cast<bool>(v));
    else if (t.code == halide_type_uint && t.bits == 8) put(static_cast<uint8_t>(v));
    else if (t.code == halide_type_uint && t.bits == 16) put(static_cast<uint16_t>(v));
    else if (t.code == halide_type_uint && t.bits == 32) put(static_cast<uint32_t>(v));
    else if (t.code == halide_type_int && t.bits == 8) put(static_cast<int8_t>(v));
    else if (t.code == halide_type_int && t.bits == 16) put(static_cast<int16_t>(v));
    else if (t.code == halide_type_int && t.bits == 32) put(static_cast<int32_t>(v));
    else if (t.code == halide_type_float && t.bits == 32) put(static_cast<float>(v));
    else if (t.code == halide_type_float && t.bits == 64) put(v);
    else throw Error("scalar argument '" + name + "' has unsupported type " + dtype_name(t));
    return b;
}

const BufferSpec &find_buffer(const std::vector<BufferSpec> &list, const std::string &name, const char *what,
                              const CaseSpec &c) {
    for (const auto &b : list) {
        if (b.name == name) return b;
    }
    throw Error(std::string("case '") + c.name + "' declares no " + what + " '" + name +
                "' that the compiled pipeline expects; add it to the spec");
}

void check_buffer(const BufferSpec &b, const halide_filter_argument_t &arg, const char *what) {
    if (!same_type(b.type, arg.type) || static_cast<int>(b.shape.size()) != arg.dimensions) {
        throw Error(std::string(what) + " '" + b.name + "': the spec says " + dtype_name(b.type) + " with " +
                    std::to_string(b.shape.size()) + " dimensions, the compiled pipeline wants " +
                    dtype_name(arg.type) + " with " + std::to_string(arg.dimensions) + "; fix the spec");
    }
}

std::string runtime_of(const Variant &v) {
    for (const auto &p : profiles()) {
        if (profile_ident(p.name) == v.profile) return p.runtime;
    }
    throw Error("variant " + v.function_name + " names no known profile; rebuild the harness");
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<Array> case_inputs(const CaseSpec &c) {
    std::vector<Array> inputs;
    for (const auto &b : c.inputs) inputs.push_back(make_input(b));
    return inputs;
}

Invocation::Invocation(const Variant &variant, const CaseSpec &c, std::vector<Array> &inputs, BufferMode mode,
                       int guard)
    : variant_(variant), case_(c), mode_(mode), runtime_(runtime_of(variant)) {
    const halide_filter_metadata_t *md = variant.metadata;
    scalars_.reserve(md->num_arguments);
    input_views_.reserve(md->num_arguments);
    outputs_.reserve(c.outputs.size());
    std::vector<const BufferSpec *> output_order;
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &arg = md->arguments[i];
        const std::string name = arg.name;
        if (arg.kind == halide_argument_kind_input_scalar) {
            auto it = c.scalars.find(name);
            if (it == c.scalars.end()) {
                throw Error("case '" + c.name + "' gives no value for scalar '" + name + "'; add it to the spec");
            }
            scalars_.push_back(scalar_bytes(name, arg.type, it->second));
            args_.push_back(scalars_.back().data());
        } else if (arg.kind == halide_argument_kind_input_buffer) {
            const BufferSpec &b = find_buffer(c.inputs, name, "input", c);
            check_buffer(b, arg, "input");
            const size_t idx = static_cast<size_t>(&b - c.inputs.data());
            if (inputs.at(idx).shape != b.shape || !same_type(inputs[idx].type, b.type)) {
                throw Error("input '" + name + "' is " + dtype_name(inputs[idx].type) + " " +
                            shape_string(inputs[idx].shape) + ", the case wants " + dtype_name(b.type) + " " +
                            shape_string(b.shape));
            }
            input_views_.push_back(inputs[idx].view());
            args_.push_back(nullptr);  // bound below, once the views stop moving
        } else {
            const BufferSpec &b = find_buffer(c.outputs, name, "output", c);
            check_buffer(b, arg, "output");
            outputs_.emplace_back(b.type, b.shape, guard);
            output_names_.push_back(name);
            args_.push_back(nullptr);
        }
    }
    // Bind buffer arguments in metadata order (views are stable now).
    size_t in = 0, out = 0;
    for (int i = 0; i < md->num_arguments; i++) {
        const int kind = md->arguments[i].kind;
        if (kind == halide_argument_kind_input_buffer) args_[i] = input_views_[in++].raw_buffer();
        if (kind == halide_argument_kind_output_buffer) args_[i] = outputs_[out++].view().raw_buffer();
    }
    for (auto &b : input_views_) input_ptrs_.push_back(&b);
    for (auto &g : outputs_) output_ptrs_.push_back(&g.view());
}

int Invocation::call_resident() {
    return variant_.argv_call(args_.data());
}

int Invocation::device_sync() {
    for (auto &g : outputs_) {
        if (int err = g.view().device_sync()) return err;
    }
    return 0;
}

void Invocation::touch_inputs() {
    for (auto &b : input_views_) b.set_host_dirty(true);
}

int Invocation::copy_back_and_release(std::string *error) {
    ModeBinding binding(BufferMode::Host, runtime_);
    return binding.finish(input_ptrs_, output_ptrs_, false, error);
}

void Invocation::fill_outputs(uint8_t canary) {
    for (auto &g : outputs_) g.fill(canary);
}

int Invocation::leave_stale_inputs_on_device() {
    std::vector<std::vector<uint8_t>> saved;
    for (auto &b : input_views_) {
        auto *p = static_cast<uint8_t *>(b.data());
        saved.emplace_back(p, p + b.size_in_bytes());
        std::fill(p, p + b.size_in_bytes(), uint8_t(0));
    }
    touch_inputs();
    const int err = call_resident();  // copies the zeroed inputs to the device, which keeps them
    for (size_t i = 0; i < input_views_.size(); i++) {
        std::copy(saved[i].begin(), saved[i].end(), static_cast<uint8_t *>(input_views_[i].data()));
        input_views_[i].set_host_dirty(false);  // the fault: modified, not marked dirty
    }
    return err;
}

int Invocation::call(std::string *error, uint8_t canary, const std::string &test_fault) {
    take_halide_error();
    fill_outputs(canary);
    int err = 0;
    if (test_fault == "stale_input") {
        err = leave_stale_inputs_on_device();
    } else {
        // The host bytes are the truth: without host_dirty Halide would allocate device memory for an
        // input and never copy into it (seed 000's second cause).
        touch_inputs();
    }
    const bool skip_copy_back = test_fault == "skip_copy_back";
    ModeBinding binding(mode_, runtime_);
    std::string msg;
    if (err == 0) {
        err = binding.prepare(input_ptrs_, output_ptrs_, &msg);
        if (err == 0) err = call_resident();
    }
    if (err != 0 && msg.empty()) {
        msg = take_halide_error();
        if (msg.empty()) msg = "Halide error code " + std::to_string(err);
    }
    std::string finish_msg;
    const int finish_err = binding.finish(input_ptrs_, output_ptrs_, skip_copy_back, &finish_msg);
    if (err == 0 && finish_err != 0) {
        err = finish_err;
        msg = finish_msg;
    }
    if (err != 0 && error) *error = msg;
    return err;
}

std::vector<Array> Invocation::outputs() const {
    std::vector<Array> out;
    for (const auto &spec : case_.outputs) {
        for (size_t i = 0; i < outputs_.size(); i++) {
            if (output_names_[i] == spec.name) out.push_back(outputs_[i].interior());
        }
    }
    return out;
}

std::string Invocation::check_guards() const {
    for (size_t i = 0; i < outputs_.size(); i++) {
        const std::string g = outputs_[i].check_guards();
        if (!g.empty()) return "output '" + output_names_[i] + "': " + g;
    }
    return "";
}

namespace {

// Elements of output `o` that still hold every repeat's canary byte pattern.
size_t canary_left(const std::vector<std::vector<Array>> &reps, const std::vector<uint8_t> &canaries, size_t o,
                   size_t *first) {
    const Array &a0 = reps[0][o];
    const size_t eb = a0.element_bytes();
    size_t count = 0;
    for (size_t i = 0; i < a0.elements(); i++) {
        bool all = true;
        for (size_t r = 0; r < reps.size() && all; r++) {
            const uint8_t *p = reps[r][o].bytes.data() + i * eb;
            for (size_t k = 0; k < eb; k++) all &= p[k] == canaries[r];
        }
        if (all && count++ == 0) *first = i;
    }
    return count;
}

// The .npy bytes of the cpu variant's outputs for a case (its own outputs when `own` is given).
std::vector<std::string> reproduce_cpu_outputs(const PipelineSpec &spec, const CaseSpec &c, std::vector<Array> &inputs,
                                               const std::vector<Array> *own) {
    std::vector<Array> outputs;
    if (own) {
        outputs = *own;
    } else {
        const Variant *cpu = Registry::instance().find(spec.name, "cpu");
        if (!cpu) throw Error("pipeline " + spec.name + " has no cpu variant to reproduce its goldens");
        Invocation inv(*cpu, c, inputs);
        std::string err;
        if (inv.call(&err) != 0) throw Error("the cpu variant failed while reproducing the golden: " + err);
        outputs = inv.outputs();
    }
    std::vector<std::string> bytes;
    for (const auto &o : outputs) bytes.push_back(npy_encode(o));
    return bytes;
}

std::string coords_string(const Array &a, size_t i) {
    std::string s;
    for (int c : a.coords(i)) s += (s.empty() ? "(" : ",") + std::to_string(c);
    return s + ")";
}

// "" if the first failed check of a verified run, else which check failed.
std::string verify_repeats(const CaseSpec &c, const std::vector<std::vector<Array>> &reps,
                           const std::vector<uint8_t> &canaries) {
    for (size_t o = 0; o < c.outputs.size(); o++) {
        size_t first = 0;
        const size_t left = canary_left(reps, canaries, o, &first);
        const size_t n = reps[0][o].elements();
        // With one repeat a single canary-valued element may be legitimate; require all of them.
        if (left > 0 && (reps.size() > 1 || left == n)) {
            return "canary left in " + std::to_string(left) + " of " + std::to_string(n) + " elements of output '" +
                   c.outputs[o].name + "' (first at " + coords_string(reps[0][o], first) +
                   "): never written, or never copied back to the host";
        }
        // Bit-identical, NaN payloads included.
        const Array &a0 = reps[0][o];
        const size_t eb = a0.element_bytes();
        for (size_t r = 1; r < reps.size(); r++) {
            size_t differ = 0, first_diff = 0;
            for (size_t i = 0; i < a0.elements(); i++) {
                if (std::memcmp(a0.bytes.data() + i * eb, reps[r][o].bytes.data() + i * eb, eb) != 0 && differ++ == 0) {
                    first_diff = i;
                }
            }
            if (differ) {
                return "non-deterministic: repeat " + std::to_string(r + 1) + " of output '" + c.outputs[o].name +
                       "' differs from repeat 1 in " + std::to_string(differ) + " of " + std::to_string(n) +
                       " elements (first at " + coords_string(a0, first_diff) + ": " + std::to_string(a0.value(first_diff)) +
                       " then " + std::to_string(reps[r][o].value(first_diff)) + ")";
            }
        }
    }
    return "";
}

// The goldens of a case's outputs, verified against the manifest. Reads only; when a bless commits
// while this reads (a golden no longer matches the manifest it was read with, and the manifest
// changed), it reads again.
std::vector<Array> load_case_goldens(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c,
                                     std::vector<Array> &inputs, const std::vector<Array> &outputs, bool is_cpu) {
    std::vector<std::string> reproduced;  // cpu results for goldens that are not stored
    for (int attempt = 0;; attempt++) {
        const Manifest manifest = Manifest::load(dir);
        try {
            std::vector<Array> goldens;
            for (size_t i = 0; i < c.outputs.size(); i++) {
                const std::string rel = golden_relpath(spec.name, c.name, c.outputs[i].name, c.outputs.size());
                const GoldenEntry *entry = manifest.find(rel);
                if (entry && !entry->stored && reproduced.empty()) {
                    reproduced = reproduce_cpu_outputs(spec, c, inputs, is_cpu ? &outputs : nullptr);
                }
                goldens.push_back(load_verified_golden(dir, manifest, rel, reproduced.empty() ? nullptr : &reproduced.at(i)));
            }
            return goldens;
        } catch (const Error &) {
            if (attempt == 3 || Manifest::load(dir, true).text() == manifest.text()) throw;
        }
    }
}

}  // namespace

RunRecord run_case(const RunRequest &req) {
    RunRecord r;
    r.pipeline = req.pipeline;
    r.profile = req.profile;
    r.case_name = req.case_name;
    r.mode = req.mode;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        const BufferMode mode = buffer_mode_from_name(req.mode);
        set_input_dir(req.golden_dir + "/inputs");
        const Registry &reg = Registry::instance();
        const PipelineSpec &spec = reg.spec(req.pipeline);
        find_profile(req.profile);
        const CaseSpec &c = spec.find_case(req.case_name);
        const Variant *v = reg.find(req.pipeline, req.profile);
        if (!v) throw Error("pipeline " + req.pipeline + " has no " + req.profile + " variant in this build; rebuild with that profile");
        r.target = v->metadata->target;
        if (!v->compile_error.empty()) throw Error(compile_error_message(*v));

        std::vector<Array> inputs = case_inputs(c);
        std::vector<std::string> input_sums;
        for (const auto &a : inputs) input_sums.push_back(sha256_hex(std::string(a.bytes.begin(), a.bytes.end())));
        Invocation inv(*v, c, inputs, mode, req.guard);
        static const uint8_t kCanaries[] = {0xCD, 0x32, 0xA7};
        std::vector<uint8_t> canaries;
        std::vector<std::vector<Array>> reps;
        std::string failure;
        for (int rep = 0; rep < std::max(1, req.repeats) && failure.empty(); rep++) {
            canaries.push_back(kCanaries[rep % 3]);
            std::string halide_error;
            const auto t_call = std::chrono::steady_clock::now();
            const int err = inv.call(&halide_error, canaries.back(), spec.test_fault);
            r.metrics["run_ms"].push_back(ms_since(t_call));
            if (err != 0) {
                r.outcome = Outcome::Error;
                r.metrics["halide_error_code"] = err;
                r.message = "error " + std::to_string(err) + ": " + halide_error;
                r.duration_ms = ms_since(t0);
                return r;
            }
            reps.push_back(inv.outputs());
            failure = inv.check_guards();
        }
        for (size_t i = 0; i < inputs.size() && failure.empty(); i++) {
            if (sha256_hex(std::string(inputs[i].bytes.begin(), inputs[i].bytes.end())) != input_sums[i]) {
                failure = "input '" + c.inputs[i].name + "' was modified by the pipeline";
            }
        }
        if (failure.empty()) failure = verify_repeats(c, reps, canaries);
        r.metrics["repeats"] = reps.size();
        r.metrics["tolerance"] = spec.tolerance.name();

        const std::vector<Array> goldens = load_case_goldens(req.golden_dir, spec, c, inputs, reps.at(0), req.profile == "cpu");
        std::string measured;
        for (size_t i = 0; i < c.outputs.size(); i++) {
            const Array &golden = goldens.at(i);
            const Array &out = reps.at(0).at(i);
            const Tolerance &tol = spec.tolerance_for(c.outputs[i].name);
            const CompareResult cr = compare(golden, out, tol);
            r.metrics["outputs"][c.outputs[i].name] = cr.to_json();
            // What was measured next to what is allowed, so that a user can set the tolerance.
            measured += (measured.empty() ? "" : "; ") + (c.outputs.size() > 1 ? c.outputs[i].name + ": " : "") +
                        measured_error(cr, out.type) + " within " + tol.name();
            if (!cr.passed && failure.empty()) failure = c.outputs[i].name + ": " + cr.message;
            if ((!cr.passed || !failure.empty()) && !req.artifacts_dir.empty()) {
                const std::string dir = req.artifacts_dir + "/" + r.pipeline + "/" + r.profile;
                make_dirs(dir);
                const std::string prefix = dir + "/" + r.case_name + "." + r.mode + "." + c.outputs[i].name;
                npy_save(prefix + ".output.npy", out);
                r.artifacts[c.outputs[i].name + ".output_npy"] = prefix + ".output.npy";
                if (write_comparison_pngs(golden, out, prefix)) {
                    for (const char *k : {"golden", "output", "diff"}) {
                        r.artifacts[c.outputs[i].name + "." + k + "_png"] = prefix + "." + k + ".png";
                    }
                }
            }
        }
        r.outcome = failure.empty() ? Outcome::Pass : Outcome::Fail;
        r.message = failure.empty() ? "matches golden: " + measured + "; " +
                                          std::to_string(reps.size()) + " repeats bit-identical, guards intact"
                                    : failure + " (" + measured + ")";
    } catch (const std::exception &e) {
        r.outcome = Outcome::Error;
        r.message = e.what();
    }
    r.duration_ms = ms_since(t0);
    return r;
}

}  // namespace harness
