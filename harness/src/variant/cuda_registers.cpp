// CudaRegisterCap (cuda_registers.h): HL_CUDA_JIT_MAX_REGISTERS for one pipeline's CUDA calls.
#include "variant/cuda_registers.h"

#include <cstdlib>

namespace harness {

CudaRegisterCap::CudaRegisterCap(int registers) {
    if (registers <= 0 || std::getenv(kCudaMaxRegistersVar) != nullptr) return;
    active_ = setenv(kCudaMaxRegistersVar, std::to_string(registers).c_str(), 1) == 0;
}

CudaRegisterCap::~CudaRegisterCap() {
    if (active_) unsetenv(kCudaMaxRegistersVar);
}

}  // namespace harness
