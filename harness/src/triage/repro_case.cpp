// The case of a repro bundle or a bisect run as files: inputs/*.npy, golden/*.npy and case.txt, the
// list the bundle's main reads (repro.h); a tolerance in the verdict core's words (verdict_core.h).
#include <cstdio>

#include "base/error.h"
#include "base/files.h"
#include "golden/golden.h"
#include "variant/invocation.h"
#include "values/npy.h"
#include "values/scalar_value.h"
#include "harness/registry.h"
#include "triage/repro.h"

namespace harness {

namespace {

// The Halide target of the pipeline's cpu variant (the platform its unstored goldens are reproduced on).
std::string cpu_target_of(const std::string &pipeline) {
    const Variant *cpu = Registry::instance().find(pipeline, "cpu");
    return cpu && cpu->metadata ? cpu->metadata->target : "";
}

// The goldens of the case, verified against the manifest; a golden the repository does not store
// (nightly sizes) is reproduced by the cpu variant and checked against the manifest's sha256.
std::vector<Array> case_goldens(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c,
                                std::vector<Array> &inputs) {
    const Manifest manifest = Manifest::load(dir);
    std::vector<std::string> reproduced;
    std::vector<Array> goldens;
    for (size_t i = 0; i < c.outputs.size(); i++) {
        const std::string rel = golden_relpath(spec.name, c.name, c.outputs[i].name, c.outputs.size());
        const GoldenEntry *entry = manifest.find(rel);
        if (entry && !entry->stored && reproduced.empty()) {
            const Variant *cpu = Registry::instance().find(spec.name, "cpu");
            if (!cpu) throw Error("pipeline " + spec.name + " has no cpu variant to reproduce its golden");
            Invocation inv(*cpu, c, inputs);
            std::string err;
            if (inv.call(&err) != 0) throw Error("the cpu variant failed while reproducing the golden: " + err);
            for (const auto &o : inv.outputs())
                reproduced.push_back(npy_encode(o));
        }
        goldens.push_back(load_verified_golden(dir, manifest, rel, reproduced.empty() ? nullptr : &reproduced.at(i),
                                               cpu_target_of(spec.name)));
    }
    return goldens;
}

}  // namespace

void write_repro_case(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c,
                      const std::string &golden_dir, std::vector<Array> *inputs, std::vector<Array> *goldens) {
    make_dirs(dir + "/inputs");
    make_dirs(dir + "/golden");
    *inputs = case_inputs(c);
    const std::string id = spec.name + "/" + c.name;
    std::string case_txt = "# " + id + ": one argument per line (made by aot-harness)\n";
    for (size_t i = 0; i < c.inputs.size(); i++) {
        npy_save(dir + "/inputs/" + c.inputs[i].name + ".npy", (*inputs)[i]);
        case_txt += "input " + c.inputs[i].name + " inputs/" + c.inputs[i].name + ".npy\n";
    }
    const Variant *cpu = Registry::instance().find(spec.name, "cpu");
    for (const auto &[k, value] : c.scalars) {
        // The value the pipeline gets (a float16 scalar's nearest half, an integer's truncation), so
        // that the bundle's main passes the same bits.
        double exact = value;
        for (int i = 0; cpu && cpu->metadata && i < cpu->metadata->num_arguments; i++) {
            const halide_filter_argument_t &a = cpu->metadata->arguments[i];
            if (a.kind == halide_argument_kind_input_scalar && k == a.name)
                exact = scalar_as_double(scalar_from_double(value, a.type), a.type);
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", exact);
        case_txt += "scalar " + k + " " + buf + "\n";
    }
    *goldens = case_goldens(golden_dir, spec, c, *inputs);
    for (size_t i = 0; i < c.outputs.size(); i++) {
        npy_save(dir + "/golden/" + c.outputs[i].name + ".npy", (*goldens)[i]);
        case_txt += "output " + c.outputs[i].name + " golden/" + c.outputs[i].name + ".npy " +
                    core::rule_words(spec.tolerance_for(c.outputs[i].name).to_rule()) + "\n";
    }
    write_file_atomic(dir + "/case.txt", case_txt);
}

}  // namespace harness
