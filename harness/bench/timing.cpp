// The timed loop of a pipeline benchmark and its paired references (harness/bench/timing.h).
#include "bench/timing.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "variant/invocation.h"
#include "devices/runtime_hooks.h"
#include "bench/func_times.h"
#include "bench/kernel_times.h"

namespace harness::perf {

using Clock = std::chrono::steady_clock;

int all_threads() {
    // Halide's pool takes HL_NUM_THREADS where it is set (else one thread per online CPU), so the
    // OpenCV peer and the copy get the same count: `taskset -c 0,1` with HL_NUM_THREADS=2 measures
    // two cores of a bigger machine (hardware_concurrency ignores the affinity mask).
    if (const char *env = std::getenv("HL_NUM_THREADS")) {
        const int n = std::atoi(env);
        if (n > 0) return n;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int profile_threads(const Profile &p) {
    return p.schedule == "portable" ? 1 : all_threads();
}

Work work_of(const CaseSpec &c) {
    Work w;
    const auto count = [](const BufferSpec &b) {
        double n = b.type.bytes();
        for (int d : b.shape)
            n *= d;
        return n;
    };
    for (const auto &b : c.inputs)
        w.bytes += count(b);
    for (const auto &b : c.outputs)
        w.bytes += count(b);
    // The first image output (hist_equalize's first output is its histogram), else the first input
    // (reduce_stats reduces an image to 3 numbers).
    const BufferSpec *image = nullptr;
    for (const auto &b : c.outputs) {
        if (!image && b.shape.size() >= 2) image = &b;
    }
    if (!image) image = c.inputs.empty() ? &c.outputs.at(0) : &c.inputs.at(0);
    const auto &shape = image->shape;
    w.pixels = shape.empty() ? 1 : static_cast<double>(shape.at(0)) * (shape.size() > 1 ? shape[1] : 1);
    return w;
}

// What case_inputs() makes of a case: equal keys, equal arrays (another pipeline's case of the same
// inputs, e.g. a schedule variant's, reuses them instead of making 1 GB again).
static std::string inputs_key(const CaseSpec &c) {
    std::string k;
    for (const auto &b : c.inputs) {
        k += b.name + ":" + std::to_string(b.type.code) + "/" + std::to_string(b.type.bits) + "/" +
             std::to_string(b.type.lanes) + ":";
        for (const auto *v : {&b.shape, &b.min, &b.storage_order}) {
            for (int e : *v)
                k += std::to_string(e) + ",";
            k += ":";
        }
        k += b.recipe.describe() + " cell=" + std::to_string(b.recipe.cell) + ";";
    }
    return k;
}

const std::vector<Array> &cached_case_inputs(const CaseSpec &c) {
    static std::string cached;
    static std::vector<Array> inputs;
    const std::string key = inputs_key(c);
    if (cached.empty() || cached != key) {
        inputs.clear();
        inputs = case_inputs(c);
        cached = key;
    }
    return inputs;
}

PairedReference::PairedReference(double bytes_moved, int threads, const std::string &gpu_runtime,
                                 std::vector<PairedCall> calls, ParallelFor parallel_for)
    : calls_(std::move(calls)), call_totals_(calls_.size(), 0.0) {
    const size_t bytes = std::max<size_t>(64, static_cast<size_t>(bytes_moved / 2));
    if (!gpu_runtime.empty()) {
        try {
            device_ = std::make_unique<DeviceCopy>(gpu_runtime, bytes);
            copy_kind_ = gpu_runtime + " device-to-device copy";
        } catch (const std::exception &e) {
            copy_kind_ = std::string("host memcpy (device copy unavailable: ") + e.what() + ")";
        }
    }
    if (!device_) {
        host_ = std::make_unique<HostCopy>(bytes, threads, HostCopy::Kind::Memcpy, std::move(parallel_for));
        if (copy_kind_.empty()) copy_kind_ = "host memcpy, " + std::to_string(threads) + " thread(s)";
    }
}

PairedReference::~PairedReference() = default;

std::string PairedReference::run_once() {
    const double copy = device_ ? device_->run() : host_->run();
    if (copy <= 0) return device_ ? device_->error() : "host copy failed";
    std::vector<double> took(calls_.size());
    for (size_t i = 0; i < calls_.size(); i++) {
        const auto t0 = Clock::now();
        calls_[i].run();
        took[i] = seconds_since(t0);
    }
    if (!warm_) {
        warm_ = true;
        return "";
    }
    copy_total_ += copy;
    for (size_t i = 0; i < calls_.size(); i++)
        call_totals_[i] += took[i];
    rounds_++;
    return "";
}

LoopResult timed_loop(benchmark::State &state, PairedReference &ref, Work work,
                      const std::function<std::string()> &body, Pairing pairing) {
    LoopResult r;
    const auto fail = [&](const std::string &msg) {
        r.error = msg;
        state.SkipWithError(msg.c_str());
        return r;
    };
    if (std::string e = ref.run_once(); !e.empty()) return fail("reference copy failed: " + e);
    double total = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        const std::string err = body();
        const double s = seconds_since(t0);
        if (!err.empty()) return fail(err);
        state.SetIterationTime(s);
        total += s;
        if (pairing != Pairing::EachIteration) continue;
        if (std::string e = ref.run_once(); !e.empty()) return fail("reference copy failed: " + e);
    }
    for (benchmark::IterationCount i = 0; pairing == Pairing::AfterLoop && i < state.iterations(); i++) {
        if (std::string e = ref.run_once(); !e.empty()) return fail("reference copy failed: " + e);
    }
    r.seconds_per_iter = total / static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
    state.counters["pixels_per_second"] = work.pixels / r.seconds_per_iter;
    state.counters["bytes_per_second"] = work.bytes / r.seconds_per_iter;
    state.counters["pct_of_copy_bw"] = 100.0 * ref.copy_seconds() / r.seconds_per_iter;
    return r;
}

LoopResult run_pipeline_benchmark(benchmark::State &state, const PipelineBench &b, const std::vector<Array> &case_in,
                                  const std::function<std::vector<PairedCall>()> &paired,
                                  const ParallelFor &parallel_for, Pairing pairing, KernelBreakdown *kernels) {
    std::vector<Array> inputs = case_in;  // Invocation keeps views of these
    std::unique_ptr<Invocation> inv;
    std::unique_ptr<PairedReference> ref;
    const Work work = work_of(*b.c);
    LoopResult r;
    const auto fail = [&](const std::string &msg) {
        r.error = msg;
        state.SkipWithError(msg.c_str());
        return r;
    };
    try {
        inv = std::make_unique<Invocation>(*b.variant, *b.c, inputs);
        ref = std::make_unique<PairedReference>(work.bytes, b.threads, b.gpu_runtime,
                                                paired ? paired() : std::vector<PairedCall>{}, parallel_for);
    } catch (const std::exception &e) {
        return fail(e.what());
    }
    std::string err;
    if (inv->call(&err) != 0) return fail("pipeline failed: " + err);  // compiles kernels
    // call() released the device copies; without host_dirty the resident warm-up would allocate
    // the inputs' device memory and never copy into it, and every timed call would read garbage
    // (Halide's debug runtime: "halide_copy_to_device ... skipped (host is not dirty)").
    inv->touch_inputs();
    if (!b.roundtrip && (inv->call_resident() != 0 || inv->device_sync() != 0)) {
        return fail("pipeline failed on the resident warm-up: " + take_halide_error());
    }
    const auto one_call = [&]() -> std::string {
        int rc;
        if (b.roundtrip) {
            inv->touch_inputs();
            rc = inv->call_resident();
            if (rc == 0) rc = inv->copy_back_and_release(&err);
        } else {
            rc = inv->call_resident();
            if (rc == 0) rc = inv->device_sync();
        }
        if (rc == 0) return "";
        const std::string msg = take_halide_error();
        return "pipeline failed: " + (msg.empty() ? err : msg);
    };
    r = timed_loop(state, *ref, work, one_call, pairing);
    if (!r.error.empty()) return r;
    if (kernels && kernels->calls > 0 && !kernels->runtime.empty()) {
        kernels->result = measure_kernel_breakdown(one_call, kernels->calls, kernels->runtime);
        add_kernel_counters(state, kernels->result);
    } else if (kernels && kernels->calls > 0 && kernels->profiled) {
        // At least 0.2 s of calls: ~200 of the profiler's samples (a single iteration, --quick, times nothing).
        kernels->result = measure_func_breakdown(*kernels->profiled, *b.c, inputs, kernels->calls,
                                                 state.iterations() > 1 ? 0.2 : 0.0);
        kernels->result["timed_ms_per_call"] = r.seconds_per_iter * 1e3;  // the unprofiled variant's, for the cost
        add_func_counters(state, kernels->result);
    } else if (kernels && kernels->calls > 0) {
        kernels->result = func_profile_missing(kernels->profile);
    }
    for (size_t i = 0; i < ref->calls().size(); i++)
        state.counters["speedup_vs_" + ref->calls()[i].name] = ref->call_seconds(i) / r.seconds_per_iter;
    state.SetLabel(b.variant->metadata->target);
    return r;
}

}  // namespace harness::perf
