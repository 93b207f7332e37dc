// Built only with HARNESS_SANITIZE (the asan preset): one deliberate bug per sanitizer, so that the
// preset's clean test run means "instrumented and clean", not "not instrumented".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    volatile int index = argc + 7;  // 8 with one argument: opaque to the optimiser
    if (std::strcmp(what, "heap-overflow") == 0) {
        std::vector<int> *v = new std::vector<int>(8);
        std::printf("%d\n", (*v).data()[index]);  // one past the end
        delete v;
    } else if (std::strcmp(what, "signed-overflow") == 0) {
        volatile int big = 2147483647;
        std::printf("%d\n", big + index);
    } else if (std::strcmp(what, "leak") == 0) {
        void *volatile p = std::malloc(4096);
        p = nullptr;
        (void)p;
    } else {
        std::fprintf(stderr, "usage: sanitizer-selfcheck heap-overflow|signed-overflow|leak\n");
        return 2;
    }
    return 0;
}
