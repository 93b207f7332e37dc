// run_case: one case of one variant in this process, verified (runner.h).
#include "run/runner.h"
#include "variant/test_fault.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>

#include <sys/resource.h>
#include <unistd.h>

#include "run/determinism.h"
#include "values/default_tolerance.h"
#include "base/error.h"
#include "base/files.h"
#include "golden/golden.h"
#include "run/reproduced_cache.h"
#include "values/images.h"
#include "variant/inputs.h"
#include "spec/metadata_cases.h"
#include "devices/probe_in_child.h"
#include "devices/runtime_hooks.h"
#include "values/npy.h"
#include "base/profile.h"

namespace harness {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Elements of output `o` that still hold every repeat's canary byte pattern.
size_t canary_left(const std::vector<std::vector<Array>> &reps, const std::vector<uint8_t> &canaries, size_t o,
                   size_t *first) {
    const Array &a0 = reps[0][o];
    const size_t eb = a0.element_bytes(), n = a0.elements();
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        bool all = true;
        for (size_t r = 0; r < reps.size() && all; r++) {
            const uint8_t *p = reps[r][o].bytes.data() + i * eb;
            for (size_t k = 0; k < eb; k++)
                all &= p[k] == canaries[r];
        }
        if (all && count++ == 0) *first = i;
    }
    return count;
}

// The Halide target of the pipeline's cpu variant (the platform its unstored goldens are reproduced on).
std::string cpu_target_of(const std::string &pipeline) {
    const Variant *cpu = Registry::instance().find(pipeline, "cpu");
    return cpu && cpu->metadata ? cpu->metadata->target : "";
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
    for (const auto &o : outputs)
        bytes.push_back(npy_encode(o));
    return bytes;
}

std::string coords_string(const Array &a, size_t i) {
    std::string s;
    for (int c : a.coords(i))
        s += (s.empty() ? "(" : ",") + std::to_string(c);
    return s + ")";
}

// Which check of the repeats failed first (a canary left in an output, repeats that differ), "" if none.
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
            if (a0.bytes == reps[r][o].bytes) continue;  // the common case, at memcmp speed
            for (size_t i = 0; i < n; i++) {
                if (std::memcmp(a0.bytes.data() + i * eb, reps[r][o].bytes.data() + i * eb, eb) != 0 && differ++ == 0) {
                    first_diff = i;
                }
            }
            if (differ) {
                return "non-deterministic: repeat " + std::to_string(r + 1) + " of output '" + c.outputs[o].name +
                       "' differs from repeat 1 in " + std::to_string(differ) + " of " + std::to_string(n) +
                       " elements (first at " + coords_string(a0, first_diff) + ": " +
                       std::to_string(a0.value(first_diff)) + " then " + std::to_string(reps[r][o].value(first_diff)) +
                       ")";
            }
        }
    }
    return "";
}

// The goldens of a case's outputs, verified against the manifest. Reads only; when a bless commits
// while this reads (a golden no longer matches the manifest it was read with, and the manifest
// changed), it reads again.
// `nondeterministic` receives what bless found of the cpu variant's runs ("" if deterministic); `source`,
// where unstored goldens came from ("" if all are stored): "cpu variant" (run here) or "kept" (by an
// earlier child of the run, reproduced_cache.h).
std::vector<Array> load_case_goldens(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c,
                                     std::vector<Array> &inputs, const std::vector<Array> &outputs, bool is_cpu,
                                     std::string *nondeterministic, std::string *source) {
    std::vector<std::string> reproduced;  // cpu results for goldens that are not stored
    for (int attempt = 0;; attempt++) {
        const Manifest manifest = Manifest::load(dir);
        try {
            std::vector<Array> goldens;
            for (size_t i = 0; i < c.outputs.size(); i++) {
                const std::string rel = golden_relpath(spec.name, c.name, c.outputs[i].name, c.outputs.size());
                const GoldenEntry *entry = manifest.find(rel);
                if (entry && !entry->nondeterministic.empty()) *nondeterministic = entry->nondeterministic;
                if (entry && !entry->stored && reproduced.empty()) {
                    // The cpu profile checks its own outputs; every other one reads what an earlier child
                    // of the run reproduced and verified, else runs the cpu variant.
                    *source = "kept";
                    if (is_cpu || !read_kept_outputs(spec, c, manifest, cpu_target_of(spec.name), &reproduced)) {
                        reproduced = reproduce_cpu_outputs(spec, c, inputs, is_cpu ? &outputs : nullptr);
                        *source = "cpu variant";
                    }
                }
                try {
                    goldens.push_back(load_verified_golden(dir, manifest, rel,
                                                           reproduced.empty() ? nullptr : &reproduced.at(i),
                                                           cpu_target_of(spec.name)));
                } catch (const Error &) {
                    if (*source != "kept") throw;
                    // A damaged kept copy is the cache's fault, not the golden's: reproduce it here.
                    reproduced = reproduce_cpu_outputs(spec, c, inputs, nullptr);
                    *source = "cpu variant";
                    goldens.push_back(
                        load_verified_golden(dir, manifest, rel, &reproduced.at(i), cpu_target_of(spec.name)));
                }
            }
            keep_verified_outputs(spec, c, manifest, cpu_target_of(spec.name), reproduced);
            return goldens;
        } catch (const Error &) {
            if (attempt == 3 || Manifest::load(dir, true).text() == manifest.text()) throw;
        }
    }
}

// Throws the error load_verified_golden gives when an output of the case has no manifest entry.
void require_golden_entries(const std::string &dir, const PipelineSpec &spec, const CaseSpec &c) {
    const Manifest manifest = Manifest::load(dir, /*allow_missing=*/true);
    for (const auto &o : c.outputs) {
        const std::string rel = golden_relpath(spec.name, c.name, o.name, c.outputs.size());
        if (!manifest.find(rel)) load_verified_golden(dir, manifest, rel);
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
    // An Error outside the pipeline's calls comes from the build, the spec or the files (an element type
    // the harness does not support, a missing golden): it fails the same way every time, so the matrix
    // must not retry it as if it could flake.
    bool in_calls = false;
    try {
        const BufferMode mode = buffer_mode_from_name(req.mode);
        const Registry &reg = Registry::instance();
        const PipelineSpec &spec = reg.spec(req.pipeline);
        find_profile(req.profile);
        const CaseSpec &c = spec.find_case(req.case_name);
        const Variant *v = reg.find(req.pipeline, req.profile);
        if (!v)
            throw Error("pipeline " + req.pipeline + " has no " + req.profile +
                        " variant in this build; rebuild with that profile");
        r.target = v->metadata->target;
        if (!v->compile_error.empty()) {
            r.metrics["deterministic"] = true;  // a rebuild, not a retry, can change it
            throw Error(compile_error_message(*v));
        }
        if (!c.error.empty()) {
            r.metrics["deterministic"] = true;
            throw Error(c.error);
        }

        std::vector<Array> inputs = case_inputs(c, req.golden_dir + "/inputs");
        std::vector<HostBytes> input_bytes;  // to check the inputs unchanged (a byte compare)
        for (const auto &a : inputs)
            input_bytes.push_back(a.bytes);
        Invocation inv(*v, c, inputs, mode, req.guard);
        static const uint8_t kCanaries[] = {0xCD, 0x32, 0xA7};
        std::vector<uint8_t> canaries;
        std::vector<std::vector<Array>> reps;
        std::string failure;
        // The repeats: each fills the outputs with another canary (or, for outputs updated in place,
        // the same seeded values), calls, and checks the guard bands. Returns false after an error
        // (the record says which).
        const auto repeat = [&]() {
            canaries.clear(), reps.clear(), failure.clear();
            r.metrics["run_ms"] = nlohmann::json::array();
            for (int rep = 0; rep < std::max(1, req.repeats) && failure.empty(); rep++) {
                canaries.push_back(kCanaries[rep % 3]);
                std::string halide_error;
                const auto t_call = std::chrono::steady_clock::now();
                const int err = inv.call(&halide_error, canaries.back(), test_fault_of(req.pipeline));
                r.metrics["run_ms"].push_back(ms_since(t_call));
                if (err != 0) {
                    r.outcome = Outcome::Error;
                    r.metrics["halide_error_code"] = err;
                    // An emulated device's refusal (device_personality.h) is as repeatable as the device's.
                    if (is_deterministic_halide_error(err) || halide_error.rfind(kDeviceLimitPrefix, 0) == 0)
                        r.metrics["deterministic"] = true;
                    r.message = "error " + std::to_string(err) + ": " + halide_error;
                    r.duration_ms = ms_since(t0);
                    return false;
                }
                reps.push_back(inv.outputs());
                failure = inv.check_guards();
            }
            for (size_t i = 0; i < inputs.size() && failure.empty(); i++) {
                if (inputs[i].bytes != input_bytes[i]) {
                    failure = "input '" + c.inputs[i].name + "' was modified by the pipeline";
                }
            }
            if (failure.empty()) failure = verify_repeats(c, reps, canaries);
            return true;
        };
        // A case without a golden is an ERROR before any call: running it would only spend its time (a case
        // that outlasted bless's time limit would run into the timeout on every profile).
        require_golden_entries(req.golden_dir, spec, c);
        in_calls = true;
        if (!repeat()) return r;
        // Repeats that differ with the canary but not with the same canary again: the outputs are
        // updated in place (result(i, j) = undef(); result(i, j) += ...). Bless detects it the same
        // way, so both start them from the same seeded values.
        if (failure.rfind("non-deterministic", 0) == 0 && inv.detect_in_place()) {
            if (!repeat()) return r;
            r.metrics["in_place_outputs"] = true;
        }
        r.metrics["repeats"] = reps.size();
        r.metrics["tolerance"] = spec.tolerance.name();
        r.metrics["output_sha256"] = outputs_digest(reps.at(0));  // the matrix compares a cpu run's attempts
        const std::string check_failure = failure;                // guards, canaries, inputs, repeats: not the golden

        in_calls = c.nightly;  // a nightly golden is reproduced by calling the cpu variant
        std::string golden_nondeterministic, golden_source;
        const std::vector<Array> goldens =
            load_case_goldens(req.golden_dir, spec, c, inputs, reps.at(0), req.profile == "cpu",
                              &golden_nondeterministic, &golden_source);
        if (!golden_source.empty()) r.metrics["golden_reproduced_by"] = golden_source;
        in_calls = false;
        std::string measured;
        for (size_t i = 0; i < c.outputs.size(); i++) {
            const Array &golden = goldens.at(i);
            const Array &out = reps.at(0).at(i);
            const Tolerance &tol = spec.tolerance_for(c.outputs[i].name);
            const CompareResult cr = compare(golden, out, tol);
            r.metrics["outputs"][c.outputs[i].name] = cr.to_json();
            // What was measured next to what is allowed, so that a user can set the tolerance ("within"
            // only where every element is).
            measured += (measured.empty() ? "" : "; ") + (c.outputs.size() > 1 ? c.outputs[i].name + ": " : "") +
                        measured_error(cr, out.type) + (cr.passed ? " within " : ", not within ") + tol.name();
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
        std::string guards = inv.dense_outputs().empty() ?
                                 "guards intact" :
                                 "guards intact (none around dense outputs the generator's strides fix)";
        if (inv.in_place()) guards += "; outputs updated in place, started from seeded values";
        r.message = failure.empty() ? "matches golden: " + measured + "; " + std::to_string(reps.size()) +
                                          " repeats bit-identical, " + guards :
                                      failure + " (" + measured + ")";
        // No exact golden exists when the cpu variant, its maker, is non-deterministic: as bless found it,
        // or as this run shows (its repeats differ on the cpu profile). Not judged, and not retried.
        const bool repeats_differ = check_failure.rfind("non-deterministic", 0) == 0;
        std::string nondeterministic = golden_nondeterministic;
        if (nondeterministic.empty() && repeats_differ && req.profile == "cpu")
            nondeterministic = "the cpu variant's repeats in one process differ (" + check_failure + ")";
        if (!nondeterministic.empty() && (check_failure.empty() || repeats_differ)) {
            r.outcome = Outcome::Nondeterministic;
            r.metrics["nondeterministic"] = nondeterministic;
            r.message =
                "not judged: " + nondeterministic + ", so its golden is one answer of several; this run " +
                (failure.empty() ? "matches it (" + measured + ")" : "gives " + failure + " (" + measured + ")");
        }
        // A golden of a case the harness made up (no C++ spec) that holds next to no information.
        if (!spec.spec_source.empty()) {
            std::vector<std::string> names;
            for (const auto &o : c.outputs)
                names.push_back(o.name);
            const std::string why = degenerate_outputs(goldens, names);
            if (!why.empty()) {
                r.metrics["degenerate_golden"] = why;
                r.message += "; degenerate golden: " + why + " (inputs or scalars that test little; see describe)";
            }
        }
    } catch (const Error &e) {
        r.outcome = Outcome::Error;
        r.message = e.what();
        if (!in_calls) r.metrics["deterministic"] = true;
    } catch (const std::exception &e) {
        r.outcome = Outcome::Error;
        r.message = e.what();
    }
    r.duration_ms = ms_since(t0);
    return r;
}

bool is_deterministic_halide_error(int err) {
    switch (err) {
    case halide_error_code_explicit_bounds_too_small:
    case halide_error_code_bad_type:
    case halide_error_code_access_out_of_bounds:
    case halide_error_code_buffer_allocation_too_large:
    case halide_error_code_buffer_extents_too_large:
    case halide_error_code_constraints_make_required_region_smaller:
    case halide_error_code_constraint_violated:
    case halide_error_code_param_too_small:
    case halide_error_code_param_too_large:
    case halide_error_code_buffer_argument_is_null:
    case halide_error_code_bad_fold:
    case halide_error_code_fold_factor_too_small:
    case halide_error_code_requirement_failed:
    case halide_error_code_buffer_extents_negative:
    case halide_error_code_specialize_fail:
    case halide_error_code_bad_extern_fold:
    case halide_error_code_bad_dimensions:
    case halide_error_code_storage_bound_too_small:
    case halide_error_code_split_factor_not_positive:
        return true;
    default:
        return false;
    }
}

std::string try_case_on_cpu(const Variant &cpu, const CaseSpec &c) {
    constexpr int kTrialSeconds = 30;
    const nlohmann::json r = probe_in_child(
        [&]() -> nlohmann::json {
            // A guess that makes the pipeline run away must not hang or swamp whoever derives the spec.
            alarm(kTrialSeconds);
            const rlimit mem{rlim_t(4) << 30, rlim_t(4) << 30};
            setrlimit(RLIMIT_AS, &mem);
            std::vector<Array> inputs = case_inputs(c, default_golden_dir() + "/inputs");
            Invocation inv(cpu, c, inputs);
            std::string err;
            if (inv.call(&err) != 0) return {{"why", "the cpu variant failed: " + err}};
            std::vector<std::string> names;
            for (const auto &o : c.outputs)
                names.push_back(o.name);
            return {{"why", degenerate_outputs(inv.outputs(), names)}};
        },
        "a trial of a derived case");
    if (r.contains("why")) return r["why"].get<std::string>();
    if (r.value("signal", 0) == SIGALRM) return trial_out_of_time(kTrialSeconds);
    return r.value("error", std::string("the trial run did not report"));
}

}  // namespace harness
