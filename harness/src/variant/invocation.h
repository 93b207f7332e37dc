// Invocation: a compiled variant's arguments bound by name to a case's buffers, in a buffer mode,
// ready to call repeatedly. run_case (runner.h), bless and the benchmarks call pipelines through it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "harness/array.h"
#include "variant/buffers.h"
#include "harness/registry.h"
#include "variant/cuda_registers.h"
#include "variant/test_fault.h"

namespace harness {

// The inputs of a case, in CaseSpec::inputs order (deterministic, see inputs.h; image files from
// `input_dir`, "" = the default golden dir's inputs/).
std::vector<Array> case_inputs(const CaseSpec &c, const std::string &input_dir = "");

// Buffers bound to a variant's arguments by name, ready to call repeatedly.
class Invocation {
public:
    // Checks every argument of the variant's metadata against the case (names, types, dimensions)
    // and allocates the outputs, with `guard` guard elements around dimension 0 (see buffers.h).
    // Throws Error naming the argument and the mismatch.
    Invocation(const Variant &variant, const CaseSpec &c, std::vector<Array> &inputs,
               BufferMode mode = BufferMode::Host, int guard = 0);

    // One verified-style call: fills outputs with `canary` and the guard pattern, sets up the buffer
    // mode, calls the pipeline, reads outputs back to the host and releases device memory. Returns
    // Halide's error code (0 = ok) or -1 for a harness-side device error; `error` receives the message.
    // `test_fault` (test_fault.h, the fault catalogue only) injects a caller bug: SkipCopyBack leaves
    // the outputs on the device; StaleInput first runs on a zeroed copy of the inputs, then restores
    // the host bytes without marking them dirty, so the device keeps the stale copy.
    int call(std::string *error, uint8_t canary = 0xCD, TestFault test_fault = TestFault::None);
    // The first step of call(): outputs filled with `canary`, guard bands with their pattern.
    void fill_outputs(uint8_t canary);

    // Benchmark helpers (host mode): a bare call, a device sync of the outputs, and marking inputs
    // dirty so the next call copies them again.
    int call_resident();
    int device_sync();
    void touch_inputs();
    // After call_resident(), what call() does in host mode: copies the outputs back to the host and
    // releases every device allocation (inputs and outputs). Returns 0 or a Halide error code.
    int copy_back_and_release(std::string *error = nullptr);

    // The outputs' interiors as dense arrays, in CaseSpec::outputs order.
    std::vector<Array> outputs() const;
    // "" or what was written into the guard bands of which output.
    std::string check_guards() const;
    // Whether the outputs are updated in place (the pipeline reads them before writing, as a BLAS
    // ger does: result(i, j) = undef(); result(i, j) += ...): then every call starts them from the
    // same seeded values instead of a canary. detect_in_place() finds out with three calls (two
    // canaries differ, the first again reproduces) and sets it; false also when a call fails.
    bool detect_in_place();
    void set_in_place(bool on) { in_place_ = on; }
    bool in_place() const { return in_place_; }
    // Outputs the generator would not take with padded rows (a stride constraint), so they run
    // dense, without guard bands.
    const std::vector<std::string> &dense_outputs() const { return dense_outputs_; }

private:
    // The StaleInput test fault (see call()). Returns a Halide error code.
    int leave_stale_inputs_on_device();
    // Points args_ and the pointer lists at the current buffers.
    void bind();
    // Reallocates the outputs that `halide_error` names in a stride constraint without guard bands;
    // false if it names none.
    bool make_outputs_dense(const std::string &halide_error);

    const Variant &variant_;
    const CaseSpec &case_;
    BufferMode mode_;
    std::string runtime_;
    std::vector<GuardedArray> outputs_;
    std::vector<std::string> output_names_;
    std::vector<const BufferSpec *> output_specs_;
    std::vector<std::string> dense_outputs_;
    bool in_place_ = false;
    std::vector<Array> in_place_values_;  // per output, made on first use
    // Inputs in a generator's storage order: their storage, and (view index, dense array) pairs.
    std::vector<Array> staged_;
    std::vector<std::pair<size_t, Array *>> staged_from_;
    std::vector<Halide::Runtime::Buffer<void>> input_views_;
    std::vector<Halide::Runtime::Buffer<void> *> input_ptrs_, output_ptrs_;
    std::vector<std::vector<uint8_t>> scalars_;
    std::vector<void *> args_;
    // A cuda variant whose spec asks for a register cap holds it while this invocation lives (its
    // kernels are compiled by its first call).
    std::unique_ptr<CudaRegisterCap> cuda_registers_;
};

}  // namespace harness
