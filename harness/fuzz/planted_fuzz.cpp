// A fuzz target with bugs on purpose, for the test of scripts/fuzz (fuzz_script_test.sh): an input
// starting with "boom" dereferences a null pointer, one starting with "leak" leaks. Built only in
// the fuzz build and never part of scripts/fuzz's default targets.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static void *volatile g_kept;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 4 && std::memcmp(data, "boom", 4) == 0) {
        int *volatile p = nullptr;
        *p = 1;
    }
    if (size >= 4 && std::memcmp(data, "leak", 4) == 0) {
        g_kept = std::malloc(64);
        g_kept = nullptr;  // lost
    }
    return 0;
}
