// bisect_plugin.cpp: a Halide generator plugin for `aot-harness bisect` (harness/include/harness/bisect.h).
// Loaded into an unmodified generator executable with `-p`, it registers `harness_bisect_<name>` for
// every generator the executable has: the same generator, whose Pipeline gets every intermediate Func
// that can be materialised dumped with debug_to_file after the generator's own schedule is applied.
//
//   HARNESS_BISECT_MODE=scheduled    dump what the schedule already computes at the root (and the
//                                    outputs); nothing else changes
//   HARNESS_BISECT_MODE=materialise  also compute_root every other Func (on GPU targets with a GPU
//                                    tiling, so it still runs on the device) and dump it
//   HARNESS_BISECT_STAGES=FILE       where the stage list goes (JSON, producer order): name, type,
//                                    whether it was dumped (file) or why not
// Dumped Funcs also trace their realizations, so that the runner can record each one's minimum.
//
// A Python generator runs in its interpreter, whose generator main finds Python generators only. For
// it, `aot-harness bisect` has the generator's pipeline built in Python and serialized (hlpipe), and
// runs a generator executable without generators of its own (bisect_generator_main.cpp) with this
// plugin and `-g harness_bisect_hlpipe`:
//   HARNESS_BISECT_HLPIPE=FILE       the serialized pipeline (its inputs' Parameters inside)
//   HARNESS_BISECT_ARGINFOS=FILE     the generator's arguments in order (JSON: name, dir, kind, types,
//                                    dimensions), as the Python generator declared them
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "Halide.h"

namespace {

using namespace Halide;
using Halide::Internal::AbstractGenerator;
using Halide::Internal::AbstractGeneratorPtr;
using Halide::Internal::Function;

std::string env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "";
}

bool on_gpu(const Function &f) {
    const auto gpu_dims = [](const Internal::StageSchedule &s) {
        for (const auto &d : s.dims()) {
            if (d.for_type == Internal::ForType::GPUBlock || d.for_type == Internal::ForType::GPUThread ||
                d.for_type == Internal::ForType::GPULane) {
                return true;
            }
        }
        return false;
    };
    if (gpu_dims(f.definition().schedule())) return true;
    for (const auto &u : f.updates())
        if (gpu_dims(u.schedule())) return true;
    return false;
}

// Drops the pure definition's own loop schedule (splits, GPU thread loops of a stage computed inside
// another kernel), as if it had none, so that it can be given a GPU tiling of its own at the root.
void reset_pure_schedule(Function &f) {
    Internal::StageSchedule &s = f.definition().schedule();
    s.splits().clear();
    s.dims().clear();
    for (const std::string &arg : f.args())
        s.dims().push_back(
            {arg, Internal::ForType::Serial, DeviceAPI::None, Internal::DimType::PureVar, Partition::Auto});
    s.dims().push_back({Var::outermost().name(), Internal::ForType::Serial, DeviceAPI::None, Internal::DimType::PureVar,
                        Partition::Auto});
    f.schedule().memory_type() = MemoryType::Auto;
}

std::string type_name(const Type &t) {
    return (t.is_float() ? "float" : t.is_uint() ? "uint" : t.is_bool() ? "bool" : "int") + std::to_string(t.bits());
}

// Instruments the pipeline: see the file comment.
void instrument(const Pipeline &p, const Target &target, const std::string &mode, const std::string &list_path) {
    std::vector<Function> outputs;
    std::set<std::string> output_names;
    for (const Func &f : p.outputs()) {
        outputs.push_back(f.function());
        output_names.insert(f.name());
    }
    std::map<std::string, Function> env_map;
    for (const Function &o : outputs) {
        for (const auto &[name, f] : Internal::find_transitive_calls(o))
            env_map.emplace(name, f);
    }
    for (auto &[name, f] : env_map)
        f.lock_loop_levels();
    const std::vector<std::string> order = Internal::topological_order(outputs, env_map);
    const bool gpu_target = target.has_gpu_feature();
    nlohmann::json stages = nlohmann::json::array();
    int index = 0;
    for (const std::string &name : order) {
        Function f = env_map.at(name);
        Func func(f);
        nlohmann::json s{{"index", index}, {"name", name}, {"dimensions", f.dimensions()}};
        s["type"] = f.outputs() == 1 ? type_name(f.output_types()[0]) : "tuple";
        const bool is_output = output_names.count(name) > 0;
        const Internal::FuncSchedule &sched = f.schedule();
        const bool root = is_output || sched.compute_level().is_root();
        const bool gpu = on_gpu(f);
        std::string why;
        if (f.outputs() != 1) {
            why = "Tuple-valued (debug_to_file takes one value)";
        } else if (f.dimensions() > 4 || f.dimensions() == 0) {
            why = "has " + std::to_string(f.dimensions()) + " dimensions (debug_to_file takes 1 to 4)";
        } else if (!f.definition().schedule().fuse_level().level.is_inlined() ||
                   !f.definition().schedule().fused_pairs().empty()) {
            why = "fused with another stage (compute_with)";
        } else if (!root && mode != "materialise") {
            const LoopLevel &at = sched.compute_level();
            if (at.is_inlined()) {
                why = "inlined into its consumers";
            } else {
                const auto consumer = env_map.find(at.func());
                why = "computed at " + at.to_string() +
                      (consumer != env_map.end() && on_gpu(consumer->second) ? ", inside a GPU kernel" : "");
            }
        } else if (!root && f.has_extern_definition()) {
            why = "an extern stage not computed at the root";
        } else if (!root && gpu && !f.updates().empty()) {
            why = "update definitions scheduled inside another GPU kernel (not materialised)";
        }
        std::string where = gpu ? "gpu" : "host";
        if (why.empty() && !root) {  // materialise: a stage of its own
            func.compute_root().store_root().hoist_storage_root();
            if (gpu_target) {
                const std::vector<Var> args = func.args();
                if (gpu && f.updates().empty()) reset_pure_schedule(f);  // its loops ran inside another kernel
                if (!f.updates().empty()) {
                    where = "host (materialised: has update definitions, left off the GPU)";
                } else if (args.size() >= 2) {
                    Var bx, by, tx, ty;
                    func.gpu_tile(args[0], args[1], bx, by, tx, ty, 16, 16, TailStrategy::GuardWithIf);
                    where = "gpu (materialised, 16x16 tiles)";
                } else {
                    Var b, t;
                    func.gpu_tile(args[0], b, t, 64, TailStrategy::GuardWithIf);
                    where = "gpu (materialised, 64-wide tiles)";
                }
            } else {
                where += " (materialised)";
            }
        }
        s["where"] = where;
        s["output"] = is_output;
        if (why.empty()) {
            const std::string file = "bisect_" + std::to_string(index) + ".npy";
            func.debug_to_file(file);   // dense, dimension 0 fastest, extents only
            func.trace_realizations();  // the realization's minimum (the runner's $REPRO_BOUNDS)
            s["file"] = file;
        } else {
            s["not_dumped"] = why;
        }
        stages.push_back(s);
        index++;
    }
    if (!list_path.empty()) {
        std::ofstream out(list_path);
        out << nlohmann::json{{"mode", mode}, {"target", target.to_string()}, {"stages", stages}}.dump(2) << "\n";
    }
}

// The wrapped generator, made on first use: GeneratorRegistry::create holds the registry's lock while
// it calls a factory, so the wrapper's factory cannot create the inner generator itself.
class BisectGenerator : public AbstractGenerator {
public:
    BisectGenerator(std::string inner_name, const GeneratorContext &context)
        : inner_name_(std::move(inner_name)), context_(context) {}
    std::string name() override { return inner().name(); }
    GeneratorContext context() const override { return inner().context(); }
    std::vector<ArgInfo> arginfos() override { return inner().arginfos(); }
    void set_generatorparam_value(const std::string &n, const std::string &v) override {
        inner().set_generatorparam_value(n, v);
    }
    void set_generatorparam_value(const std::string &n, const LoopLevel &l) override {
        inner().set_generatorparam_value(n, l);
    }
    Pipeline build_pipeline() override {
        Pipeline p = inner().build_pipeline();
        try {
            instrument(p, context().target(), env("HARNESS_BISECT_MODE"), env("HARNESS_BISECT_STAGES"));
        } catch (const Halide::Error &e) {
            std::cerr << "harness bisect plugin: " << e.what() << "\n";  // the generator's own handler is terse
            throw;
        }
        return p;
    }
    std::vector<Parameter> input_parameter(const std::string &n) override { return inner().input_parameter(n); }
    std::vector<Func> output_func(const std::string &n) override { return inner().output_func(n); }
    void bind_input(const std::string &n, const std::vector<Parameter> &v) override { inner().bind_input(n, v); }
    void bind_input(const std::string &n, const std::vector<Func> &v) override { inner().bind_input(n, v); }
    void bind_input(const std::string &n, const std::vector<Expr> &v) override { inner().bind_input(n, v); }
    bool emit_cpp_stub(const std::string &) override { return false; }
    bool emit_hlpipe(const std::string &) override { return false; }
    bool allow_out_of_order_inputs_and_outputs() const override {
        return inner().allow_out_of_order_inputs_and_outputs();
    }

private:
    AbstractGenerator &inner() const {
        if (!inner_) inner_ = Internal::GeneratorRegistry::create(inner_name_, context_);
        if (!inner_) throw CompileError("harness bisect plugin: no generator named " + inner_name_);
        return *inner_;
    }
    std::string inner_name_;
    GeneratorContext context_;
    mutable AbstractGeneratorPtr inner_;
};

// The pipeline a Python generator built (HARNESS_BISECT_HLPIPE), instrumented as above, with the
// generator's own arguments (HARNESS_BISECT_ARGINFOS), so that its build has the variant's signature.
class HlpipeGenerator : public AbstractGenerator {
public:
    explicit HlpipeGenerator(const GeneratorContext &context) : context_(context) {
        const std::string args_path = env("HARNESS_BISECT_ARGINFOS");
        std::ifstream in(args_path);
        if (!in) throw CompileError("harness bisect plugin: cannot read HARNESS_BISECT_ARGINFOS '" + args_path + "'");
        for (const auto &a : nlohmann::json::parse(in)) {
            ArgInfo info;
            info.name = a.at("name").get<std::string>();
            info.dir = a.at("dir").get<std::string>() == "output" ? Internal::ArgInfoDirection::Output :
                                                                    Internal::ArgInfoDirection::Input;
            const std::string kind = a.at("kind").get<std::string>();
            info.kind = kind == "buffer"   ? Internal::ArgInfoKind::Buffer :
                        kind == "function" ? Internal::ArgInfoKind::Function :
                                             Internal::ArgInfoKind::Scalar;
            for (const auto &t : a.at("types"))
                info.types.push_back(Type(halide_type_t(static_cast<halide_type_code_t>(t.at(0).get<int>()),
                                                        t.at(1).get<int>(), t.at(2).get<int>())));
            info.dimensions = a.at("dimensions").get<int>();
            arginfos_.push_back(info);
        }
    }
    std::string name() override { return "harness_bisect_hlpipe"; }
    GeneratorContext context() const override { return context_; }
    std::vector<ArgInfo> arginfos() override { return arginfos_; }
    void set_generatorparam_value(const std::string &n, const std::string &) override {
        throw CompileError("harness bisect plugin: the Python generator took its GeneratorParams already; got " + n);
    }
    void set_generatorparam_value(const std::string &n, const LoopLevel &) override {
        throw CompileError("harness bisect plugin: the Python generator took its GeneratorParams already; got " + n);
    }
    Pipeline build_pipeline() override {
        const std::string file = env("HARNESS_BISECT_HLPIPE");
        params_ = deserialize_parameters(file);
        pipeline_ = deserialize_pipeline(file, params_);
        instrument(pipeline_, context_.target(), env("HARNESS_BISECT_MODE"), env("HARNESS_BISECT_STAGES"));
        return pipeline_;
    }
    std::vector<Parameter> input_parameter(const std::string &n) override {
        const auto p = params_.find(n);
        if (p == params_.end()) throw CompileError("harness bisect plugin: the serialized pipeline has no input " + n);
        return {p->second};
    }
    // The Python generator's outputs are the pipeline's, in the order it declared them.
    std::vector<Func> output_func(const std::string &n) override {
        size_t k = 0;
        for (const ArgInfo &a : arginfos_) {
            if (a.dir != Internal::ArgInfoDirection::Output) continue;
            if (a.name == n && k < pipeline_.outputs().size()) return {pipeline_.outputs()[k]};
            k++;
        }
        throw CompileError("harness bisect plugin: the serialized pipeline has no output " + n);
    }
    void bind_input(const std::string &, const std::vector<Parameter> &) override { no_binding(); }
    void bind_input(const std::string &, const std::vector<Func> &) override { no_binding(); }
    void bind_input(const std::string &, const std::vector<Expr> &) override { no_binding(); }
    bool emit_cpp_stub(const std::string &) override { return false; }
    bool emit_hlpipe(const std::string &) override { return false; }
    bool allow_out_of_order_inputs_and_outputs() const override { return false; }

private:
    [[noreturn]] static void no_binding() {
        throw CompileError("harness bisect plugin: harness_bisect_hlpipe takes no bound inputs");
    }
    GeneratorContext context_;
    std::vector<ArgInfo> arginfos_;
    std::map<std::string, Parameter> params_;
    Pipeline pipeline_;
};

// Runs when the generator executable loads this plugin (-p), after its own generators registered.
struct RegisterWrappers {
    RegisterWrappers() {
        Internal::GeneratorRegistry::register_factory("harness_bisect_hlpipe",
                                                      [](const GeneratorContext &context) -> AbstractGeneratorPtr {
                                                          return std::make_unique<HlpipeGenerator>(context);
                                                      });
        for (const std::string &name : Internal::GeneratorRegistry::enumerate()) {
            if (name.rfind("harness_bisect_", 0) == 0) continue;  // harness_bisect_hlpipe, or loaded twice
            try {  // a name Halide will not take (too long, ...) must not abort the generator
                Internal::GeneratorRegistry::register_factory(
                    "harness_bisect_" + name, [name](const GeneratorContext &context) -> AbstractGeneratorPtr {
                        return std::make_unique<BisectGenerator>(name, context);
                    });
            } catch (const Halide::Error &e) {
                std::cerr << "harness bisect plugin: cannot wrap generator " << name << ": " << e.what() << "\n";
            }
        }
    }
} register_wrappers;

}  // namespace
