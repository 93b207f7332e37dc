// Loads the CUDA runtime, NPP and cuBLAS at run time (npp_api.h): nothing NVIDIA at build time.
#include "npp_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace bench::npp {

namespace {

// dlopen of `stem` (e.g. "libnppif"): the dynamic loader's own search first, then the CUDA
// toolkit's usual folders; the CUDA 13 soname, then 12's. Returns null with what was tried.
void *open_library(const std::string &stem, std::string *tried) {
    std::vector<std::string> dirs{""};
    if (const char *d = std::getenv("HARNESS_CUDA_LIB_DIR"); d && *d) dirs.push_back(std::string(d) + "/");
    dirs.push_back("/usr/local/cuda/lib64/");
    dirs.push_back("/usr/local/cuda/targets/x86_64-linux/lib/");
    std::string first_error;
    for (const char *soname : {".so.13", ".so.12"}) {
        for (const auto &dir : dirs) {
            if (void *h = dlopen((dir + stem + soname).c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
            if (first_error.empty()) {
                const char *e = dlerror();
                first_error = e ? e : "not found";
            }
        }
    }
    *tried = stem + ".so.13/.so.12 not found in the loader's path, $HARNESS_CUDA_LIB_DIR or /usr/local/cuda (" +
             first_error + ")";
    return nullptr;
}

struct Loaded {
    Api api{};
    std::string why;  // "" when loaded
    std::string versions;
    StreamContext ctx{};
};

template<typename F>
void bind(void *lib, const char *name, F *&slot, std::string *missing) {
    slot = reinterpret_cast<F *>(dlsym(lib, name));
    if (!slot && missing->empty()) *missing = name;
}

Loaded load() {
    Loaded L;
    Api &a = L.api;
    std::string why;
    void *rt = open_library("libcudart", &why);
    void *core = rt ? open_library("libnppc", &why) : nullptr;
    void *filt = core ? open_library("libnppif", &why) : nullptr;
    void *geom = filt ? open_library("libnppig", &why) : nullptr;
    void *color = geom ? open_library("libnppicc", &why) : nullptr;
    void *stats = color ? open_library("libnppist", &why) : nullptr;
    void *arith = stats ? open_library("libnppial", &why) : nullptr;
    if (!arith) {
        L.why = why;
        return L;
    }
    std::string missing;
#define NPP_BIND(lib, name) bind(lib, #name, a.name, &missing)
    NPP_BIND(rt, cudaGetDevice);
    NPP_BIND(rt, cudaDeviceGetAttribute);
    NPP_BIND(rt, cudaRuntimeGetVersion);
    NPP_BIND(rt, cudaDriverGetVersion);
    NPP_BIND(rt, cudaStreamCreateWithFlags);
    NPP_BIND(rt, cudaStreamDestroy);
    NPP_BIND(rt, cudaStreamSynchronize);
    NPP_BIND(rt, cudaMalloc);
    NPP_BIND(rt, cudaMallocPitch);
    NPP_BIND(rt, cudaMallocManaged);
    NPP_BIND(rt, cudaFree);
    NPP_BIND(rt, cudaMemcpy2D);
    NPP_BIND(rt, cudaMemcpyAsync);
    NPP_BIND(rt, cudaGetErrorString);
    NPP_BIND(core, nppGetLibVersion);
    NPP_BIND(filt, nppiFilterBoxBorder_8u_C1R_Ctx);
    NPP_BIND(filt, nppiFilterGaussAdvancedBorder_32f_C1R_Ctx);
    NPP_BIND(filt, nppiGradientVectorSobelBorder_8u16s_C1R_Ctx);
    NPP_BIND(filt, nppiFilterUnsharpGetBufferSize_8u_C1R);
    NPP_BIND(filt, nppiFilterUnsharpBorder_8u_C1R_Ctx);
    NPP_BIND(geom, nppiResize_8u_P3R_Ctx);
    NPP_BIND(color, nppiRGBToYCbCr420_8u_C3P3R_Ctx);
    NPP_BIND(color, nppiLUTPalette_8u_C1R_Ctx);
    NPP_BIND(stats, nppiHistogramEvenGetBufferSize_8u_C1R_Ctx);
    NPP_BIND(stats, nppiHistogramEven_8u_C1R_Ctx);
    NPP_BIND(stats, nppiSumGetBufferHostSize_32f_C1R_Ctx);
    NPP_BIND(stats, nppiSum_32f_C1R_Ctx);
    NPP_BIND(stats, nppiMinMaxGetBufferHostSize_32f_C1R_Ctx);
    NPP_BIND(stats, nppiMinMax_32f_C1R_Ctx);
    NPP_BIND(arith, nppiMulC_8u_C1RSfs_Ctx);
    NPP_BIND(arith, nppiAddC_8u_C1IRSfs_Ctx);
    if (!missing.empty()) {
        L.why = "the NPP/CUDA runtime libraries found lack " + missing + " (NPP 12 or 13 needed)";
        return L;
    }
    std::string no_cublas;
    if (void *blas = open_library("libcublas", &no_cublas)) {
        std::string blas_missing;
        bind(blas, "cublasCreate_v2", a.cublasCreate_v2, &blas_missing);
        bind(blas, "cublasDestroy_v2", a.cublasDestroy_v2, &blas_missing);
        bind(blas, "cublasSetStream_v2", a.cublasSetStream_v2, &blas_missing);
        bind(blas, "cublasGetVersion_v2", a.cublasGetVersion_v2, &blas_missing);
        bind(blas, "cublasSgemm_v2", a.cublasSgemm_v2, &blas_missing);
        if (!blas_missing.empty()) a.cublasSgemm_v2 = nullptr;
    }
#undef NPP_BIND
    // A device must answer: without a driver, cudart's first call fails (cudaErrorInsufficientDriver).
    int dev = -1;
    if (const int e = a.cudaGetDevice(&dev); e != 0) {
        L.why = std::string("no CUDA device for NPP: cudaGetDevice: ") + a.cudaGetErrorString(e);
        return L;
    }
    StreamContext &c = L.ctx;
    c.device_id = dev;
    const auto attr = [&](int what) {
        int v = 0;
        a.cudaDeviceGetAttribute(&v, what, dev);
        return v;
    };
    c.multiprocessors = attr(kAttrMultiProcessorCount);
    c.max_threads_per_multiprocessor = attr(kAttrMaxThreadsPerMultiProcessor);
    c.max_threads_per_block = attr(kAttrMaxThreadsPerBlock);
    c.shared_mem_per_block = static_cast<size_t>(attr(kAttrMaxSharedMemoryPerBlock));
    c.cc_major = attr(kAttrComputeCapabilityMajor);
    c.cc_minor = attr(kAttrComputeCapabilityMinor);
    c.stream_flags = kStreamNonBlocking;
    if (const int e = a.cudaStreamCreateWithFlags(&c.stream, kStreamNonBlocking); e != 0) {
        L.why = std::string("cudaStreamCreateWithFlags: ") + a.cudaGetErrorString(e);
        return L;
    }
    const LibraryVersion *v = a.nppGetLibVersion();
    int runtime = 0, driver = 0;
    a.cudaRuntimeGetVersion(&runtime);
    a.cudaDriverGetVersion(&driver);
    L.versions = "NPP " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->build) +
                 ", CUDA runtime " + std::to_string(runtime) + ", driver " + std::to_string(driver);
    if (a.cublasSgemm_v2) {
        void *h = nullptr;
        int blas_version = 0;
        if (a.cublasCreate_v2(&h) == 0) {
            a.cublasGetVersion_v2(h, &blas_version);
            a.cublasDestroy_v2(h);
            L.versions += ", cuBLAS " + std::to_string(blas_version);
        } else {
            a.cublasSgemm_v2 = nullptr;
        }
    }
    if (!a.cublasSgemm_v2) L.versions += ", no cuBLAS" + (no_cublas.empty() ? "" : " (" + no_cublas + ")");
    return L;
}

const Loaded &loaded() {
    static const Loaded L = load();
    return L;
}

}  // namespace

const Api *api(std::string *why) {
    const Loaded &L = loaded();
    if (!L.why.empty()) {
        if (why) *why = L.why;
        return nullptr;
    }
    return &L.api;
}

std::string versions() {
    return loaded().versions;
}

const StreamContext &stream_context() {
    return loaded().ctx;
}

}  // namespace bench::npp
