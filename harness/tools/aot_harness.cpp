// aot-harness: the command line. Everything lives in the harness library (cli.cpp); this main adds what
// its build has: `bench` (HARNESS_WITH_BENCH: the bench library), the tools' location (HARNESS_TOOLS_DIR) and
// the limit of its ctest tests as run's default --timeout (HARNESS_CASE_TIMEOUT).
#include "harness/cli.h"
#ifdef HARNESS_WITH_BENCH
#include "harness/bench.h"
#endif

int main(int argc, char **argv) {
#ifdef HARNESS_WITH_BENCH
    harness::enable_bench();
#endif
#ifdef HARNESS_CASE_TIMEOUT
    harness::set_default_run_timeout(HARNESS_CASE_TIMEOUT);
#endif
#ifdef HARNESS_TOOLS_DIR
    harness::set_tool_locations({HARNESS_TOOLS_DIR, HARNESS_PROJECT_DIR, HARNESS_CMAKE_DIR});
#endif
    return harness::cli_main(argc, argv);
}
