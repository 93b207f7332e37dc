// The pipeline of parallel-pool-test: a parallel loop over row strips whose producer has a parallel loop
// of its own inside each strip (nested parallelism), and a require() checked inside the tasks:
//   output(x, y) = (input(x, y) * 3 + y) * 2 + x, an error (halide_error_code_requirement_failed) where
//   input(x, y) == poison.
#include "Halide.h"

namespace {

using namespace Halide;

class ParallelPoolTest : public Generator<ParallelPoolTest> {
public:
    Input<Buffer<int32_t, 2>> input{"input"};
    Input<int32_t> poison{"poison"};
    Output<Buffer<int32_t, 2>> output{"output"};

    void generate() {
        producer(x, y) = input(x, y) * 3 + y;
        output(x, y) = require(input(x, y) != poison, producer(x, y) * 2 + x, "poison at", x, y);

        output.split(y, yo, yi, 4, TailStrategy::GuardWithIf).parallel(yo);
        producer.compute_at(output, yo).split(x, xo, xi, 16, TailStrategy::GuardWithIf).parallel(xo);
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"}, yo{"yo"}, yi{"yi"};
    Func producer{"producer"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ParallelPoolTest, parallel_pool_test)
