// NameFilter (name_filter.h): --pipeline/--profile/--case lists of names and globs, matched with fnmatch.
#include "base/name_filter.h"

#include <fnmatch.h>

#include <algorithm>

#include "base/error.h"

namespace harness {

NameFilter::NameFilter(const std::string &option, const std::string &spec) : option_(option) {
    if (spec.empty()) return;  // not given: everything
    size_t start = 0;
    while (true) {
        const size_t comma = spec.find(',', start);
        const std::string p = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (p.empty()) {
            throw Error(option + " '" + spec +
                        "' has an empty name in its list; write names or globs separated by single commas");
        }
        patterns_.push_back(p);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
}

bool NameFilter::matches(const std::string &name) const {
    return patterns_.empty() || std::any_of(patterns_.begin(), patterns_.end(), [&](const std::string &p) {
               return fnmatch(p.c_str(), name.c_str(), 0) == 0;
           });
}

void NameFilter::check_each_matches(const std::vector<std::string> &names, const std::string &what) const {
    for (const auto &p : patterns_) {
        if (std::none_of(names.begin(), names.end(),
                         [&](const std::string &n) { return fnmatch(p.c_str(), n.c_str(), 0) == 0; })) {
            std::string known;
            for (const auto &n : names)
                known += (known.empty() ? "" : ", ") + n;
            throw Error(option_ + " '" + p + "' matches no " + what + "; known: " + known +
                        " (comma-separated names and globs like 'blur*' work)");
        }
    }
}

}  // namespace harness
