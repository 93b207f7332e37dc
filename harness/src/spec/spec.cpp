// PipelineSpec helpers (spec.h): recipe descriptions, case and tolerance lookups, the standard image cases.
#include "harness/spec.h"

#include <sstream>

#include "base/error.h"

namespace harness {

std::string Recipe::describe() const {
    std::ostringstream s;
    switch (kind) {
    case Kind::UniformInt:
    case Kind::UniformFloat:
        s << (kind == Kind::UniformInt ? "uniform_int[" : "uniform_float[") << lo << "," << hi
          << (kind == Kind::UniformInt ? "]" : ")") << " seed=" << seed << " splitmix64";
        break;
    case Kind::Gradient:
        s << "gradient[" << lo << "," << hi << "]";
        break;
    case Kind::Checkerboard:
        s << "checkerboard[" << lo << "," << hi << "] cell=" << cell;
        break;
    case Kind::Constant:
        s << "constant[" << lo << "]";
        break;
    case Kind::Image:
        s << "image golden/inputs/" << file << " sha256=" << file_sha256.substr(0, 16);
        break;
    }
    return s.str();
}

const CaseSpec &PipelineSpec::find_case(const std::string &case_name) const {
    std::string known;
    for (const auto &c : cases) {
        if (c.name == case_name) return c;
        known += (known.empty() ? "" : ", ") + c.name;
    }
    throw Error("unknown case '" + case_name + "' for pipeline " + name + "; known cases: " + known);
}

const Tolerance &PipelineSpec::tolerance_for(const std::string &output) const {
    auto it = output_tolerances.find(output);
    return it == output_tolerances.end() ? tolerance : it->second;
}

const std::vector<ImageSize> &standard_image_sizes() {
    static const std::vector<ImageSize> sizes{
        {"small", 64, 48, false},
        {"odd", 257, 131, false},  // odd width: not a multiple of any vector width
        {"large", 1920, 1080, true},
    };
    return sizes;
}

int floor_shift(int v, int k) {
    const int d = 1 << k;
    return v >= 0 ? v / d : -((-v + d - 1) / d);
}

void add_image_cases(PipelineSpec &spec, std::function<CaseSpec(int width, int height)> make) {
    for (const auto &size : standard_image_sizes()) {
        CaseSpec c = make(size.width, size.height);
        c.name = size.name;
        c.nightly = size.nightly;
        spec.cases.push_back(std::move(c));
    }
    spec.make_case = std::move(make);
}

}  // namespace harness
