// Specs and host extern stages of the test-only fault pipelines (see README.md in this folder).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "HalideRuntime.h"
#ifdef HARNESS_HAVE_VULKAN
#include "HalideRuntimeVulkan.h"
#endif
#include "harness/spec.h"
#include "variant/test_fault.h"

#ifdef HARNESS_HAVE_OPENCL
// Halide's OpenCL runtime defines these (not in its public header); create = false only looks.
extern "C" int halide_acquire_cl_context(void *user_context, void **ctx, void **q, bool create);
extern "C" int halide_release_cl_context(void *user_context);
#endif

namespace {

using harness::Array;
using harness::CaseSpec;

// ---- host extern stages: out = 255 - in, plus the fault ----

bool is_bounds_query(const halide_buffer_t *b) {
    return b->host == nullptr && b->device == 0;
}

// Bounds query: the input region is the output region. Else computes out = 255 - in over the
// output's region and returns the address of out(min0, min1) so faults can poke around it.
int invert(halide_buffer_t *in, halide_buffer_t *out) {
    // Bounds query (Halide asks with a query output, and a query input unless the input is real).
    if (is_bounds_query(out) || is_bounds_query(in)) {
        if (is_bounds_query(in)) {
            for (int d = 0; d < 2; d++)
                in->dim[d] = {out->dim[d].min, out->dim[d].extent, 0, 0};
        }
        return 1;
    }
    for (int y = 0; y < out->dim[1].extent; y++) {
        for (int x = 0; x < out->dim[0].extent; x++) {
            const int ix = out->dim[0].min + x - in->dim[0].min, iy = out->dim[1].min + y - in->dim[1].min;
            out->host[x * out->dim[0].stride + y * out->dim[1].stride] =
                static_cast<uint8_t>(255 - in->host[ix * in->dim[0].stride + iy * in->dim[1].stride]);
        }
    }
    return 0;
}

struct TeardownBomb {
    bool armed = false;
    // Like a driver asserting while the program exits: the result is already correct.
    ~TeardownBomb() {
        if (armed) std::abort();
    }
} teardown_bomb;

// Like NVIDIA 580's Vulkan driver: a crash at exit only while
// a GPU context is still live. Registered with atexit, so it runs before Halide's runtime destructor
// (which would release the context itself): a process that released its device first exits cleanly.
void abort_if_device_live() {
    bool live = false;
#ifdef HARNESS_HAVE_VULKAN
    halide_vulkan_memory_allocator *allocator = nullptr;
    VkInstance instance = nullptr;
    VkDevice device = nullptr;
    VkPhysicalDevice physical = nullptr;
    VkQueue queue = nullptr;
    uint32_t family = 0;
    VkDebugUtilsMessengerEXT messenger{};
    if (halide_vulkan_acquire_context(nullptr, &allocator, &instance, &device, &physical, &queue, &family, &messenger,
                                      false) == 0) {
        live |= instance != nullptr;
        halide_vulkan_release_context(nullptr, instance, device, queue, messenger);
    }
#endif
#ifdef HARNESS_HAVE_OPENCL
    void *ctx = nullptr, *q = nullptr;
    if (halide_acquire_cl_context(nullptr, &ctx, &q, false) == 0) {
        live |= ctx != nullptr;
        halide_release_cl_context(nullptr);
    }
#endif
    if (live) {
        const char msg[] = "fault_teardown_live: a GPU context is still live at exit\n";
        (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
        std::abort();
    }
}

}  // namespace

extern "C" int fault_teardown_live_extern(halide_buffer_t *in, halide_buffer_t *out) {
    static bool armed = false;
    const int q = invert(in, out);
    if (q == 0 && !armed) armed = std::atexit(abort_if_device_live) == 0;
    return q == 1 ? 0 : q;
}

extern "C" int fault_teardown_extern(halide_buffer_t *in, halide_buffer_t *out) {
    const int q = invert(in, out);
    if (q == 0) teardown_bomb.armed = true;
    return q == 1 ? 0 : q;
}

extern "C" int fault_hang_extern(halide_buffer_t *in, halide_buffer_t *out) {
    const int q = invert(in, out);
    if (q == 0) {
        for (;;)
            pause();  // never returns: only the supervisor's timeout ends this
    }
    return 0;
}

extern "C" int fault_oob_write_extern(halide_buffer_t *in, halide_buffer_t *out) {
    const int q = invert(in, out);
    if (q == 0) out->host[-1] = 7;  // one element before out(0, 0): outside the output
    return q == 1 ? 0 : q;
}

extern "C" int fault_nondeterministic_extern(halide_buffer_t *in, halide_buffer_t *out) {
    static int calls = 0;
    const int q = invert(in, out);
    if (q == 0) out->host[0] = static_cast<uint8_t>(out->host[0] + ++calls);  // differs on every call
    return q == 1 ? 0 : q;
}

namespace {

std::vector<Array> invert_reference(const CaseSpec &, const std::vector<Array> &inputs) {
    Array out = inputs.at(0);
    for (auto &b : out.bytes)
        b = static_cast<uint8_t>(255 - b);
    return {out};
}

harness::PipelineSpec u8_spec(const char *name, const char *summary) {
    harness::PipelineSpec spec;
    spec.name = name;
    spec.summary = summary;
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer inversion";
    const halide_type_t u8{halide_type_uint, 8, 1};
    CaseSpec c;
    c.name = "small";
    c.inputs = {{"input", u8, {64, 48}, {harness::Recipe::Kind::UniformInt, 0, 255, 11}}};
    c.outputs = {{"output", u8, {64, 48}, {}}};
    spec.cases = {c};
    spec.reference = invert_reference;
    return spec;
}

harness::PipelineSpec make_fault_teardown() {
    return u8_spec("fault_teardown", "correct result, then abort() at exit");
}
harness::PipelineSpec make_fault_teardown_live() {
    return u8_spec("fault_teardown_live", "correct result, then abort() at exit while a GPU context is live");
}
harness::PipelineSpec make_fault_hang() {
    return u8_spec("fault_hang", "never returns");
}
harness::PipelineSpec make_fault_oob_write() {
    return u8_spec("fault_oob_write", "writes one element outside its output");
}
harness::PipelineSpec make_fault_nondeterministic() {
    return u8_spec("fault_nondeterministic", "a different pixel (0,0) on every call");
}
harness::PipelineSpec make_fault_error() {
    return u8_spec("fault_error", "Halide error: output wider than the schedule allows");
}
harness::PipelineSpec make_fault_no_copy_back() {
    harness::set_test_fault("fault_no_copy_back", harness::TestFault::SkipCopyBack);
    return u8_spec("fault_no_copy_back", "GPU result never copied back to the host");
}

harness::PipelineSpec make_fault_stale_input() {
    harness::set_test_fault("fault_stale_input", harness::TestFault::StaleInput);
    return u8_spec("fault_stale_input",
                   "input modified on the host but not marked dirty: the GPU reads the stale copy");
}

// A u8 reference computed per pixel: out(x, y) = f(at, x, y), where at(x, y) reads the input with
// coordinates clamped to the edge (repeat_edge).
template<typename F>
std::function<std::vector<Array>(const CaseSpec &, const std::vector<Array> &)> clamped_reference(F f) {
    return [f](const CaseSpec &, const std::vector<Array> &inputs) {
        const Array &in = inputs.at(0);
        Array out = in;
        const int w = in.shape[0], h = in.shape[1];
        auto at = [&](int x, int y) { return int(in.bytes[std::clamp(y, 0, h - 1) * w + std::clamp(x, 0, w - 1)]); };
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++)
                out.bytes[y * w + x] = static_cast<uint8_t>(f(at, x, y));
        }
        return std::vector<Array>{out};
    };
}

// out(x, y) = (in(x, y) + in(x + 1, y)) / 2 with x + 1 clamped to the last column.
harness::PipelineSpec make_fault_read_past_edge() {
    harness::PipelineSpec spec = u8_spec("fault_read_past_edge", "reads one pixel past the input's right edge");
    spec.tolerance_reason = "integer average";
    spec.reference = clamped_reference([](auto at, int x, int y) { return (at(x, y) + at(x + 1, y)) / 2; });
    return spec;
}

// fault_middle_stage: min((3x3 sum of 3 * in, edges clamped) / 27, 255), i.e. the 3x3 mean.
harness::PipelineSpec make_fault_middle_stage() {
    harness::PipelineSpec spec = u8_spec("fault_middle_stage", "a GPU-only error in the middle stage blur_y at (5,3)");
    spec.tolerance_reason = "integer 3x3 mean";
    spec.reference = clamped_reference([](auto at, int x, int y) {
        int sum = 0;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++)
                sum += 3 * at(x + dx, y + dy);
        }
        return std::min(sum / 27, 255);
    });
    return spec;
}

// 3x3 box blur, edges clamped (repeat_edge).
harness::PipelineSpec make_fault_boundary() {
    harness::PipelineSpec spec =
        u8_spec("fault_boundary", "3x3 box blur padding with zeros instead of clamping to the edge");
    spec.tolerance_reason = "integer box blur";
    spec.reference = clamped_reference([](auto at, int x, int y) {
        int sum = 0;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++)
                sum += at(x + dx, y + dy);
        }
        return sum / 9;
    });
    return spec;
}

// A 256-bin histogram of a 64x48 image whose values are 0..3: four bins take every increment.
harness::PipelineSpec make_fault_race() {
    harness::PipelineSpec spec;
    spec.name = "fault_race";
    spec.summary = "GPU histogram update with the atomics removed (opencl-mali); with atomics (opencl)";
    spec.tolerance = harness::Tolerance::exact();
    spec.tolerance_reason = "integer counts";
    const halide_type_t u8{halide_type_uint, 8, 1}, i32{halide_type_int, 32, 1};
    CaseSpec c;
    c.name = "small";
    c.inputs = {{"input", u8, {64, 48}, {harness::Recipe::Kind::UniformInt, 0, 3, 13}}};
    c.outputs = {{"output", i32, {256}, {}}};
    spec.cases = {c};
    spec.reference = [](const CaseSpec &, const std::vector<Array> &inputs) {
        Array out({halide_type_int, 32, 1}, {256});
        for (uint8_t v : inputs.at(0).bytes)
            out.data<int32_t>()[v]++;
        return std::vector<Array>{out};
    };
    return spec;
}

harness::PipelineSpec make_fault_nan() {
    harness::PipelineSpec spec;
    spec.name = "fault_nan";
    spec.summary = "writes NaN at (5,3)";
    spec.tolerance = harness::Tolerance::abs_rel(1e-6, 1e-6);
    spec.tolerance_reason = "one float multiply-add";
    const halide_type_t f32{halide_type_float, 32, 1};
    CaseSpec c;
    c.name = "small";
    c.inputs = {{"input", f32, {64, 48}, {harness::Recipe::Kind::UniformFloat, -1, 1, 5}}};
    c.outputs = {{"output", f32, {64, 48}, {}}};
    spec.cases = {c};
    spec.reference = [](const CaseSpec &, const std::vector<Array> &inputs) {
        Array out = inputs.at(0);
        for (size_t i = 0; i < out.elements(); i++)
            out.data<float>()[i] = out.data<float>()[i] * 0.5f + 1.0f;
        return std::vector<Array>{out};
    };
    return spec;
}

}  // namespace

HARNESS_REGISTER_SPEC(make_fault_teardown);
HARNESS_REGISTER_SPEC(make_fault_teardown_live);
HARNESS_REGISTER_SPEC(make_fault_hang);
HARNESS_REGISTER_SPEC(make_fault_oob_write);
HARNESS_REGISTER_SPEC(make_fault_nondeterministic);
HARNESS_REGISTER_SPEC(make_fault_error);
HARNESS_REGISTER_SPEC(make_fault_no_copy_back);
HARNESS_REGISTER_SPEC(make_fault_nan);
HARNESS_REGISTER_SPEC(make_fault_stale_input);
HARNESS_REGISTER_SPEC(make_fault_read_past_edge);
HARNESS_REGISTER_SPEC(make_fault_boundary);
HARNESS_REGISTER_SPEC(make_fault_middle_stage);
HARNESS_REGISTER_SPEC(make_fault_race);
