// Output storage surrounded by guard bands (so that a write outside an output shows), and buffers laid
// out in the storage order a generator asks for (interleaved, dense), for one call of a pipeline.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/array.h"

namespace harness {

// Storage for a buffer of `shape` laid out in `storage_order` (innermost first; empty or natural:
// dense in Halide order), starting at `min` (empty: 0): resizes `storage` and returns a Halide
// buffer over it.
Halide::Runtime::Buffer<void> strided_view(Array &storage, halide_type_t type, const std::vector<int> &shape,
                                           const std::vector<int> &min, const std::vector<int> &storage_order);
// Whether `order` is the natural order 0, 1, 2, ... (or empty).
bool natural_order(const std::vector<int> &order);

// Output storage surrounded by guard bands: `guard` elements on each side of dimension 0 and
// 2 rows on each side of dimension 1 (none for higher dimensions). view() is a Halide buffer of exactly `shape` inside
// it, starting at `min` (empty: 0), its host pointer kHostAlignment-aligned (array.h). An output the generator lays out
// in another storage order, or asks to be dense, has no guard bands (check_guards() is then "").
class GuardedArray {
public:
    static constexpr uint8_t kGuardByte = 0x5A;

    GuardedArray(halide_type_t type, const std::vector<int> &shape, int guard, const std::vector<int> &min = {},
                 const std::vector<int> &storage_order = {});
    GuardedArray(const GuardedArray &) = delete;  // the view aliases the storage
    GuardedArray(GuardedArray &&) = default;
    GuardedArray &operator=(GuardedArray &&) = default;
    // Fills the interior with `canary` bytes and the guard bands with kGuardByte.
    void fill(uint8_t canary);
    // Fills the guard bands with kGuardByte and the interior with `values` (dense, Halide order, this
    // shape), for an output the pipeline updates in place; the host copy is then the truth.
    void fill(const Array &values);
    Halide::Runtime::Buffer<void> &view() { return view_; }
    // The interior as a dense array (Halide order, from 0).
    Array interior() const;
    // Whether the storage has guard bands.
    bool guarded() const { return !guard_runs_.empty(); }
    // "" if every guard byte is intact, else where the first touched one is (Halide coordinates of
    // the padded storage relative to the interior origin) and how many were touched.
    std::string check_guards() const;

private:
    Array padded_;
    std::vector<int> pad_;
    std::vector<int> shape_;
    Halide::Runtime::Buffer<void> view_;
    std::vector<std::pair<size_t, size_t>> interior_runs_, guard_runs_;  // (byte offset, length)
    bool permuted_ = false;  // stored in another order than Halide's: interior() copies through view_
    size_t lead_ = 0;        // bytes before the padded storage that align the interior's start
};

}  // namespace harness
