// Fuzz target: parse_json_spec (harness/src/spec/json_spec.cpp), the reader of the JSON specs that
// aot_harness_add_pipeline(... SPEC x.json) embeds. Expected rejections: harness::Error, one line
// starting with the file name. An accepted spec: unique non-empty case names, extents >= 1, ranges
// ordered, a tolerance only with its reason, an xfail entry only with a reason.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_check.h"
#include "base/error.h"
#include "spec/json_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    harness::JsonSpec s;
    try {
        s = harness::parse_json_spec(text, "fuzz/spec.json");
    } catch (const harness::Error &e) {
        const std::string msg = e.what();
        FUZZ_CHECK(msg.rfind("fuzz/spec.json: ", 0) == 0, msg);
        FUZZ_CHECK(msg.find('\n') == std::string::npos, msg);
        return 0;
    }
    FUZZ_CHECK(!s.tolerance || !s.tolerance_reason.empty(), "tolerance without a reason");
    std::set<std::string> names;
    for (const auto &c : s.cases) {
        FUZZ_CHECK(!c.name.empty() && names.insert(c.name).second, c.name);
        for (int e : c.size)
            FUZZ_CHECK(e >= 1, "size extent " + std::to_string(e));
        for (int e : c.output_shape)
            FUZZ_CHECK(e >= 1, "output_shape extent " + std::to_string(e));
        FUZZ_CHECK(c.size.empty() || c.output_shape.empty(), "size and output_shape");
        for (const auto &[name, r] : c.inputs)
            FUZZ_CHECK(!(r.recipe.lo > r.recipe.hi), name);
    }
    for (const auto &[name, r] : s.inputs)
        FUZZ_CHECK(!(r.recipe.lo > r.recipe.hi), name);
    for (const auto &x : s.xfail)
        FUZZ_CHECK(x.contains("reason"), x.dump());
    return 0;
}
