// FUZZ_CHECK: an invariant of a fuzz target. A violation prints what failed and aborts, which
// libFuzzer reports as a crash with the input saved (and the replay tests as a failed test).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, what)                                                                         \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s (%s)\n", __FILE__, __LINE__, #cond, \
                         std::string(what).c_str());                                                   \
            std::abort();                                                                              \
        }                                                                                              \
    } while (0)
