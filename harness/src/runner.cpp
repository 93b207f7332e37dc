#include "harness/runner.h"


#include <chrono>
#include <cstring>

#include "harness/error.h"
#include "harness/golden.h"
#include "harness/inputs.h"
#include "harness/npy.h"
#include "harness/profile.h"
#include "harness/runtime_hooks.h"
#include "harness/sha256.h"

namespace harness {

namespace {

constexpr uint8_t kOutputCanary = 0xCD;  // outputs start as this pattern, never as zeros

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

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<Array> case_inputs(const CaseSpec &c) {
    std::vector<Array> inputs;
    for (const auto &b : c.inputs) inputs.push_back(make_input(b));
    return inputs;
}

Invocation::Invocation(const Variant &variant, const CaseSpec &c, std::vector<Array> &inputs) : variant_(variant) {
    const halide_filter_metadata_t *md = variant.metadata;
    scalars_.reserve(md->num_arguments);
    input_views_.reserve(md->num_arguments);
    output_views_.reserve(md->num_arguments);
    outputs_.reserve(c.outputs.size());
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
            // The host bytes are the truth: without this flag Halide would allocate device memory
            // for the input and never copy into it (seed 000's second cause).
            input_views_.back().set_host_dirty(true);
            args_.push_back(input_views_.back().raw_buffer());
        } else {
            const BufferSpec &b = find_buffer(c.outputs, name, "output", c);
            check_buffer(b, arg, "output");
            outputs_.emplace_back(b.type, b.shape);
            std::memset(outputs_.back().bytes.data(), kOutputCanary, outputs_.back().bytes.size());
            output_views_.push_back(outputs_.back().view());
            args_.push_back(output_views_.back().raw_buffer());
        }
    }
}

int Invocation::call_resident() {
    return variant_.argv_call(args_.data());
}

int Invocation::device_sync() {
    for (auto &b : output_views_) {
        if (int err = b.device_sync()) return err;
    }
    return 0;
}

void Invocation::touch_inputs() {
    for (auto &b : input_views_) b.set_host_dirty(true);
}

int Invocation::call(std::string *error) {
    take_halide_error();
    int err = call_resident();
    for (auto &b : output_views_) {
        if (err == 0) err = b.copy_to_host();
        if (err == 0) err = b.device_free();
    }
    for (auto &b : input_views_) {
        if (err == 0) err = b.device_free();
    }
    if (err != 0 && error) {
        *error = take_halide_error();
        if (error->empty()) *error = "Halide error code " + std::to_string(err);
    }
    return err;
}

RunRecord run_case(const RunRequest &req) {
    RunRecord r;
    r.pipeline = req.pipeline;
    r.profile = req.profile;
    r.case_name = req.case_name;
    r.mode = req.mode;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        if (req.mode != "host") throw Error("buffer mode '" + req.mode + "' is not supported yet; use --mode host");
        const Registry &reg = Registry::instance();
        const PipelineSpec &spec = reg.spec(req.pipeline);
        find_profile(req.profile);
        const CaseSpec &c = spec.find_case(req.case_name);
        const Variant *v = reg.find(req.pipeline, req.profile);
        if (!v) throw Error("pipeline " + req.pipeline + " has no " + req.profile + " variant in this build; rebuild with that profile");
        r.target = v->metadata->target;
        if (!v->compile_error.empty()) throw Error(compile_error_message(*v));

        std::vector<Array> inputs = case_inputs(c);
        Invocation inv(*v, c, inputs);
        std::string halide_error;
        const auto t_call = std::chrono::steady_clock::now();
        const int err = inv.call(&halide_error);
        r.metrics["run_ms"] = ms_since(t_call);
        if (err != 0) {
            r.outcome = Outcome::Error;
            r.metrics["halide_error_code"] = err;
            r.message = "Halide error " + std::to_string(err) + ": " + halide_error;
        } else {
            const Manifest manifest = Manifest::load(req.golden_dir);
            bool all_pass = true;
            std::string first_failure;
            for (size_t i = 0; i < c.outputs.size(); i++) {
                const std::string rel = golden_relpath(spec.name, c.name, c.outputs[i].name, c.outputs.size());
                const Array golden = load_verified_golden(req.golden_dir, manifest, rel);
                const CompareResult cr = compare(golden, inv.outputs()[i], spec.tolerance);
                r.metrics["outputs"][c.outputs[i].name] = cr.to_json();
                if (!cr.passed) {
                    if (all_pass) first_failure = c.outputs[i].name + ": " + cr.message;
                    all_pass = false;
                    if (!req.artifacts_dir.empty()) {
                        const std::string dir = req.artifacts_dir + "/" + r.pipeline + "/" + r.profile;
                        make_dirs(dir);
                        const std::string path = dir + "/" + r.case_name + "." + c.outputs[i].name + ".npy";
                        npy_save(path, inv.outputs()[i]);
                        r.artifacts[c.outputs[i].name + "_output"] = path;
                    }
                }
            }
            r.metrics["tolerance"] = spec.tolerance.name();
            r.outcome = all_pass ? Outcome::Pass : Outcome::Fail;
            r.message = all_pass ? "matches golden within " + spec.tolerance.name() : first_failure;
        }
    } catch (const std::exception &e) {
        r.outcome = Outcome::Error;
        r.message = e.what();
    }
    r.duration_ms = ms_since(t0);
    return r;
}

std::vector<std::string> bless(const std::string &golden_dir, const std::string &pipeline,
                               const std::string &case_name) {
    const Registry &reg = Registry::instance();
    const PipelineSpec &spec = reg.spec(pipeline);
    const Variant *cpu = reg.find(pipeline, "cpu");
    if (!cpu) throw Error("pipeline " + pipeline + " has no cpu variant; goldens come only from the cpu profile");
    if (!cpu->compile_error.empty()) throw Error(compile_error_message(*cpu) + "; nothing was blessed");
    std::vector<const CaseSpec *> cases;
    for (const auto &c : spec.cases) {
        if (case_name.empty() || c.name == case_name) cases.push_back(&c);
    }
    if (cases.empty()) spec.find_case(case_name);  // throws listing the known cases

    Manifest manifest = Manifest::load(golden_dir, /*allow_missing=*/true);
    struct Pending {
        std::string rel;
        std::string bytes;
        nlohmann::json entry;
    };
    std::vector<Pending> pending;
    install_halide_error_handler();
    for (const CaseSpec *c : cases) {
        std::vector<Array> inputs = case_inputs(*c);
        Invocation inv(*cpu, *c, inputs);
        std::string err_msg;
        if (inv.call(&err_msg) != 0) {
            throw Error("cpu variant of " + pipeline + "/" + c->name + " failed (" + err_msg + "); nothing was blessed");
        }
        const std::vector<Array> expected = spec.reference(*c, inputs);
        std::string input_recipe;
        for (const auto &b : c->inputs) input_recipe += (input_recipe.empty() ? "" : "; ") + b.name + ": " + b.recipe.describe();
        for (size_t i = 0; i < c->outputs.size(); i++) {
            const CompareResult check = compare(expected.at(i), inv.outputs()[i], spec.tolerance);
            if (!check.passed) {
                throw Error("cpu result of " + pipeline + "/" + c->name + " output '" + c->outputs[i].name +
                            "' disagrees with the reference (" + check.message +
                            "); fix the generator or the reference; nothing was blessed");
            }
            Pending p;
            p.rel = golden_relpath(pipeline, c->name, c->outputs[i].name, c->outputs.size());
            p.bytes = npy_encode(inv.outputs()[i]);
            const nlohmann::json reference_check{
                {"tolerance", spec.tolerance.name()}, {"passed", true}, {"max_abs_error", check.max_abs_error}};
            p.entry = {{"file", p.rel},
                       {"pipeline", pipeline},
                       {"case", c->name},
                       {"output", c->outputs[i].name},
                       {"dtype", dtype_name(inv.outputs()[i].type)},
                       {"shape", inv.outputs()[i].shape},
                       {"sha256", sha256_hex(p.bytes)},
                       {"profile", "cpu"},
                       {"target", cpu->metadata->target},
                       {"halide_version", std::to_string(HALIDE_VERSION_MAJOR) + "." +
                                              std::to_string(HALIDE_VERSION_MINOR) + "." +
                                              std::to_string(HALIDE_VERSION_PATCH)},
                       {"generator_sha256", spec.generator_sha256},
                       {"input_recipe", input_recipe},
                       {"reference_check", reference_check}};
            pending.push_back(std::move(p));
        }
    }
    std::vector<std::string> written;
    for (const auto &p : pending) {
        if (const int e = make_dirs(golden_dir + "/" + p.rel.substr(0, p.rel.rfind('/')))) {
            throw Error("cannot create a directory under " + golden_dir + ": " + std::strerror(e) +
                        "; make the golden dir writable");
        }
        write_file_atomic(golden_dir + "/" + p.rel, p.bytes);
        manifest.upsert(p.entry);
        written.push_back("golden/" + p.rel + " sha256 " + p.entry["sha256"].get<std::string>().substr(0, 12));
    }
    manifest.save(golden_dir);
    return written;
}

}  // namespace harness
