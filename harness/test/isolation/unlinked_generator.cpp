// A pipeline that calls an extern C function nobody gives the link (isolation test).
#include "Halide.h"
HalideExtern_1(int, isolation_missing_extern, int);
class Unlinked : public Halide::Generator<Unlinked> {
public:
    Input<Buffer<int32_t, 2>> input{"input"};
    Output<Buffer<int32_t, 2>> output{"output"};
    void generate() {
        Var x, y;
        output(x, y) = isolation_missing_extern(input(x, y));
    }
};
HALIDE_REGISTER_GENERATOR(Unlinked, unlinked)
