// repro_main.cpp: the main of an `aot-harness repro` bundle. It needs no harness and no Halide
// compiler: only HalideRuntime.h, the variant's static library, its registration file and the Halide
// runtime library beside it. It reads case.txt, loads the inputs (.npy), calls the pipeline once,
// copies the outputs back, compares each with its golden (.npy) under the harness's tolerance, writes
// what it got to output/<name>.repro.npy, releases the GPU runtime and exits with the verdict:
// 0 every output within its tolerance, 1 an output differs, 2 the pipeline or the files failed.
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

[[noreturn]] void fail(const std::string &what) {
    std::fprintf(stderr, "repro: error: %s\n", what.c_str());
    std::exit(2);
}

// Buffers start 128-byte aligned, as Halide's Runtime::Buffer allocates them and as the harness ran the case
// (a generator may declare set_host_alignment).
template<typename T>
struct Aligned128 {
    using value_type = T;
    Aligned128() = default;
    template<typename U>
    Aligned128(const Aligned128<U> &) {}
    T *allocate(size_t n) { return static_cast<T *>(::operator new(n * sizeof(T), std::align_val_t(128))); }
    void deallocate(T *p, size_t) { ::operator delete(p, std::align_val_t(128)); }
    template<typename U>
    bool operator==(const Aligned128<U> &) const {
        return true;
    }
    template<typename U>
    bool operator!=(const Aligned128<U> &) const {
        return false;
    }
};

// A dense array in Halide order (dim 0 innermost); .npy stores the same bytes with the shape reversed.
struct Array {
    halide_type_t type{halide_type_uint, 8, 1};
    std::vector<int> shape;
    std::vector<uint8_t, Aligned128<uint8_t>> bytes;
    size_t elements() const {
        size_t n = 1;
        for (int s : shape)
            n *= size_t(s);
        return n;
    }
    double value(size_t i) const {
        const uint8_t *p = bytes.data() + i * ((type.bits + 7) / 8);
        auto get = [&](auto v) {
            std::memcpy(&v, p, sizeof v);
            return double(v);
        };
        switch (type.code) {
        case halide_type_bfloat: {  // the top half of a float32
            uint16_t h;
            std::memcpy(&h, p, 2);
            const uint32_t u = uint32_t(h) << 16;
            float f;
            std::memcpy(&f, &u, 4);
            return f;
        }
        case halide_type_float:
            if (type.bits == 16) {  // IEEE half
                uint16_t h;
                std::memcpy(&h, p, 2);
                const int e = (h >> 10) & 31, m = h & 1023;
                const double v = e == 0  ? std::ldexp(m, -24) :
                                 e == 31 ? (m ? NAN : INFINITY) :
                                           std::ldexp(m + 1024, e - 25);
                return (h & 0x8000) ? -v : v;
            }
            return type.bits == 32 ? get(float()) : get(double());
        case halide_type_int:
            return type.bits == 8  ? get(int8_t()) :
                   type.bits == 16 ? get(int16_t()) :
                   type.bits == 32 ? get(int32_t()) :
                                     get(int64_t());
        default:
            return type.bits <= 8  ? get(uint8_t()) :
                   type.bits == 16 ? get(uint16_t()) :
                   type.bits == 32 ? get(uint32_t()) :
                                     get(uint64_t());
        }
    }
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
    if (b.size() < 10 || b.compare(0, 6, "\x93NUMPY") != 0) fail(path + " is not an .npy file");
    const size_t hlen = b[6] == 1 ? size_t(uint8_t(b[8])) | size_t(uint8_t(b[9])) << 8 :
                                    size_t(uint8_t(b[8])) | size_t(uint8_t(b[9])) << 8 | size_t(uint8_t(b[10])) << 16;
    const size_t start = b[6] == 1 ? 10 : 12;
    const std::string h = b.substr(start, hlen);
    Array a;
    const size_t d = h.find("'descr':");
    const size_t q = h.find('\'', d + 8);
    const std::string descr = h.substr(q + 1, h.find('\'', q + 1) - q - 1);  // '<f4', '|u1', '|b1'
    const char kind = descr[1];
    a.type.bits = uint8_t(std::atoi(descr.c_str() + 2) * 8);
    a.type.code = kind == 'f' ? halide_type_float : kind == 'i' ? halide_type_int : halide_type_uint;
    if (kind == 'b') a.type.bits = 1;
    if (descr == "bfloat16") a.type = halide_type_t(halide_type_bfloat, 16);  // [('bfloat16', '<u2')]: its bits
    if (h.find("'fortran_order': True") != std::string::npos) fail(path + ": Fortran order is not supported");
    const size_t s0 = h.find('(', h.find("'shape':")), s1 = h.find(')', s0);
    std::stringstream shape(h.substr(s0 + 1, s1 - s0 - 1));
    std::string item;
    std::vector<int> c_order;
    while (std::getline(shape, item, ','))
        if (item.find_first_not_of(' ') != std::string::npos) c_order.push_back(std::atoi(item.c_str()));
    a.shape.assign(c_order.rbegin(), c_order.rend());
    a.bytes.assign(b.begin() + long(start + hlen), b.end());
    if (a.bytes.size() != a.elements() * ((a.type.bits + 7) / 8)) fail(path + ": data size does not match the shape");
    return a;
}

// The .npy descr of an element type as the harness writes it (bfloat16: its bits in a named field).
std::string descr_of(halide_type_t t) {
    if (t.code == halide_type_bfloat) return "[('bfloat16', '<u2')]";
    const char k = t.code == halide_type_float ? 'f' : t.code == halide_type_int ? 'i' : 'u';
    return std::string("'") + (t.bits <= 8 ? "|" : "<") + (t.bits == 1 ? "b1" : k + std::to_string((t.bits + 7) / 8)) +
           "'";
}

void save_npy(const std::string &path, const Array &a) {
    std::string shape;
    for (size_t i = a.shape.size(); i-- > 0;)
        shape += std::to_string(a.shape[i]) + (a.shape.size() == 1 || i ? "," : "");
    std::string h = "{'descr': " + descr_of(a.type) + ", 'fortran_order': False, 'shape': (" + shape + "), }";
    while ((10 + h.size() + 1) % 64)
        h += ' ';
    h += '\n';
    std::ofstream f(path, std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {char(h.size() & 255), char(h.size() >> 8)};
    f.write(len, 2);
    f << h;
    f.write(reinterpret_cast<const char *>(a.bytes.data()), std::streamsize(a.bytes.size()));
}

// A tolerance as case.txt writes it: exact | absolute A | abs_rel A R | ulp N | psnr DB |
// fraction F <inner>, each optionally followed by nan_equal. The same rules as the harness.
struct Tolerance {
    std::string kind = "exact";
    double atol = 0, rtol = 0, ulp = 0, db = 0, fraction = 0;
    bool nan_equal = false;
    std::vector<Tolerance> inner;
};

Tolerance parse_tolerance(std::istream &in) {
    Tolerance t;
    in >> t.kind;
    if (t.kind == "absolute") in >> t.atol;
    if (t.kind == "abs_rel") in >> t.atol >> t.rtol;
    if (t.kind == "ulp") in >> t.ulp;
    if (t.kind == "psnr") in >> t.db;
    if (t.kind == "fraction") {
        in >> t.fraction;
        t.inner.push_back(parse_tolerance(in));
    }
    std::string more;
    if (in >> more && more == "nan_equal") t.nan_equal = true;
    return t;
}

// The bits of `v` rounded to nearest even as an IEEE half / a bfloat16 (as the harness converts).
uint16_t half_bits(double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (std::isnan(a)) return sign | 0x7e00;
    if (a == 0) return sign;
    int e2 = 0;
    std::frexp(a, &e2);
    int e = e2 - 1;
    if (e < -14) return uint16_t(sign | uint16_t(std::nearbyint(std::ldexp(a, 24))));
    double m = std::nearbyint(std::ldexp(a, 10 - e));
    if (m >= 2048) m /= 2, e++;
    if (e > 15 || std::isinf(a)) return sign | 0x7c00;
    return uint16_t(sign | uint16_t((e + 15) << 10) | uint16_t(uint32_t(m) - 1024));
}

uint16_t bfloat_bits(double v) {
    const float f = float(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return uint16_t((u >> 16) | 0x40);
    return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

uint64_t ordered_key(double v, halide_type_t type) {
    const int bits = type.bits;
    if (bits == 16) {
        const uint32_t u = type.code == halide_type_bfloat ? bfloat_bits(v) : half_bits(v);
        const uint64_t mag = u & 0x7fffu, mid = uint64_t(1) << 15;
        return (u >> 15) ? mid - mag : mid + mag;
    }
    if (bits == 32) {
        const float f = float(v);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        const uint64_t mag = u & 0x7fffffffu, mid = uint64_t(1) << 31;
        return (u >> 31) ? mid - mag : mid + mag;
    }
    uint64_t u;
    std::memcpy(&u, &v, 8);
    const uint64_t mag = u & 0x7fffffffffffffffull, mid = uint64_t(1) << 63;
    return (u >> 63) ? mid - mag : mid + mag;
}

bool within(const Tolerance &t, double e, double a, halide_type_t type, bool nan_equal) {
    const bool nan = std::isnan(e) || std::isnan(a);
    if (nan) return std::isnan(e) && std::isnan(a) && nan_equal;
    if (std::isinf(e) || std::isinf(a)) return e == a;
    const double err = std::fabs(a - e);
    if (t.kind == "absolute") return err <= t.atol;
    if (t.kind == "abs_rel") return err <= t.atol + t.rtol * std::fabs(e);
    if (t.kind == "ulp") {
        if (type.code != halide_type_float && type.code != halide_type_bfloat) return err <= t.ulp;
        const uint64_t ke = ordered_key(e, type), ka = ordered_key(a, type);
        return double(ke > ka ? ke - ka : ka - ke) <= t.ulp;
    }
    if (t.kind == "fraction" && !t.inner.empty())
        return within(t.inner[0], e, a, type, nan_equal || t.inner[0].nan_equal);
    return e == a;  // exact, psnr
}

// Compares one output with its golden; prints one line; true when within the tolerance.
bool compare(const std::string &name, const Array &golden, const Array &out, const Tolerance &t) {
    if (golden.shape != out.shape || golden.type.code != out.type.code || golden.type.bits != out.type.bits) {
        std::printf("FAIL %s: type or shape differs from the golden\n", name.c_str());
        return false;
    }
    const size_t n = golden.elements();
    size_t bad = 0, worst = n, out_nans = 0;
    double worst_err = -1, max_abs = 0, sse = 0;
    for (size_t i = 0; i < n; i++) {
        const double e = golden.value(i), a = out.value(i);
        const bool nan = std::isnan(e) || std::isnan(a);
        const double err = nan ? 0 : (e == a ? 0 : std::fabs(a - e));
        if (!nan) {
            max_abs = std::max(max_abs, err);
            sse += err * err;
        }
        if (within(t, e, a, golden.type, t.nan_equal)) continue;
        bad++;
        if (std::isnan(a) && !std::isnan(e)) out_nans++;
        const double key = nan ? INFINITY : err;
        if (key > worst_err) worst_err = key, worst = i;
    }
    bool ok = bad == 0;
    char abs_text[32];
    std::snprintf(abs_text, sizeof abs_text, "%.9g", max_abs);
    std::string measure = std::string("max abs error ") + abs_text;
    if (t.kind == "fraction") ok = out_nans == 0 && double(bad) <= t.fraction * double(n);
    if (t.kind == "psnr") {
        const bool floats = golden.type.code == halide_type_float || golden.type.code == halide_type_bfloat;
        const double peak = floats                               ? 1.0 :
                            golden.type.code == halide_type_uint ? std::ldexp(1.0, golden.type.bits) - 1 :
                                                                   std::ldexp(1.0, golden.type.bits - 1) - 1;
        const double psnr = sse == 0 ? INFINITY : 10 * std::log10(peak * peak / (sse / double(n)));
        ok = psnr >= t.db && out_nans == 0;
        measure = "PSNR " + std::to_string(psnr) + " dB";
    }
    std::printf("%s %s: %zu of %zu elements outside the tolerance (%s, %s)", ok ? "PASS" : "FAIL", name.c_str(), bad, n,
                t.kind.c_str(), measure.c_str());
    if (worst < n) {
        std::printf("; worst at %s: expected %.9g, got %.9g", golden.coords(worst).c_str(), golden.value(worst),
                    out.value(worst));
    }
    std::printf("\n");
    return ok;
}

halide_buffer_t make_buffer(Array &a, std::vector<halide_dimension_t> &dims) {
    halide_buffer_t b{};
    b.host = a.bytes.data();
    b.type = a.type;
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
    std::map<std::string, Tolerance> tolerances;
    std::ifstream cf(case_file);
    if (!cf) fail("cannot read " + case_file);
    for (std::string line; std::getline(cf, line);) {
        std::istringstream in(line);
        std::string what, name, file;
        if (!(in >> what) || what[0] == '#') continue;
        in >> name;
        if (what == "input") in >> file, inputs[name] = load_npy(file);
        if (what == "scalar") in >> scalars[name];
        if (what == "output") in >> file, goldens[name] = load_npy(file), tolerances[name] = parse_tolerance(in);
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
                const uint16_t h = t.code == halide_type_bfloat ? bfloat_bits(v) : half_bits(v);
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
        ok &= compare(name, goldens[name], out, tolerances[name]);
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
