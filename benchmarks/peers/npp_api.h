// The few CUDA runtime, NPP and cuBLAS entry points the NPP peers call, declared here and loaded
// at run time (dlopen), so that neither the build nor CI needs an NVIDIA library or header.
//
// The types mirror NPP 12/13's nppdefs.h (NppiSize, NppiPoint, NppiRect, NppStreamContext: same
// members in the same order, so the same C ABI) and the enumerator values used. NPP 13 has only the
// `_Ctx` entry points (an application-managed stream context), so those are the ones declared.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace bench::npp {

using Stream = void *;  // cudaStream_t

struct Size {  // NppiSize
    int width, height;
};
struct Point {  // NppiPoint
    int x, y;
};
struct Rect {  // NppiRect
    int x, y, width, height;
};
struct StreamContext {  // NppStreamContext
    Stream stream;
    int device_id;
    int multiprocessors;
    int max_threads_per_multiprocessor;
    int max_threads_per_block;
    size_t shared_mem_per_block;
    int cc_major, cc_minor;
    unsigned int stream_flags;
    int reserved0;
};
struct LibraryVersion {  // NppLibraryVersion
    int major, minor, build;
};

// Enumerator values from nppdefs.h / driver_types.h / cublas_api.h.
enum : int {
    kBorderReplicate = 2,    // NPP_BORDER_REPLICATE
    kMask3x3 = 200,          // NPP_MASK_SIZE_3_X_3
    kNormL2 = 2,             // nppiNormL2
    kInterLinear = 2,        // NPPI_INTER_LINEAR
    kHostToDevice = 1,       // cudaMemcpyHostToDevice
    kDeviceToHost = 2,       // cudaMemcpyDeviceToHost
    kDeviceToDevice = 3,     // cudaMemcpyDeviceToDevice
    kStreamNonBlocking = 1,  // cudaStreamNonBlocking
    kMemAttachGlobal = 1,    // cudaMemAttachGlobal
    kCublasOpN = 0,          // CUBLAS_OP_N
    kAttrMaxThreadsPerBlock = 1,
    kAttrMaxSharedMemoryPerBlock = 8,
    kAttrMultiProcessorCount = 16,
    kAttrMaxThreadsPerMultiProcessor = 39,
    kAttrComputeCapabilityMajor = 75,
    kAttrComputeCapabilityMinor = 76,
};

using u8 = uint8_t;

// Function pointers, named as the libraries export them. cuBLAS is optional (matmul only).
struct Api {
    // CUDA runtime (libcudart)
    int (*cudaGetDevice)(int *);
    int (*cudaDeviceGetAttribute)(int *, int, int);
    int (*cudaRuntimeGetVersion)(int *);
    int (*cudaDriverGetVersion)(int *);
    int (*cudaStreamCreateWithFlags)(Stream *, unsigned int);
    int (*cudaStreamDestroy)(Stream);
    int (*cudaStreamSynchronize)(Stream);
    int (*cudaMalloc)(void **, size_t);
    int (*cudaMallocPitch)(void **, size_t *, size_t, size_t);
    int (*cudaMallocManaged)(void **, size_t, unsigned int);
    int (*cudaFree)(void *);
    int (*cudaMemcpy2D)(void *, size_t, const void *, size_t, size_t, size_t, int);
    int (*cudaMemcpyAsync)(void *, const void *, size_t, int, Stream);
    const char *(*cudaGetErrorString)(int);
    // NPP core (libnppc)
    const LibraryVersion *(*nppGetLibVersion)();
    // Filtering (libnppif)
    int (*nppiFilterBoxBorder_8u_C1R_Ctx)(const u8 *, int, Size, Point, u8 *, int, Size, Size, Point, int,
                                          StreamContext);
    int (*nppiFilterGaussAdvancedBorder_32f_C1R_Ctx)(const float *, int, Size, Point, float *, int, Size, int,
                                                     const float *, int, StreamContext);
    int (*nppiGradientVectorSobelBorder_8u16s_C1R_Ctx)(const u8 *, int, Size, Point, int16_t *, int, int16_t *, int,
                                                       int16_t *, int, float *, int, Size, int, int, int,
                                                       StreamContext);
    int (*nppiFilterUnsharpGetBufferSize_8u_C1R)(float, float, int *);
    int (*nppiFilterUnsharpBorder_8u_C1R_Ctx)(const u8 *, int, Point, u8 *, int, Size, float, float, float, float, int,
                                              u8 *, StreamContext);
    // Geometry (libnppig)
    int (*nppiResize_8u_P3R_Ctx)(const u8 *[3], int, Size, Rect, u8 *[3], int, Size, Rect, int, StreamContext);
    // Colour conversion and LUTs (libnppicc)
    int (*nppiRGBToYCbCr420_8u_C3P3R_Ctx)(const u8 *, int, u8 *[3], int[3], Size, StreamContext);
    int (*nppiLUTPalette_8u_C1R_Ctx)(const u8 *, int, u8 *, int, Size, const u8 *, int, StreamContext);
    // Statistics (libnppist)
    int (*nppiHistogramEvenGetBufferSize_8u_C1R_Ctx)(Size, int, size_t *, StreamContext);
    int (*nppiHistogramEven_8u_C1R_Ctx)(const u8 *, int, Size, int32_t *, int, int32_t, int32_t, u8 *, StreamContext);
    int (*nppiSumGetBufferHostSize_32f_C1R_Ctx)(Size, size_t *, StreamContext);
    int (*nppiSum_32f_C1R_Ctx)(const float *, int, Size, u8 *, double *, StreamContext);
    int (*nppiMinMaxGetBufferHostSize_32f_C1R_Ctx)(Size, size_t *, StreamContext);
    int (*nppiMinMax_32f_C1R_Ctx)(const float *, int, Size, float *, float *, u8 *, StreamContext);
    // Arithmetic (libnppial)
    int (*nppiMulC_8u_C1RSfs_Ctx)(const u8 *, int, u8, u8 *, int, Size, int, StreamContext);
    int (*nppiAddC_8u_C1IRSfs_Ctx)(u8, u8 *, int, Size, int, StreamContext);
    // cuBLAS (libcublas), null when it is not found
    int (*cublasCreate_v2)(void **);
    int (*cublasDestroy_v2)(void *);
    int (*cublasSetStream_v2)(void *, Stream);
    int (*cublasGetVersion_v2)(void *, int *);
    int (*cublasSgemm_v2)(void *, int, int, int, int, int, const float *, const float *, int, const float *, int,
                          const float *, float *, int);
};

// The loaded API, or null with `why` set ("libnppif.so.13 not found (dlopen: ...)", "no CUDA device:
// ..."): loaded and checked once per process (a CUDA device must answer cudaGetDevice). Looks in the
// dynamic loader's path, then $HARNESS_CUDA_LIB_DIR, /usr/local/cuda/lib64 and
// /usr/local/cuda/targets/x86_64-linux/lib; sonames .13, then .12.
const Api *api(std::string *why);
// "NPP 13.0.1, CUDA runtime 13000, driver 13000[, cuBLAS 130100]" once api() succeeded.
std::string versions();
// The stream context of the stream every NPP peer runs on (non-blocking, created once).
const StreamContext &stream_context();

}  // namespace bench::npp
