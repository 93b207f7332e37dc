// Internal to the NPP peers: device images (pitched, freed with their last owner), uploads and
// downloads in the harness's Halide-order layout, status checks, and the bind functions of each group
// of peers (npp_stencils.cpp, npp_image_ops.cpp).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "npp_api.h"
#include "npp_peers.h"

namespace bench::nppb {

using harness::Array;
using harness::CaseSpec;
using Results = std::map<std::string, Array>;

// The loaded API; throws std::runtime_error with the reason when NPP cannot be used here.
const npp::Api &api();
// The stream context every peer launches on.
const npp::StreamContext &ctx();
// Throws std::runtime_error "<what> failed: NPP status <s>" for an NPP error (status < 0; warnings,
// > 0, are accepted).
void check(int status, const char *what);
// Throws std::runtime_error "<what> failed: <cudaGetErrorString>" when `err` is not cudaSuccess.
void check_cuda(int err, const char *what);
// Waits for the peers' stream.
void sync();

// A pitched device image of `rows` rows of `row_bytes` bytes (cudaMallocPitch).
struct Image {
    Image(size_t row_bytes, int rows);
    ~Image();
    Image(const Image &) = delete;
    Image &operator=(const Image &) = delete;
    template<typename T = npp::u8>
    T *row(int r) const {
        return reinterpret_cast<T *>(static_cast<char *>(ptr) + static_cast<size_t>(r) * pitch);
    }
    int step() const { return static_cast<int>(pitch); }
    void *ptr = nullptr;
    size_t pitch = 0, row_bytes;
    int rows;
};
using ImagePtr = std::shared_ptr<Image>;

// Rows of a Halide-order array: the product of its dimensions after the first.
int rows_of(const Array &a);
// A device image holding `a`, one row per row of every plane (planes one after the other).
ImagePtr upload(const Array &a);
// The image's first rows as an array of `type` and Halide-order `shape` (shape[0] elements per row).
Array download(const Image &img, halide_type_t type, std::vector<int> shape);
// A plain device allocation of `bytes` (cudaMalloc), freed with its last owner.
std::shared_ptr<void> device_alloc(size_t bytes);

extern const halide_type_t kU8, kI32, kF32;

// Stencils (npp_stencils.cpp).
NppCall bind_blur3x3(const CaseSpec &, const std::vector<Array> &);
NppCall bind_gaussian5x5(const CaseSpec &, const std::vector<Array> &);
NppCall bind_sobel(const CaseSpec &, const std::vector<Array> &);
NppCall bind_unsharp_mask(const CaseSpec &, const std::vector<Array> &);
// Per-pixel, colour, resampling, histogram, reduction, matrix product (npp_image_ops.cpp).
NppCall bind_brighten(const CaseSpec &, const std::vector<Array> &);
NppCall bind_rgb_to_yuv(const CaseSpec &, const std::vector<Array> &);
NppCall bind_resize_bilinear(const CaseSpec &, const std::vector<Array> &);
NppCall bind_hist_equalize(const CaseSpec &, const std::vector<Array> &);
NppCall bind_reduce_stats(const CaseSpec &, const std::vector<Array> &);
NppCall bind_matmul(const CaseSpec &, const std::vector<Array> &);

}  // namespace bench::nppb
