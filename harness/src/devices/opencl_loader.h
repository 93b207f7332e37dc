// The OpenCL ICD loader, opened once for the whole process: Halide's runtime (through its
// halide_opencl_get_symbol hook, opencl_interpose.cpp), the device probe (opencl_probe.cpp) and the
// harness's own buffer calls (buffers.cpp) all take their OpenCL functions from here.
#pragma once

namespace harness {

// The loader's file name that opened ("libOpenCL.so", then "libOpenCL.so.1": Halide's runtime only
// tries the first, which exists only where the -dev package is installed), or nullptr if none.
const char *opencl_loader_name();
// The loader's symbol `name`, or nullptr (no loader, or no such symbol).
void *opencl_symbol(const char *name);
// The symbol as a function pointer of type F, e.g. opencl_function<decltype(&clFinish)>("clFinish").
template<typename F>
F opencl_function(const char *name) {
    return reinterpret_cast<F>(opencl_symbol(name));
}

}  // namespace harness
