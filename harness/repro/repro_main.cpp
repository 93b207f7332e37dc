// repro_main.cpp: the main of an `aot-harness repro` bundle. It needs no harness and no Halide
// compiler: only HalideRuntime.h, the variant's static library, its registration file and the Halide
// runtime library beside it. It reads case.txt, loads the inputs (.npy), calls the pipeline once,
// copies the outputs back, compares each with its golden (.npy) under the harness's tolerance, writes
// what it got to output/<name>.repro.npy, releases the GPU runtime and exits with the verdict:
// 0 every output within its tolerance, 1 an output differs, 2 the pipeline or the files failed.
// The .npy format, the tolerance rules and the verdict are the harness's own verdict core
// (harness/include/harness/verdict_core.h, src/values/npy_core.cpp, verdict_core.cpp): the bundle's main.cpp
// is their text followed by this file's (harness/CMakeLists.txt), so the bundle judges as the harness does.
// Build (what run.sh does): c++ -std=c++17 -I include main.cpp pipeline/*.registration.cpp \
//   pipeline/lib<fn>.a pipeline/libharness_halide_runtime.a -ldl -lpthread [-DREPRO_RUNTIME_VULKAN]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "HalideRuntime.h"
#include "harness/verdict_core.h"

#if defined(REPRO_RUNTIME_OPENCL)
#include <dlfcn.h>
extern "C" const halide_device_interface_t *halide_opencl_device_interface();
#define REPRO_DEVICE_INTERFACE halide_opencl_device_interface()
// Halide's runtime only tries "libOpenCL.so"; plain installs often have only the ICD loader's .so.1.
extern "C" void *halide_opencl_get_symbol(void *, const char *name) {
    static void *lib = [] {
        void *h = dlopen("libOpenCL.so", RTLD_LAZY);
        return h ? h : dlopen("libOpenCL.so.1", RTLD_LAZY);
    }();
    return lib ? dlsym(lib, name) : nullptr;
}
#elif defined(REPRO_RUNTIME_CUDA)
extern "C" const halide_device_interface_t *halide_cuda_device_interface();
#define REPRO_DEVICE_INTERFACE halide_cuda_device_interface()
#elif defined(REPRO_RUNTIME_VULKAN)
extern "C" const halide_device_interface_t *halide_vulkan_device_interface();
#define REPRO_DEVICE_INTERFACE halide_vulkan_device_interface()
#endif

// The registration file calls this at start-up: it hands over the pipeline and its argument list.
static int (*g_argv_call)(void **) = nullptr;
static const halide_filter_metadata_t *g_metadata = nullptr;
extern "C" void halide_register_argv_and_metadata(int (*argv_call)(void **), const halide_filter_metadata_t *md,
                                                  const char *const *) {
    g_argv_call = argv_call;
    g_metadata = md;
}

namespace {

using namespace harness::core;

[[noreturn]] void fail(const std::string &what) {
    std::fprintf(stderr, "repro: error: %s\n", what.c_str());
    std::exit(2);
}

// A dense array in Halide order (dim 0 innermost); .npy stores the same bytes with the shape reversed.
struct Array {
    ElemType type;
    std::vector<int> shape;
    std::vector<uint8_t, HostAlignedAllocator<uint8_t>> bytes;
    size_t elements() const {
        size_t n = 1;
        for (int s : shape)
            n *= size_t(s);
        return n;
    }
    double value(size_t i) const { return element_value(bytes.data(), type, i); }
    std::string coords(size_t i) const {
        std::string s = "(";
        for (size_t d = 0; d < shape.size(); d++) {
            s += (d ? "," : "") + std::to_string(i % size_t(shape[d]));
            i /= size_t(shape[d]);
        }
        return s + ")";
    }
};

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) fail("cannot read " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

Array load_npy(const std::string &path) {
    const std::string b = read_file(path);
    Array a;
    try {
        const NpyHeader h = parse_npy_header(b);
        a.type = npy_type(h.descr);
        if (h.fortran_order) fail(path + ": Fortran order is not supported");
        a.shape.assign(h.c_shape.rbegin(), h.c_shape.rend());
        a.bytes.assign(b.begin() + long(h.data_offset), b.end());
    } catch (const FormatError &e) {
        fail(path + ": " + e.what());
    }
    if (a.bytes.size() != a.elements() * size_t((a.type.bits + 7) / 8))
        fail(path + ": data size does not match the shape");
    return a;
}

void save_npy(const std::string &path, const Array &a) {
    std::ofstream f(path, std::ios::binary);
    f << npy_preamble(a.type, a.shape);
    f.write(reinterpret_cast<const char *>(a.bytes.data()), std::streamsize(a.bytes.size()));
}

// Compares one output with its golden under the verdict core's rule (the harness's verdict); prints one line.
bool compare(const std::string &name, const Array &golden, const Array &out, const Rule &rule,
             const std::string &words) {
    if (golden.shape != out.shape || golden.type.code != out.type.code || golden.type.bits != out.type.bits) {
        std::printf("FAIL %s: type or shape differs from the golden\n", name.c_str());
        return false;
    }
    const size_t n = golden.elements();
    const Judgement j = judge(golden.bytes.data(), out.bytes.data(), n, golden.type, rule);
    char measure[64];
    if (rule.kind == Rule::Psnr) {
        std::snprintf(measure, sizeof measure, "PSNR %.9g dB", psnr_db(j.tally, golden.type));
    } else {
        std::snprintf(measure, sizeof measure, "max abs error %.9g", j.max_abs_error);
    }
    std::printf("%s %s: %zu of %zu elements outside the tolerance (%s, %s)", j.passed ? "PASS" : "FAIL", name.c_str(),
                j.tally.mismatches, n, words.c_str(), measure);
    if (j.worst < n) {
        std::printf("; worst at %s: expected %.9g, got %.9g", golden.coords(j.worst).c_str(), golden.value(j.worst),
                    out.value(j.worst));
    }
    std::printf("\n");
    return j.passed;
}

halide_buffer_t make_buffer(Array &a, std::vector<halide_dimension_t> &dims) {
    halide_buffer_t b{};
    b.host = a.bytes.data();
    b.type = halide_type_t(halide_type_code_t(a.type.code), uint8_t(a.type.bits));
    b.dimensions = int32_t(a.shape.size());
    dims.resize(a.shape.size());
    int32_t stride = 1;
    for (size_t d = 0; d < a.shape.size(); d++) {
        dims[d] = halide_dimension_t(0, a.shape[d], stride);
        stride *= a.shape[d];
    }
    b.dim = dims.data();
    b.flags = halide_buffer_flag_host_dirty;
    return b;
}

}  // namespace

// With $REPRO_BOUNDS set (aot-harness bisect), every traced realization's bounds go to that file, one
// line each: the Func's name, then min and extent per dimension (debug_to_file dumps have no minimum).
static FILE *g_bounds = nullptr;
extern "C" int32_t repro_trace(void *, const halide_trace_event_t *e) {
    static int32_t id = 0;
    if (g_bounds && e->event == halide_trace_begin_realization) {
        std::fprintf(g_bounds, "%s", e->func);
        for (int i = 0; i < e->dimensions; i++)
            std::fprintf(g_bounds, " %d", int(e->coordinates[i]));
        std::fprintf(g_bounds, "\n");
    }
    return ++id;
}

// Halide's default handler aborts; a Halide error here is the verdict "could not run" (exit 2).
extern "C" void repro_halide_error(void *, const char *msg) {
    std::fprintf(stderr, "Halide error: %s", msg);
}

int main(int argc, char **argv) {
    halide_set_error_handler(repro_halide_error);
    if (const char *bounds = std::getenv("REPRO_BOUNDS")) {
        g_bounds = std::fopen(bounds, "w");
        halide_set_custom_trace(repro_trace);
    }
    const std::string case_file = argc > 1 ? argv[1] : "case.txt";
    const bool release = !(argc > 2 && std::string(argv[2]) == "--no-release");
    if (!g_argv_call || !g_metadata) fail("no pipeline registered; link the variant's .registration.cpp");
    std::map<std::string, Array> inputs, goldens;
    std::map<std::string, double> scalars;
    std::map<std::string, Rule> tolerances;
    std::map<std::string, std::string> tolerance_words;
    std::ifstream cf(case_file);
    if (!cf) fail("cannot read " + case_file);
    for (std::string line; std::getline(cf, line);) {
        std::istringstream in(line);
        std::string what, name, file;
        if (!(in >> what) || what[0] == '#') continue;
        in >> name;
        if (what == "input") in >> file, inputs[name] = load_npy(file);
        if (what == "scalar") in >> scalars[name];
        if (what == "output") {
            in >> file;
            goldens[name] = load_npy(file);
            std::getline(in >> std::ws, tolerance_words[name]);
            std::istringstream words(tolerance_words[name]);
            try {
                tolerances[name] = parse_rule_words(words);
            } catch (const FormatError &e) {
                fail(case_file + ": output '" + name + "': " + e.what());
            }
        }
    }
    std::map<std::string, Array> outputs;
    std::vector<std::vector<halide_dimension_t>> dims(size_t(g_metadata->num_arguments));
    std::vector<halide_buffer_t> buffers(size_t(g_metadata->num_arguments));
    std::vector<uint64_t> scalar_values(size_t(g_metadata->num_arguments));
    std::vector<void *> args;
    for (int i = 0; i < g_metadata->num_arguments; i++) {
        const halide_filter_argument_t &arg = g_metadata->arguments[i];
        const std::string name = arg.name;
        if (arg.kind == halide_argument_kind_input_scalar) {
            const double v = scalars.count(name) ? scalars[name] : 0;
            void *p = &scalar_values[size_t(i)];
            const halide_type_t t = arg.type;
            if (t.code == halide_type_bfloat || (t.code == halide_type_float && t.bits == 16)) {
                const uint16_t h =
                    t.code == halide_type_bfloat ? float_bits_from_double(v, 8, 7) : float_bits_from_double(v, 5, 10);
                std::memcpy(p, &h, 2);
            } else if (t.code == halide_type_float) {
                if (t.bits == 32)
                    *static_cast<float *>(p) = float(v);
                else
                    *static_cast<double *>(p) = v;
            } else if (t.code == halide_type_handle) {
                *static_cast<void **>(p) = nullptr;
            } else {
                const int64_t iv = int64_t(v);
                std::memcpy(p, &iv, 8);  // little-endian: the low bytes hold the narrower value
            }
            args.push_back(p);
            continue;
        }
        Array *a = nullptr;
        if (arg.kind == halide_argument_kind_input_buffer) {
            if (!inputs.count(name)) fail("case.txt gives no input '" + name + "'");
            a = &inputs[name];
        } else {
            if (!goldens.count(name)) fail("case.txt gives no golden for output '" + name + "'");
            outputs[name] = goldens[name];
            a = &outputs[name];
            std::memset(a->bytes.data(), 0xCD, a->bytes.size());  // a canary: never-written elements show
        }
        buffers[size_t(i)] = make_buffer(*a, dims[size_t(i)]);
        if (arg.kind == halide_argument_kind_output_buffer) buffers[size_t(i)].flags = 0;
        args.push_back(&buffers[size_t(i)]);
    }
    const int err = g_argv_call(args.data());
    if (err != 0) fail("the pipeline returned Halide error " + std::to_string(err) + " (message above)");
    bool ok = true;
    for (int i = 0; i < g_metadata->num_arguments; i++) {
        if (g_metadata->arguments[i].kind != halide_argument_kind_output_buffer) continue;
        const std::string name = g_metadata->arguments[i].name;
        halide_buffer_t &b = buffers[size_t(i)];
        if (halide_copy_to_host(nullptr, &b) != 0) fail("copying output '" + name + "' back to the host failed");
        const Array &out = outputs[name];
        save_npy("output/" + name + ".repro.npy", out);
        ok &= compare(name, goldens[name], out, tolerances[name], tolerance_words[name]);
    }
    for (auto &b : buffers) {
        if (b.device) halide_device_free(nullptr, &b);
    }
#ifdef REPRO_DEVICE_INTERFACE
    // A careful application releases the device before it exits (some drivers crash at exit otherwise).
    if (release) halide_device_release(nullptr, REPRO_DEVICE_INTERFACE);
#endif
    (void)release;
    if (g_bounds) std::fclose(g_bounds);
    std::printf("verdict: %s\n", ok ? "PASS (matches the golden)" : "FAIL (differs from the golden)");
    return ok ? 0 : 1;
}
