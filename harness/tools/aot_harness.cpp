// aot-harness: the command line. Everything lives in the harness library (cli.cpp).
#include "harness/cli.h"

int main(int argc, char **argv) {
    return harness::cli_main(argc, argv);
}
