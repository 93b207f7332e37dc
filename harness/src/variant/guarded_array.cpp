// Output storage with guard bands, and buffers laid out in a generator's storage order
// (guarded_array.h).
#include "variant/guarded_array.h"

#include <algorithm>
#include <cstring>

namespace harness {

using HBuffer = Halide::Runtime::Buffer<void>;

bool natural_order(const std::vector<int> &order) {
    for (size_t i = 0; i < order.size(); i++) {
        if (order[i] != static_cast<int>(i)) return false;
    }
    return true;
}

HBuffer strided_view(Array &storage, halide_type_t type, const std::vector<int> &shape, const std::vector<int> &min,
                     const std::vector<int> &storage_order) {
    std::vector<int> order = storage_order;
    if (order.size() != shape.size()) {
        order.clear();
        for (size_t d = 0; d < shape.size(); d++)
            order.push_back(static_cast<int>(d));
    }
    std::vector<int> stored;
    for (int d : order)
        stored.push_back(shape.at(static_cast<size_t>(d)));
    storage = Array(type, stored);
    std::vector<halide_dimension_t> dims(shape.size());
    int64_t stride = 1;
    for (int d : order) {
        dims[d] =
            halide_dimension_t(d < static_cast<int>(min.size()) ? min[d] : 0, shape[d], static_cast<int32_t>(stride));
        stride *= std::max(shape[d], 1);
    }
    return HBuffer(type, storage.bytes.data(), static_cast<int>(dims.size()), dims.data());
}

// ---- GuardedArray ----

GuardedArray::GuardedArray(halide_type_t type, const std::vector<int> &shape, int guard, const std::vector<int> &min,
                           const std::vector<int> &storage_order)
    : shape_(shape) {
    if (!natural_order(storage_order) || guard < 0) {
        // Another storage order (interleaved) or a dense output: no guard bands.
        permuted_ = true;
        view_ = strided_view(padded_, type, shape, min, storage_order);
        pad_.assign(shape.size(), 0);
        interior_runs_.push_back({0, padded_.bytes.size()});
        return;
    }
    std::vector<int> padded_shape;
    for (size_t d = 0; d < shape.size(); d++) {
        // Rows get 2 guard rows above and below; channels and higher dimensions none (a write
        // past the last row or before the first lands there or in the next plane's guard).
        pad_.push_back(d == 0 ? guard : (d == 1 && guard > 0 ? 2 : 0));
        padded_shape.push_back(shape[d] + 2 * pad_.back());
    }
    padded_ = Array(type, padded_shape);
    std::vector<halide_dimension_t> dims(shape.size());
    int64_t stride = 1, offset = 0;
    for (size_t d = 0; d < shape.size(); d++) {
        dims[d] = halide_dimension_t(0, shape[d], static_cast<int32_t>(stride));
        offset += pad_[d] * stride;
        stride *= padded_shape[d];
    }
    // The interior's first element starts kHostAlignment-aligned, as a dense Array does: `lead_` slack
    // bytes before the padded storage (never handed to the pipeline).
    const size_t eb = padded_.element_bytes();
    lead_ = (kHostAlignment - (static_cast<size_t>(offset) * eb) % kHostAlignment) % kHostAlignment;
    padded_.bytes.resize(padded_.bytes.size() + lead_);
    uint8_t *origin = padded_.bytes.data() + lead_ + offset * static_cast<int64_t>(eb);
    view_ = HBuffer(type, origin, static_cast<int>(dims.size()), dims.data());
    if (!min.empty()) view_.set_min(min);
    // Byte runs of the storage, line by line along dimension 0: interior or guard.
    if (shape.empty()) {
        interior_runs_.push_back({lead_, padded_.bytes.size() - lead_});
        return;
    }
    const size_t line = static_cast<size_t>(padded_shape[0]) * eb;
    const size_t lines = padded_.elements() / std::max<size_t>(padded_shape[0], 1);
    for (size_t l = 0; l < lines; l++) {
        size_t rest = l;
        bool inside = true;
        for (size_t d = 1; d < shape.size(); d++) {
            const int c = static_cast<int>(rest % padded_shape[d]);
            rest /= padded_shape[d];
            inside &= c >= pad_[d] && c < pad_[d] + shape[d];
        }
        const size_t start = lead_ + l * line;
        if (!inside) {
            guard_runs_.push_back({start, line});
            continue;
        }
        const size_t head = pad_[0] * eb, body = static_cast<size_t>(shape[0]) * eb;
        if (head) guard_runs_.push_back({start, head});
        interior_runs_.push_back({start + head, body});
        if (line > head + body) guard_runs_.push_back({start + head + body, line - head - body});
    }
}

void GuardedArray::fill(uint8_t canary) {
    for (const auto &[start, len] : interior_runs_)
        std::memset(padded_.bytes.data() + start, canary, len);
    for (const auto &[start, len] : guard_runs_)
        std::memset(padded_.bytes.data() + start, kGuardByte, len);
    view_.set_host_dirty(false);
}

void GuardedArray::fill(const Array &values) {
    fill(uint8_t(0));
    HBuffer from = const_cast<Array &>(values).view();
    std::vector<int> mins;
    for (int d = 0; d < view_.dimensions(); d++)
        mins.push_back(view_.dim(d).min());
    from.set_min(mins);
    view_.copy_from(from);
    view_.set_host_dirty(true);
}

Array GuardedArray::interior() const {
    Array out(padded_.type, shape_);
    if (permuted_) {
        HBuffer from = view_;
        from.set_min(std::vector<int>(shape_.size(), 0));
        out.view().copy_from(from);
        return out;
    }
    size_t k = 0;
    for (const auto &[start, len] : interior_runs_) {
        std::memcpy(out.bytes.data() + k, padded_.bytes.data() + start, len);
        k += len;
    }
    return out;
}

std::string GuardedArray::check_guards() const {
    size_t touched = 0, first = 0;
    for (const auto &[start, len] : guard_runs_) {
        for (size_t i = start; i < start + len; i++) {
            if (padded_.bytes[i] != kGuardByte && touched++ == 0) first = i;
        }
    }
    if (!touched) return "";
    std::vector<int> c = padded_.coords((first - lead_) / padded_.element_bytes());
    std::string where;
    for (size_t d = 0; d < c.size(); d++)
        where += (d ? "," : "") + std::to_string(c[d] - pad_[d]);
    return std::to_string(touched) + " guard byte(s) written outside the output, first at (" + where + ")";
}

}  // namespace harness
