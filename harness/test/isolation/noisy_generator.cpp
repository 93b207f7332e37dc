// A generator that prints on stdout wherever a user's generator can (isolation test): while it
// generates (the build log), in its pipeline on every call (Halide's print_when, through halide_print:
// every trial, bless and run), and on a scalar guess it rejects (require(), whose error Halide's runtime
// prints). Every `--json` command's stdout must still be its JSON alone.
#include <iostream>

#include "Halide.h"
class Noisy : public Halide::Generator<Noisy> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<int> shift{"shift"};  // no estimate: the harness guesses; a guess of 5 or more fails require()
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        std::cout << "aot-harness-test: the noisy generator prints on stdout while it generates" << std::endl;
        Var x, y;
        Expr v = print_when(x == 0 && y == 0, Halide::cast<uint8_t>(input(x, y) >> shift),
                            "aot-harness-test: the noisy pipeline prints on stdout");
        output(x, y) = require(shift < 5, v, "aot-harness-test: shift must be below 5, not", shift);
    }
};
HALIDE_REGISTER_GENERATOR(Noisy, noisy)
