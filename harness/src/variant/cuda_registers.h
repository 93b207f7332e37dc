// The register cap of a pipeline's CUDA kernels. Halide's CUDA runtime JIT-compiles a pipeline's PTX
// the first time the pipeline runs in a CUDA context, with at most 64 registers per thread unless the
// environment variable HL_CUDA_JIT_MAX_REGISTERS says otherwise (Halide 21 src/runtime/cuda.cpp; its
// apps/cuda_mat_mul runs with HL_CUDA_JIT_MAX_REGISTERS=256). A kernel that needs more spills to local
// memory: an earlier, register-blocked matmul schedule ran 4.5x slower at 64.
// PipelineSpec::cuda_max_registers names the cap a pipeline needs; the harness sets it around that
// pipeline's CUDA calls only, so that other pipelines keep Halide's default.
#pragma once

#include <string>

namespace harness {

// The environment variable Halide's CUDA runtime reads.
inline constexpr const char *kCudaMaxRegistersVar = "HL_CUDA_JIT_MAX_REGISTERS";

// Sets HL_CUDA_JIT_MAX_REGISTERS to `registers` for this object's lifetime and restores the
// environment afterwards. Does nothing when `registers` is 0 or the environment already sets the
// variable (a value the user chose wins). Not thread-safe, like setenv: the harness makes one call at
// a time per process.
class CudaRegisterCap {
public:
    explicit CudaRegisterCap(int registers);
    ~CudaRegisterCap();
    CudaRegisterCap(const CudaRegisterCap &) = delete;
    CudaRegisterCap &operator=(const CudaRegisterCap &) = delete;

    // Whether this object set the variable (and will unset it).
    bool active() const { return active_; }

private:
    bool active_ = false;
};

}  // namespace harness
