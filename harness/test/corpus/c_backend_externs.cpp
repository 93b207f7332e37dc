// The externs that Halide's c_backend generators call (their app defines them in its own run.cpp and
// run_cpp.cpp, which the corpus does not copy): our own definitions, given to the corpus's aot-harness
// with aot_harness_add_pipeline(pipeline ... LINK_LIBRARIES corpus_c_backend_externs). Each returns a
// different mix of its arguments, so a call of the wrong one shows in the output.
#include <cstdint>

#include "HalideRuntime.h"

// pipeline: an extern function and an extern stage (Halide's extern-stage protocol: a bounds query
// first, where the stage says which region of its input it reads; then the call with data).
extern "C" int an_extern_func(int x, int y) {
    return 3 * x - y;
}
extern "C" int an_extern_stage(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->host == nullptr && in->device == 0) {
        for (int d = 0; d < 2; d++)
            in->dim[d].min = 0, in->dim[d].extent = 8;
        return 0;
    }
    // The stage's input is the generator's f, a uint16 Func; its sum is kept small (its output is an
    // int16 added to the pipeline's max(0, ...)): a wrapped, large negative one made every output 0.
    int sum = 0;
    const auto *p = reinterpret_cast<const uint16_t *>(in->host);
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 8; x++)
            sum += (x + 2 * y + 1) *
                   p[(x - in->dim[0].min) * in->dim[0].stride + (y - in->dim[1].min) * in->dim[1].stride];
    }
    *reinterpret_cast<int16_t *>(out->host) = static_cast<int16_t>(sum % 4096);
    return 0;
}

// pipeline_cpp: C++ externs in namespaces, and one extern "C".
extern "C" int an_extern_c_func(int a, float b) {
    return a + static_cast<int>(b) * 2;
}
int cpp_extern_toplevel(int a, float b) {
    return a + static_cast<int>(b) * 3;
}
namespace namespace1 {
int cpp_extern(int a, float b) {
    return a - static_cast<int>(b);
}
}  // namespace namespace1
namespace namespace2 {
int cpp_extern_1(int a, float b) {
    return a ^ static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a + 5 * static_cast<int>(b);
}
int cpp_extern_3(int a, float b) {
    return 2 * a - static_cast<int>(b);
}
}  // namespace namespace2
namespace namespace_outer {
int cpp_extern(int a, float b) {
    return a * 3 + static_cast<int>(b);
}
namespace namespace_inner {
int cpp_extern(int a, float b) {
    return a + 7 * static_cast<int>(b);
}
}  // namespace namespace_inner
}  // namespace namespace_outer
namespace namespace_shared_outer {
int cpp_extern_1(int a, float b) {
    return a / 2 + static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a % 13 + static_cast<int>(b);
}
namespace inner {
int cpp_extern_1(int a, float b) {
    return a & static_cast<int>(b);
}
int cpp_extern_2(int a, float b) {
    return a | static_cast<int>(b);
}
}  // namespace inner
}  // namespace namespace_shared_outer
