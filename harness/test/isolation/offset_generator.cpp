// Reads its input from x + 10 without a boundary condition (isolation test): the bounds query asks
// for an input that starts at 10, which a harness must allocate there.
#include "Halide.h"
class Offset : public Halide::Generator<Offset> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};
    Input<float> gain{"gain"};  // no estimate, no default: the harness must guess something useful
    Output<Buffer<uint16_t, 2>> output{"output"};
    void generate() {
        Var x, y;
        output(x, y) = Halide::saturating_cast<uint16_t>(input(x + 10, y - 3) * gain);
    }
};
HALIDE_REGISTER_GENERATOR(Offset, offset)
