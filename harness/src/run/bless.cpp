// bless and golden recover (bless.h).
#include "run/bless.h"

#include <map>
#include <set>

#include "harness/compare.h"
#include "base/error.h"
#include "golden/golden.h"
#include "golden/golden_transaction.h"
#include "variant/inputs.h"
#include "values/npy.h"
#include "harness/registry.h"
#include "run/determinism.h"
#include "spec/metadata_cases.h"
#include "run/runner.h"
#include "devices/runtime_hooks.h"
#include "base/sha256.h"

namespace harness {

namespace {

struct PendingGolden {
    GoldenEntry entry;
    std::string bytes;  // the .npy ("" for a golden that is not stored)
};

std::string halide_version() {
    return std::to_string(HALIDE_VERSION_MAJOR) + "." + std::to_string(HALIDE_VERSION_MINOR) + "." +
           std::to_string(HALIDE_VERSION_PATCH);
}

// Runs of a derived case in processes of their own (determinism.h), per case, before bless calls any
// pipeline itself; the golden's own run and one more in this process join them in bless_case.
constexpr int kChildRuns = 2;

// The goldens of one case, checked against the spec's reference. Throws Error saying why the case
// cannot be blessed. `child_digests`: the case's outputs as runs of their own gave them (derived specs).
std::vector<PendingGolden> bless_case(const PipelineSpec &spec, const Variant &cpu, const CaseSpec &c,
                                      const std::string &input_dir, const std::vector<std::string> &child_digests) {
    const std::string &pipeline = spec.name;
    if (!c.error.empty()) throw Error(c.error);
    std::vector<Array> inputs = case_inputs(c, input_dir);
    Invocation inv(cpu, c, inputs);
    // A derived case's outputs may be updated in place (runner.cpp detects it the same way).
    if (!spec.spec_source.empty()) inv.detect_in_place();
    std::string err_msg;
    if (inv.call(&err_msg) != 0) throw Error("the cpu variant failed (" + err_msg + ")");
    std::string nondeterministic;
    if (!child_digests.empty()) {
        const std::string first = outputs_digest(inv.outputs());
        if (inv.call(&err_msg) != 0) throw Error("the cpu variant failed the second time (" + err_msg + ")");
        nondeterministic = nondeterminism_of({first, outputs_digest(inv.outputs())}, child_digests);
    }
    // Specs from metadata or JSON have no reference: the cpu variant's output is the golden.
    const std::vector<Array> expected = spec.reference ? spec.reference(c, inputs) : std::vector<Array>{};
    std::string input_recipe;
    for (const auto &b : c.inputs)
        input_recipe += (input_recipe.empty() ? "" : "; ") + b.name + ": " + b.recipe.describe();
    const std::vector<Array> outputs = inv.outputs();
    std::vector<PendingGolden> pending;
    for (size_t i = 0; i < c.outputs.size(); i++) {
        const Tolerance &tol = spec.tolerance_for(c.outputs[i].name);
        const CompareResult check = spec.reference ? compare(expected.at(i), outputs[i], tol) : CompareResult{};
        if (spec.reference && !check.passed) {
            throw Error("the cpu result of output '" + c.outputs[i].name + "' disagrees with the reference (" +
                        check.message + "); fix the generator or the reference");
        }
        PendingGolden g;
        g.bytes = npy_encode(outputs[i]);
        GoldenEntry &e = g.entry;
        e.file = golden_relpath(pipeline, c.name, c.outputs[i].name, c.outputs.size());
        e.pipeline = pipeline;
        e.case_name = c.name;
        e.output = c.outputs[i].name;
        e.dtype = dtype_name(outputs[i].type);
        e.shape.assign(outputs[i].shape.begin(), outputs[i].shape.end());
        e.sha256 = sha256_hex(g.bytes);
        e.profile = "cpu";
        e.target = cpu.metadata->target;
        e.halide_version = halide_version();
        e.generator_sha256 = spec.generator_sha256;
        e.input_recipe = input_recipe;
        e.reference_check =
            spec.reference ?
                nlohmann::json{{"tolerance", tol.name()}, {"passed", true}, {"max_abs_error", check.max_abs_error}} :
                nlohmann::json{
                    {"reference", "none: spec from " + spec.spec_source + "; the golden is the cpu variant's output"}};
        e.nondeterministic = nondeterministic;
        if (c.nightly) {
            e.stored = false;  // reproduced by the cpu variant at run time (manifest.h)
            g.bytes.clear();
        }
        pending.push_back(std::move(g));
    }
    return pending;
}

}  // namespace

namespace {

// `bless --platform-hash`: the hash of this platform's cpu result (`g`, checked against the reference
// already) recorded in the manifest entry blessed on another platform. Returns the line for `written`;
// throws Error when the entry cannot take it.
std::string record_platform_hash(Manifest &manifest, const PendingGolden &g) {
    const std::string &target = g.entry.target;
    const GoldenEntry *old = manifest.find(g.entry.file);
    const std::string which = "--pipeline " + g.entry.pipeline + " --case " + g.entry.case_name;
    if (!old) throw Error("golden/MANIFEST.json has no entry yet; bless it first (`aot-harness bless " + which + "`)");
    if (old->target == target)
        throw Error("it was blessed on this target (" + target + "); refresh it with `aot-harness bless " + which +
                    "`, without --platform-hash");
    if (old->generator_sha256 != g.entry.generator_sha256)
        throw Error("the manifest's golden comes from another generator (" + old->generator_sha256.substr(0, 12) +
                    ", built: " + g.entry.generator_sha256.substr(0, 12) + "); bless it on " + old->target + " first");
    if (old->dtype != g.entry.dtype || old->shape != g.entry.shape)
        throw Error("this platform's result is " + g.entry.dtype + " " + nlohmann::json(g.entry.shape).dump() +
                    ", the manifest's " + old->dtype + " " + nlohmann::json(old->shape).dump() +
                    ": not a difference of float bits; fix the generator");
    GoldenEntry e = *old;
    std::string line = "golden/" + e.file + " " + target + " sha256 " + g.entry.sha256.substr(0, 12);
    if (g.entry.sha256 == old->sha256) {
        e.platform_sha256.erase(target);
        line += " (the same as " + old->target + "'s: no platform hash needed)";
    } else {
        e.platform_sha256[target] = g.entry.sha256;
        line += " (platform hash; " + old->target + "'s stays)";
    }
    manifest.upsert(e);
    return line;
}

}  // namespace

BlessResult bless(const std::string &golden_dir, const std::vector<std::string> &pipelines,
                  const std::string &case_name, double wait_s, bool platform_hash) {
    std::vector<const PipelineSpec *> specs;
    for (const auto &p : pipelines)
        specs.push_back(&Registry::instance().spec(p));
    if (!case_name.empty() && specs.size() == 1) specs[0]->find_case(case_name);  // throws listing the cases
    install_halide_error_handler();
    // Every case is computed and checked before the lock is taken; a case that cannot be blessed is
    // named with why, and the others are still blessed, in one transaction.
    BlessResult result;
    std::vector<PendingGolden> pending;
    // Derived specs (no reference to check the cpu result): each case's cpu outputs from runs of their
    // own, all forked before this process calls a pipeline (determinism.h).
    std::map<std::string, std::vector<std::string>> child_digests;
    // A case whose cpu run outlasted a child's time limit is not run again here (it would hold bless as
    // long again, or for ever): it is named with why, and the other cases are blessed.
    std::map<std::string, std::string> out_of_time;
    for (const PipelineSpec *spec : specs) {
        const Variant *cpu = Registry::instance().find(spec->name, "cpu");
        if (spec->spec_source.empty() || !cpu || !cpu->compile_error.empty()) continue;
        for (const auto &c : spec->cases) {
            if ((!case_name.empty() && c.name != case_name) || !c.error.empty()) continue;
            const std::string key = spec->name + "/" + c.name;
            for (int k = 0; k < kChildRuns && !out_of_time.count(key); k++) {
                std::string error;
                child_digests[key].push_back(cpu_digest_in_child(*cpu, c, golden_dir + "/inputs", true, &error));
                if (is_trial_out_of_time(error)) out_of_time[key] = error;
            }
        }
    }
    for (const PipelineSpec *spec : specs) {
        const Variant *cpu = Registry::instance().find(spec->name, "cpu");
        for (const auto &c : spec->cases) {
            if (!case_name.empty() && c.name != case_name) continue;
            if (platform_hash && !c.nightly) continue;  // stored goldens are compared under tolerances
            try {
                if (!cpu) throw Error("no cpu variant; goldens come only from the cpu profile");
                if (!cpu->compile_error.empty()) throw Error(compile_error_message(*cpu));
                if (const auto slow = out_of_time.find(spec->name + "/" + c.name); slow != out_of_time.end()) {
                    throw Error(slow->second + ", so it was not blessed: a test of it would time out; state "
                                               "smaller sizes for it in a JSON spec (SPEC <file>.json)");
                }
                const auto digests = child_digests.find(spec->name + "/" + c.name);
                for (auto &g :
                     bless_case(*spec, *cpu, c, golden_dir + "/inputs",
                                digests == child_digests.end() ? std::vector<std::string>{} : digests->second))
                    pending.push_back(std::move(g));
            } catch (const std::exception &e) {
                result.failed.push_back(spec->name + "/" + c.name + ": " + e.what());
            }
        }
    }
    if (pending.empty()) return result;
    const GoldenLock lock(golden_dir, wait_s);
    recover_interrupted_bless(golden_dir);
    Manifest manifest = Manifest::load(golden_dir, /*allow_missing=*/true);
    std::vector<std::pair<std::string, std::string>> files;
    for (auto &g : pending) {
        if (platform_hash) {
            try {
                result.written.push_back(record_platform_hash(manifest, g));
            } catch (const Error &e) {
                result.failed.push_back(g.entry.pipeline + "/" + g.entry.case_name + ": " + e.what());
            }
            continue;
        }
        std::string dropped;
        if (const GoldenEntry *old = manifest.find(g.entry.file); old && !old->platform_sha256.empty()) {
            // Other platforms' hashes stay valid while this result stays the same.
            if (old->sha256 == g.entry.sha256 && old->target == g.entry.target && !g.entry.stored) {
                g.entry.platform_sha256 = old->platform_sha256;
            } else {
                for (const auto &[t, h] : old->platform_sha256)
                    dropped += (dropped.empty() ? "" : ", ") + t;
                dropped = "; dropped the platform hashes of " + dropped + " (the result changed): record them again";
            }
        }
        result.written.push_back("golden/" + g.entry.file + " sha256 " + g.entry.sha256.substr(0, 12) +
                                 (g.entry.stored ? "" : " (not stored: reproduced by the cpu variant at run time)") +
                                 (g.entry.nondeterministic.empty() ?
                                      "" :
                                      " (non-deterministic: " + g.entry.nondeterministic +
                                          "; runs against this golden are NONDET, not judged)") +
                                 dropped);
        if (g.entry.stored) files.emplace_back(g.entry.file, std::move(g.bytes));
        manifest.upsert(g.entry);
    }
    if (result.written.empty()) return result;
    commit_goldens(golden_dir, files, manifest);  // one transaction for every blessed case
    return result;
}

std::vector<std::string> stale_generator_provenance(const Manifest &manifest) {
    const Registry &reg = Registry::instance();
    std::vector<std::string> lines;
    for (const auto &pipeline : reg.pipelines()) {
        const std::string built = reg.generator_sha256(pipeline);  // no derivation: `run` calls this for every pipeline
        std::set<std::string> recorded;
        size_t stale = 0, total = 0;
        for (const auto &e : manifest.entries()) {
            if (e.pipeline != pipeline) continue;
            total++;
            if (e.generator_sha256 != built) {
                stale++;
                recorded.insert(e.generator_sha256.empty() ? "none" : e.generator_sha256.substr(0, 12));
            }
        }
        if (stale == 0) continue;
        std::string was;
        for (const auto &r : recorded)
            was += (was.empty() ? "" : ", ") + r;
        lines.push_back("golden/" + pipeline + "/: " + std::to_string(stale) + " of " + std::to_string(total) +
                        " goldens record generator_sha256 " + was + ", the built generator is " + built.substr(0, 12) +
                        " (its source changed after the last bless); refresh the provenance with `aot-harness bless "
                        "--pipeline " +
                        pipeline + "` (the bytes stay as they are if the cpu result did not change)");
    }
    return lines;
}

std::string recover_goldens(const std::string &golden_dir, double wait_s) {
    const GoldenLock lock(golden_dir, wait_s);
    return recover_interrupted_bless(golden_dir);
}

}  // namespace harness
