// Fuzz target: Manifest::parse (harness/src/golden/manifest.cpp), the golden/MANIFEST.json reader.
// Expected rejections: harness::Error. An accepted manifest must be safe for its readers: every
// entry's fields are read the way verify_goldens and load_verified_golden read them, and those may
// throw only harness::Error (a golden dir that does not exist, so nothing is read from disk). The
// manifest must also re-parse its own text() to the same text, and upsert its entries in place.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "base/error.h"
#include "golden/golden.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    harness::Manifest m;
    try {
        m = harness::Manifest::parse(text, "fuzz/MANIFEST.json");
    } catch (const harness::Error &) {
        return 0;
    }
    const std::string written = m.text();
    const harness::Manifest again = harness::Manifest::parse(written, "fuzz/MANIFEST.json (written back)");
    FUZZ_CHECK(again.text() == written, "text() does not survive a parse");

    harness::Manifest updated = m;
    const std::string reproduced = "bytes that match no sha256";
    for (const auto &e : m.entries()) {
        const std::string rel = e.file;  // as verify_goldens reads it
        FUZZ_CHECK(m.find(rel) != nullptr, rel);
        try {
            harness::load_verified_golden("/nonexistent/fuzz-golden-dir", m, rel, &reproduced);
            FUZZ_CHECK(false, "a golden verified without a file or a matching sha256: " + rel);
        } catch (const harness::Error &) {}
        updated.upsert(e);
    }
    FUZZ_CHECK(updated.entries().size() == m.entries().size(), "upsert of existing entries added one");
    return 0;
}
