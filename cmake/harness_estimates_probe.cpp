// The estimates probe's autoscheduler, "EstimatesOnly" (a plugin loaded into a generator with -p): it makes
// using_autoscheduler() true, so that a generator states the estimates it states only for an autoscheduler,
// and schedules nothing itself beyond computing every stage at the root. Mullapudi2016 refuses a pipeline
// with any input or scalar left without an estimate, and then the probe loses every estimate the generator
// did state; this one asks for none. The probe's code is never run: only its metadata is read, and
// computing every stage at the root keeps its compile short where inlining everything would not be.
#include "Halide.h"

#include <map>
#include <string>

namespace {

void estimates_only(const Halide::Pipeline &p, const Halide::Target &target, const Halide::AutoschedulerParams &params,
                    Halide::AutoSchedulerResults *results) {
    std::map<std::string, Halide::Internal::Function> stages;
    for (const Halide::Func &out : p.outputs()) {
        const auto calls = Halide::Internal::find_transitive_calls(out.function());
        stages.insert(calls.begin(), calls.end());
    }
    for (const Halide::Func &out : p.outputs())
        stages.erase(out.name());
    for (auto &kv : stages) {
        Halide::Func f(kv.second);
        Halide::LoopLevel at = kv.second.schedule().compute_level();  // a copy: locking one is for reading it
        at.lock();
        if (at.is_inlined()) f.compute_root();
    }
    results->target = target;
    results->autoscheduler_params = params;
    results->schedule_source = "// EstimatesOnly: every stage at the root\n";
}

struct Register {
    Register() { Halide::Pipeline::add_autoscheduler("EstimatesOnly", estimates_only); }
} register_estimates_only;

}  // namespace
