// Per-Func time of a CPU benchmark through Halide's profiler (func_times.h).
#include "bench/func_times.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "HalideRuntime.h"
#include "devices/runtime_hooks.h"
#include "variant/invocation.h"

namespace harness::perf {

namespace {

const char *const kClock =
    "Halide's sampling profiler (target feature `profile`, a twin of the variant): a thread notes the running Func "
    "every 1 ms; each call's samples are scaled to its time inside the pipeline";

// The profiler's statistics dropped, and its sampling thread stopped (it wakes every millisecond while it lives,
// which the next benchmark of this process would share its cores with). halide_profiler_shutdown() leaves the
// state's `shutdown` flag set, which would end the thread the next profiled call starts at once: cleared here.
void reset_profiler() {
    halide_profiler_reset();
    halide_profiler_shutdown();  // prints nothing: no pipeline left to report
    halide_profiler_state *s = halide_profiler_get_state();
    halide_profiler_lock(s);
    s->shutdown = 0;
    halide_profiler_unlock(s);
}

double ratio(uint64_t num, uint64_t den) {
    return den ? static_cast<double>(num) / static_cast<double>(den) : 0;
}

// The statistics of pipeline `name` as JSON (the profiler's lock held), or null when it has none. Halide's
// halide_profiler_get_pipeline_state compares names by pointer, so the list is walked here.
nlohmann::json read_pipeline(const std::string &name, std::string *seen) {
    halide_profiler_state *s = halide_profiler_get_state();
    halide_profiler_lock(s);
    nlohmann::json out;
    for (auto *p = s->pipelines; p; p = static_cast<halide_profiler_pipeline_stats *>(p->next)) {
        if (!seen->empty()) *seen += ", ";
        *seen += p->name ? p->name : "?";
        if (!p->name || name != p->name || p->runs <= 0) continue;
        const double runs = p->runs;
        out = {{"runs", p->runs},
               {"samples", p->samples},
               {"pipeline_ms_per_call", static_cast<double>(p->time) / runs / 1e6},
               {"average_threads", ratio(p->active_threads_numerator, p->active_threads_denominator)},
               {"heap_peak_bytes", p->memory_peak},
               {"heap_allocations_per_call", p->num_allocs / runs}};
        nlohmann::json funcs = nlohmann::json::array();
        for (int i = 0; i < p->num_funcs; i++) {
            const halide_profiler_func_stats &f = p->funcs[i];
            // Halide's first four ids are its own slots (overhead, waiting for parallel tasks, malloc, free):
            // listed only when they took time or allocated, as Halide's report does.
            if (i < 4 && f.time == 0 && f.num_allocs == 0) continue;
            funcs.push_back({{"func", f.name ? f.name : "?"},
                             {"ms_per_call", static_cast<double>(f.time) / runs / 1e6},
                             {"average_threads", ratio(f.active_threads_numerator, f.active_threads_denominator)},
                             {"heap_peak_bytes", f.memory_peak},
                             {"heap_allocations_per_call", f.num_allocs / runs},
                             {"stack_peak_bytes", f.stack_peak}});
        }
        out["funcs"] = funcs;
    }
    halide_profiler_unlock(s);
    return out;
}

}  // namespace

nlohmann::json func_profile_missing(const std::string &profile) {
    return {{"note", "CPU variant: no GPU kernels, and no profiled twin for Halide's per-Func times in this build; "
                     "configure with -DAOT_HARNESS_FUNC_PROFILE=" +
                         profile + " and build again (docs/benchmarks.md)"},
            {"no_twin", profile}};
}

std::string missing_twins_text(const nlohmann::json &breakdowns) {
    std::string names, profiles;
    int n = 0;
    for (const auto &[name, b] : breakdowns.items()) {
        if (!b.contains("no_twin")) continue;
        if (n++ < 3) names += (names.empty() ? "" : ", ") + name;
        const std::string p = b["no_twin"].get<std::string>();
        if ((";" + profiles + ";").find(";" + p + ";") == std::string::npos)
            profiles += (profiles.empty() ? "" : ";") + p;
    }
    if (n == 0) return "";
    if (n > 3) names += ", ...";
    if (profiles.find(';') != std::string::npos) profiles = "'" + profiles + "'";  // a list, quoted for the shell
    return std::to_string(n) + " CPU benchmark(s) without a profiled twin for Halide's per-Func times (" + names +
           "): configure with -DAOT_HARNESS_FUNC_PROFILE=" + profiles + " and build again (docs/benchmarks.md)\n";
}

nlohmann::json measure_func_breakdown(const Variant &twin, const CaseSpec &c, std::vector<Array> &inputs, int calls,
                                      double min_seconds) {
    nlohmann::json out{{"variant", twin.function_name}, {"clock", kClock}};
    if (const std::string why = compile_error_message(twin); !why.empty()) {
        out["error"] = why;
        return out;
    }
    out["target"] = twin.metadata->target;
    if (("-" + std::string(twin.metadata->target) + "-").find("-profile-") == std::string::npos) {
        out["error"] = "the profiled twin was built without Halide's profile feature (target " +
                       std::string(twin.metadata->target) + "); rebuild it (AotHarnessFuncProfile.cmake)";
        return out;
    }
    std::unique_ptr<Invocation> inv;
    std::string err;
    try {
        inv = std::make_unique<Invocation>(twin, c, inputs);
    } catch (const std::exception &e) {
        out["error"] = std::string("the profiled twin does not take the case: ") + e.what();
        return out;
    }
    if (inv->call(&err) != 0) {  // the warm-up: first-call allocations stay out of the statistics
        out["error"] = "the profiled twin failed: " + err;
        return out;
    }
    reset_profiler();
    double wall_s = 0;
    int done = 0;
    for (; done < calls || (wall_s < min_seconds && done < 100 * calls); done++) {
        const auto t0 = std::chrono::steady_clock::now();
        const int rc = inv->call_resident();
        wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) {
            out["error"] = "the profiled twin failed: " + take_halide_error();
            break;
        }
    }
    std::string seen;
    const nlohmann::json stats = read_pipeline(twin.function_name, &seen);
    reset_profiler();
    out["calls"] = done;
    const double wall_ms = done ? wall_s * 1e3 / done : 0;
    out["wall_ms_per_call"] = wall_ms;
    if (stats.is_null()) {
        out["note"] = "Halide's profiler has no statistics of " + twin.function_name +
                      " (pipelines it has: " + (seen.empty() ? "none" : seen) + ")";
        return out;
    }
    double sum = 0;
    for (const auto &[k, v] : stats.items())
        out[k] = v;
    for (auto &f : out["funcs"]) {
        sum += f["ms_per_call"].get<double>();
        if (wall_ms > 0) f["share_of_wall"] = f["ms_per_call"].get<double>() / wall_ms;
    }
    out["funcs_ms_per_call"] = sum;
    if (wall_ms > 0) out["share_of_wall"] = sum / wall_ms;
    if (stats.value("samples", 0) == 0) {
        out["note"] = "no sample fell inside a call (calls shorter than the profiler's 1 ms interval): the Funcs show "
                      "no time; measure a bigger --size";
    }
    return out;
}

void add_func_counters(benchmark::State &state, const nlohmann::json &b) {
    if (b.contains("funcs_ms_per_call")) state.counters["funcs_ms"] = b["funcs_ms_per_call"].get<double>();
    if (b.contains("share_of_wall")) state.counters["funcs_share_pct"] = 100 * b["share_of_wall"].get<double>();
    for (const auto &f : b.value("funcs", nlohmann::json::array()))
        state.counters["func_ms/" + f["func"].get<std::string>()] = f["ms_per_call"].get<double>();
}

std::string func_breakdown_text(const std::string &benchmark, const nlohmann::json &b) {
    char line[512];
    if (!b.contains("calls")) {
        const std::string why = b.value("error", b.value("note", std::string("not measured")));
        return benchmark + ": " + why + "\n";
    }
    std::string s =
        benchmark + ": " + std::to_string(b.value("calls", 0)) + " calls of " + b.value("variant", std::string("?"));
    std::snprintf(line, sizeof line, ", wall %.4f ms per call", b.value("wall_ms_per_call", 0.0));
    s += line;
    if (b.contains("timed_ms_per_call")) {
        std::snprintf(line, sizeof line, " (the timed loop, unprofiled: %.4f ms)",
                      b["timed_ms_per_call"].get<double>());
        s += line;
    }
    if (b.contains("pipeline_ms_per_call")) {
        std::snprintf(line, sizeof line, "; in the pipeline %.4f ms, Funcs %.4f ms (%.0f %% of the wall), %d samples",
                      b["pipeline_ms_per_call"].get<double>(), b.value("funcs_ms_per_call", 0.0),
                      100 * b.value("share_of_wall", 0.0), b.value("samples", 0));
        s += line;
    }
    s += "\n  clock: " + b.value("clock", std::string("?")) + "\n";
    if (b.contains("note")) s += "  note: " + b["note"].get<std::string>() + "\n";
    if (b.contains("error")) s += "  error: " + b["error"].get<std::string>() + "\n";
    std::snprintf(line, sizeof line, "  %-40s %11s %6s %8s %13s %12s\n", "func", "ms per call", "share", "threads",
                  "heap peak", "allocs/call");
    s += line;
    for (const auto &f : b.value("funcs", nlohmann::json::array())) {
        char share[16] = "-";
        if (f.contains("share_of_wall"))
            std::snprintf(share, sizeof share, "%.0f %%", 100 * f["share_of_wall"].get<double>());
        std::snprintf(line, sizeof line, "  %-40s %11.4f %6s %8.2f %11llu B %12.2f\n",
                      f["func"].get<std::string>().c_str(), f.value("ms_per_call", 0.0), share,
                      f.value("average_threads", 0.0),
                      static_cast<unsigned long long>(f.value("heap_peak_bytes", uint64_t(0))),
                      f.value("heap_allocations_per_call", 0.0));
        s += line;
    }
    return s;
}

}  // namespace harness::perf
