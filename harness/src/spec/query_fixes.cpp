// Output shapes from failed bounds queries (query_fixes.h).
#include "spec/query_fixes.h"

#include <cstdlib>

namespace harness {

namespace {

// The generator's bounds for the dimension a constraint shrank.
bool take_constraint(const std::string &err, const ShapeMap &tiny_out, bool have_tiny, ShapeMap &outputs) {
    bool fixed = false;
    for (auto &[name, shape] : outputs) {
        const std::string key = "constraints on " + name + " to the required region";
        const size_t at = err.find(key);
        const size_t dim_at = err.find("dimension ", at == std::string::npos ? 0 : at);
        if (at == std::string::npos || dim_at == std::string::npos || !have_tiny) continue;
        const int d = std::atoi(err.c_str() + dim_at + 10);
        const auto t = tiny_out.find(name);
        if (t == tiny_out.end() || d < 0 || d >= static_cast<int>(shape.dims.size()) ||
            d >= static_cast<int>(t->second.dims.size()) || shape.dims[d] == t->second.dims[d])
            continue;
        shape.dims[d] = t->second.dims[d];
        fixed = true;
    }
    return fixed;
}

// "Input buffer b0 is accessed at 63, which is beyond the max (3) in dimension 0", parsed.
struct OutOfBounds {
    std::string buffer;  // "b0"
    long at = 0, limit = 0;
    bool beyond = false;  // beyond the max, else before the min
    int dimension = 0;
    bool fixed = false;  // an input argument whose bounds the generator fixes, not a buffer built in
    // The same buffer and dimension read past the same side of its bounds (at any position).
    std::string key() const {
        return buffer + " is accessed at |" + (beyond ? "beyond the max (" : "before the min (") +
               std::to_string(limit) + ") in dimension " + std::to_string(dimension);
    }
};

// "Applying the constraints on Input buffer in0 to the required region made it smaller in dimension 0.
// Required size: 0 to 62. Constrained size: 0 to 38.": an input whose bounds the generator fixes
// (in0.dim(0).set_bounds(0, 39)), read further than that, as if it were a buffer built in.
bool parse_fixed_input(const std::string &err, OutOfBounds *o) {
    const std::string lead = "constraints on Input buffer ", region = " to the required region";
    const size_t b = err.find(lead);
    const size_t r = b == std::string::npos ? b : err.find(region, b);
    if (r == std::string::npos) return false;
    o->buffer = err.substr(b + lead.size(), r - b - lead.size());
    const size_t dim = err.find("in dimension ", r), req = err.find("Required size: ", r),
                 con = err.find("Constrained size: ", r);
    if (dim == std::string::npos || req == std::string::npos || con == std::string::npos) return false;
    o->dimension = std::atoi(err.c_str() + dim + 13);
    long range[2][2];
    for (int i = 0; i < 2; i++) {
        const char *p = err.c_str() + (i == 0 ? req + 15 : con + 18);
        char *end = nullptr;
        range[i][0] = std::strtol(p, &end, 10);
        const std::string to = " to ";
        if (std::string(end).compare(0, to.size(), to) != 0) return false;
        range[i][1] = std::strtol(end + to.size(), nullptr, 10);
    }
    o->beyond = range[0][1] > range[1][1];
    o->at = o->beyond ? range[0][1] : range[0][0];
    o->limit = o->beyond ? range[1][1] : range[1][0];
    o->fixed = true;
    return o->beyond || range[0][0] < range[1][0];
}

bool parse_out_of_bounds(const std::string &err, OutOfBounds *o) {
    if (parse_fixed_input(err, o)) return true;
    const std::string lead = "Input buffer ", accessed = " is accessed at ";
    const size_t b = err.find(lead), a = err.find(accessed);
    if (b == std::string::npos || a == std::string::npos || a < b) return false;
    o->buffer = err.substr(b + lead.size(), a - b - lead.size());
    const char *p = err.c_str() + a + accessed.size();
    char *end = nullptr;
    o->at = std::strtol(p, &end, 10);
    const std::string rest = end;
    const size_t beyond = rest.find("beyond the max ("), before = rest.find("before the min (");
    if (beyond == std::string::npos && before == std::string::npos) return false;
    o->beyond = beyond != std::string::npos;
    o->limit = std::strtol(rest.c_str() + (o->beyond ? beyond : before) + 16, nullptr, 10);
    const size_t dim = rest.find("in dimension ");
    if (dim == std::string::npos) return false;
    o->dimension = std::atoi(rest.c_str() + dim + 13);
    return true;
}

// Whether `err` still reads `o`'s buffer past the same bound of the same dimension (anywhere), and at
// the same position.
bool same_side(const std::string &err, const OutOfBounds &o, bool *same_position) {
    OutOfBounds e;
    if (!parse_out_of_bounds(err, &e) || e.key() != o.key()) return false;
    *same_position = e.at == o.at;
    return true;
}

}  // namespace

bool clamp_to_built_in_buffer(const std::string &err, const OutputQuery &query, ShapeMap &outputs,
                              std::vector<std::string> &notes) {
    OutOfBounds o;
    if (!parse_out_of_bounds(err, &o)) return false;
    const long by = o.beyond ? o.at - o.limit : o.limit - o.at;
    if (by <= 0) return false;
    for (auto &[name, shape] : outputs) {
        for (size_t d = 0; d < shape.dims.size(); d++) {
            ShapeMap trial = outputs;
            DimRegion &r = trial[name].dims[d];
            if (o.beyond) {
                if (r.extent <= 1) continue;
                r.extent = static_cast<int>(std::max<long>(1, r.extent - by));
            } else {
                r.min += static_cast<int>(by);
            }
            bool same_position = false;
            const std::string e = query(trial);
            if (same_side(e, o, &same_position) && same_position) continue;  // not this dimension
            const DimRegion before = shape.dims[d];
            if (o.beyond) {
                // The largest extent that reads no further than the buffer holds.
                int ok = 1, bad = before.extent;
                while (bad - ok > 1) {
                    const int mid = ok + (bad - ok) / 2;
                    trial[name].dims[d].extent = mid;
                    bool unused = false;
                    (same_side(query(trial), o, &unused) ? bad : ok) = mid;
                }
                shape.dims[d].extent = ok;
            } else {
                shape.dims[d].min = r.min;
            }
            notes.push_back("output '" + name + "' " + (o.beyond ? "extent " : "min ") +
                            std::to_string(o.beyond ? shape.dims[d].extent : shape.dims[d].min) + " in dimension " +
                            std::to_string(d) + ", not " + std::to_string(o.beyond ? before.extent : before.min) +
                            ": the pipeline reads " + o.buffer +
                            (o.fixed ? ", an input whose bounds the generator fixes, " : ", a buffer built into it, ") +
                            (o.beyond ? "up to " : "from ") + std::to_string(o.limit) + " in its dimension " +
                            std::to_string(o.dimension) + " (" + err + ")");
            return true;
        }
    }
    return false;
}

bool fix_outputs_from_query_error(const std::string &err, const OutputQuery &query, const ShapeMap &tiny_out,
                                  bool have_tiny, ShapeMap &outputs, std::vector<std::string> &notes) {
    if (take_constraint(err, tiny_out, have_tiny, outputs)) return true;
    return clamp_to_built_in_buffer(err, query, outputs, notes);
}

}  // namespace harness
