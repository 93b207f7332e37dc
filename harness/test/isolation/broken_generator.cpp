// A generator source that does not compile (isolation test): it names a Func that does not exist.
#include "Halide.h"
class Broken : public Halide::Generator<Broken> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> output{"output"};
    void generate() {
        Var x, y;
        output(x, y) = no_such_func(x, y);
    }
};
HALIDE_REGISTER_GENERATOR(Broken, broken)
