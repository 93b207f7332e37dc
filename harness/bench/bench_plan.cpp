// The benchmarks `aot-harness bench` selects (bench_plan.h): run's filters, plus --size and --mode.
#include "bench_plan.h"

#include <algorithm>
#include <map>
#include <cstdio>
#include <stdexcept>

#include "harness/parallel_pool.h"
#include "matrix/run_options.h"
#include "base/error.h"
#include "base/profile.h"
#include "matrix/run_matrix.h"

namespace harness::perf {

BenchOptions bench_options(const Args &args) {
    BenchOptions o;
    o.pipeline = args.get("pipeline");
    o.profile = args.get("profile");
    o.case_name = args.get("case");
    if (args.has("size")) o.sizes = parse_size_list(args.get("size"), "--size", "--size 4096x4096");
    const std::string mode = args.get("mode");
    if (mode == "resident") {
        o.roundtrip = false;
    } else if (mode == "roundtrip") {
        o.resident = false;
    } else if (mode != "all") {
        throw Error("--mode '" + mode + "' is not a benchmark mode; use resident, roundtrip or all");
    }
    o.repetitions = static_cast<int>(args.whole("repetitions"));
    if (args.has("min-time")) o.min_time = args.get("min-time");  // as given: its range was checked when parsed
    o.halide_pool = args.get("halide-pool");
    try {
        check_pool_name(o.halide_pool);
    } catch (const std::invalid_argument &e) {
        throw Error(std::string("--halide-pool: ") + e.what());
    }
    o.quick = args.has("quick");
    o.kernels = args.has("kernels");
    o.json = args.get("json");
    o.timeout = args.number("timeout");
    o.golden_dir = args.get("golden-dir");
    return o;
}

void plan_bench(const BenchOptions &o, BenchPlan &plan) {
    const Registry &reg = Registry::instance();
    RunOptions ro;
    ro.pipeline = o.pipeline;
    ro.profile = o.profile;
    ro.case_name = o.case_name;
    ro.modes = {"host"};
    const bool spec_cases = o.sizes.empty() || !o.case_name.empty();
    // plan_runs checks the filters (a name or glob that matches nothing is an error) and orders the runs:
    // the pipeline x profile pairs from every case, the spec's cases from --case.
    RunOptions every_case = ro;
    every_case.case_name = "";
    std::vector<std::pair<std::string, std::string>> pairs;  // pipeline, profile
    for (const auto &t : plan_runs(every_case)) {
        if (pairs.empty() || pairs.back() != std::make_pair(t.pipeline, t.profile))
            pairs.emplace_back(t.pipeline, t.profile);
    }
    const std::vector<RunTask> runs = spec_cases ? plan_runs(ro) : std::vector<RunTask>{};
    std::map<std::pair<std::string, std::string>, const CaseSpec *> sized;  // (pipeline, WxH) -> case
    for (const auto &[p, prof] : pairs) {
        const PipelineSpec &spec = reg.spec(p);
        std::vector<const CaseSpec *> cases;
        if (spec_cases) {
            for (const auto &t : runs) {
                if (t.pipeline == p && t.profile == prof) cases.push_back(&spec.find_case(t.case_name));
            }
        }
        for (const auto &[w, h] : o.sizes) {
            if (!spec.make_case) {
                const std::string note = p + ": --size needs a spec with make_case (a C++ spec using add_image_cases); "
                                             "this one has fixed cases: choose them with --case";
                if (std::find(plan.notes.begin(), plan.notes.end(), note) == plan.notes.end())
                    plan.notes.push_back(note);
                continue;
            }
            const std::string name = std::to_string(w) + "x" + std::to_string(h);
            const CaseSpec *&c = sized[{p, name}];
            if (!c) {
                plan.sized.push_back(spec.make_case(w, h));
                plan.sized.back().name = name;
                c = &plan.sized.back();
            }
            cases.push_back(c);
        }
        const bool gpu = find_profile(prof).is_gpu();
        for (const CaseSpec *c : cases) {
            if (o.resident) plan.tasks.push_back({p, prof, "resident", c});
            if (o.roundtrip && gpu) plan.tasks.push_back({p, prof, "roundtrip", c});
        }
    }
    if (plan.tasks.empty()) {
        throw Error(plan.notes.empty() ?
                        "no benchmark matches the filters (--mode roundtrip runs on GPU profiles only); "
                        "see aot-harness list" :
                        "no benchmark matches the filters: " + plan.notes.front());
    }
}

std::vector<std::pair<int, int>> parse_size_list(const std::string &text, const std::string &option,
                                                 const std::string &example) {
    std::vector<std::pair<int, int>> sizes;
    size_t at = 0;
    do {
        const size_t end = std::min(text.find(',', at), text.size());
        const std::string word = text.substr(at, end - at);
        int width = 0, height = 0;
        char x = 0, rest = 0;
        if (std::sscanf(word.c_str(), "%d%c%d%c", &width, &x, &height, &rest) != 3 || x != 'x' || width < 1 ||
            height < 1 || width > 65536 || height > 65536) {
            throw Error(option + " '" + word + "' is not WIDTHxHEIGHT (1..65536 each); write e.g. " + example);
        }
        sizes.emplace_back(width, height);
        at = end + 1;
    } while (at <= text.size());
    return sizes;
}

}  // namespace harness::perf
