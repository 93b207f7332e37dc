// Invocation: a compiled variant's arguments bound to a case's buffers (invocation.h).
#include "variant/invocation.h"

#include <algorithm>
#include <cstring>

#include "values/element_type.h"
#include "base/error.h"
#include "spec/metadata_cases.h"
#include "variant/inputs.h"
#include "base/profile.h"
#include "devices/runtime_hooks.h"

namespace harness {

using HBuffer = Halide::Runtime::Buffer<void>;

namespace {

bool same_type(const halide_type_t &a, const halide_type_t &b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

std::vector<uint8_t> scalar_bytes(const std::string &name, halide_type_t t, double v) {
    std::vector<uint8_t> b(8, 0);
    dispatch_element_type(
        t,
        [&](auto tag) {
            const auto x = static_cast<typename decltype(tag)::type>(v);
            std::memcpy(b.data(), &x, sizeof x);
        },
        ("scalar argument '" + name + "'").c_str());
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
        throw Error(std::string(what) + " '" + b.name + "': the spec says " + describe_type(b.type) + " with " +
                    std::to_string(b.shape.size()) + " dimensions, the compiled pipeline wants " +
                    describe_type(arg.type) + " with " + std::to_string(arg.dimensions) + "; fix the spec");
    }
}

std::string runtime_of(const Variant &v) {
    for (const auto &p : profiles()) {
        if (profile_ident(p.name) == v.profile) return p.runtime;
    }
    throw Error("variant " + v.function_name + " names no known profile; rebuild the harness");
}

}  // namespace

std::vector<Array> case_inputs(const CaseSpec &c, const std::string &input_dir) {
    std::vector<Array> inputs;
    for (const auto &b : c.inputs)
        inputs.push_back(make_input(b, input_dir));
    return inputs;
}

Invocation::Invocation(const Variant &variant, const CaseSpec &c, std::vector<Array> &inputs, BufferMode mode,
                       int guard)
    : variant_(variant), case_(c), mode_(mode), runtime_(runtime_of(variant)) {
    const halide_filter_metadata_t *md = variant.metadata;
    scalars_.reserve(md->num_arguments);
    staged_.reserve(md->num_arguments);
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
                throw Error("input '" + name + "' is " + describe_type(inputs[idx].type) + " " +
                            shape_string(inputs[idx].shape) + ", the case wants " + describe_type(b.type) + " " +
                            shape_string(b.shape));
            }
            if (natural_order(b.storage_order)) {
                input_views_.push_back(inputs[idx].view());
                if (!b.min.empty()) input_views_.back().set_min(b.min);
            } else {
                // The generator's storage order (interleaved): a copy in that layout, copied back
                // after each call so that the unchanged-input check sees what the pipeline did.
                staged_.emplace_back();
                input_views_.push_back(strided_view(staged_.back(), b.type, b.shape, b.min, b.storage_order));
                HBuffer from = inputs[idx].view();
                if (!b.min.empty()) from.set_min(b.min);
                input_views_.back().copy_from(from);
                staged_from_.push_back({input_views_.size() - 1, &inputs[idx]});
            }
            args_.push_back(nullptr);  // bound below, once the views stop moving
        } else {
            const BufferSpec &b = find_buffer(c.outputs, name, "output", c);
            check_buffer(b, arg, "output");
            outputs_.emplace_back(b.type, b.shape, b.dense ? -1 : guard, b.min, b.storage_order);
            output_names_.push_back(name);
            output_specs_.push_back(&b);
            args_.push_back(nullptr);
        }
    }
    bind();
    if (runtime_ == "cuda") {
        const int registers = Registry::instance().spec(variant.pipeline).cuda_max_registers;
        if (registers > 0) cuda_registers_ = std::make_unique<CudaRegisterCap>(registers);
    }
}

void Invocation::bind() {
    const halide_filter_metadata_t *md = variant_.metadata;
    // Bind buffer arguments in metadata order (views are stable now).
    size_t in = 0, out = 0;
    for (int i = 0; i < md->num_arguments; i++) {
        const int kind = md->arguments[i].kind;
        if (kind == halide_argument_kind_input_buffer) args_[i] = input_views_[in++].raw_buffer();
        if (kind == halide_argument_kind_output_buffer) args_[i] = outputs_[out++].view().raw_buffer();
    }
    input_ptrs_.clear();
    output_ptrs_.clear();
    for (auto &b : input_views_)
        input_ptrs_.push_back(&b);
    for (auto &g : outputs_)
        output_ptrs_.push_back(&g.view());
}

bool Invocation::make_outputs_dense(const std::string &halide_error) {
    // "Constraint violated: output.stride.1 (74) == output.extent.0 (64)": the generator fixes an
    // output's strides, which the guard bands' padded rows break.
    // The name may be an alias Halide gave the output's buffer (iir_blur: "transpose$1.stride.1"): a
    // stride constraint that names no input makes every guarded output dense.
    bool names_input = false;
    for (int i = 0; i < variant_.metadata->num_arguments; i++) {
        const halide_filter_argument_t &a = variant_.metadata->arguments[i];
        names_input |= a.kind == halide_argument_kind_input_buffer &&
                       halide_error.find(std::string(a.name) + ".stride.") != std::string::npos;
    }
    const bool any_output = !names_input && halide_error.find(".stride.") != std::string::npos;
    bool changed = false;
    for (size_t i = 0; i < outputs_.size(); i++) {
        if (!outputs_[i].guarded() ||
            (!any_output && halide_error.find(output_names_[i] + ".stride.") == std::string::npos))
            continue;
        const BufferSpec &b = *output_specs_[i];
        outputs_[i] = GuardedArray(b.type, b.shape, -1, b.min, b.storage_order);
        dense_outputs_.push_back(output_names_[i]);
        changed = true;
    }
    if (changed) bind();
    return changed;
}

int Invocation::call_resident() {
    return variant_.argv_call(args_.data());
}

int Invocation::device_sync() {
    // Once per device interface: every output of a runtime is on its one queue or stream (Halide's OpenCL
    // runtime clFinish()es its command queue, CUDA synchronises its context), so a second sync only adds
    // an idle round trip (hist_equalize's two outputs, reduce_stats' three).
    std::vector<const halide_device_interface_t *> synced;
    for (auto &g : outputs_) {
        const halide_device_interface_t *iface = g.view().raw_buffer()->device_interface;
        if (!iface || std::find(synced.begin(), synced.end(), iface) != synced.end()) continue;
        if (int err = g.view().device_sync()) return err;
        synced.push_back(iface);
    }
    return 0;
}

void Invocation::touch_inputs() {
    for (auto &b : input_views_)
        b.set_host_dirty(true);
}

int Invocation::copy_back_and_release(std::string *error) {
    ModeBinding binding(BufferMode::Host, runtime_);
    return binding.finish(input_ptrs_, output_ptrs_, false, error);
}

void Invocation::fill_outputs(uint8_t canary) {
    if (!in_place_) {
        for (auto &g : outputs_)
            g.fill(canary);
        return;
    }
    if (in_place_values_.empty()) {
        for (size_t i = 0; i < output_specs_.size(); i++) {
            BufferSpec b = *output_specs_[i];
            b.recipe = default_recipe(b.type, 101 + i);  // seeded as an input would be
            in_place_values_.push_back(make_input(b));
        }
    }
    for (size_t i = 0; i < outputs_.size(); i++)
        outputs_[i].fill(in_place_values_[i]);
}

bool Invocation::detect_in_place() {
    std::string err;
    if (in_place_ || call(&err, 0xCD) != 0) return in_place_;
    const std::vector<Array> first = outputs();
    if (call(&err, 0x32) != 0) return false;
    const std::vector<Array> second = outputs();
    bool differ = false;
    for (size_t i = 0; i < first.size(); i++)
        differ |= first[i].bytes != second[i].bytes;
    if (!differ || call(&err, 0xCD) != 0) return false;
    const std::vector<Array> again = outputs();
    for (size_t i = 0; i < first.size(); i++) {
        if (first[i].bytes != again[i].bytes) return false;  // plain non-determinism
    }
    in_place_ = true;
    return true;
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

int Invocation::call(std::string *error, uint8_t canary, TestFault test_fault) {
    take_halide_error();
    fill_outputs(canary);
    int err = 0;
    if (test_fault == TestFault::StaleInput) {
        err = leave_stale_inputs_on_device();
    } else {
        // The host bytes are the truth: without host_dirty Halide would allocate device memory for an
        // input and never copy into it, and the GPU would compute from stale memory.
        touch_inputs();
    }
    const bool skip_copy_back = test_fault == TestFault::SkipCopyBack;
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
    if (err == halide_error_code_constraint_violated && make_outputs_dense(msg)) return call(error, canary, test_fault);
    for (const auto &[view, dense] : staged_from_) {
        HBuffer to = dense->view();
        std::vector<int> mins;
        for (int d = 0; d < input_views_[view].dimensions(); d++)
            mins.push_back(input_views_[view].dim(d).min());
        to.set_min(mins);
        to.copy_from(input_views_[view]);
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

}  // namespace harness
