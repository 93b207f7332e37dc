// The pipeline of parallel-pool-test: a parallel loop over row strips whose producer has a parallel loop
// of its own inside each strip (nested parallelism), and a require() checked inside the tasks:
//   output(x, y) = (input(x, y) * 3 + y) * 2 + x, an error (halide_error_code_requirement_failed) where
//   input(x, y) == poison.
// And parallel_pool_pyramid: a detail filter over an image pyramid, each level computed at the root with
// its own parallel loop over rows, from full-size rows down to levels of a few rows (many parallel loops of
// very different task sizes in one call, as multi-scale filters have).
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

class ParallelPoolPyramid : public Generator<ParallelPoolPyramid> {
public:
    GeneratorParam<int> levels{"levels", 8, 2, 12};
    Input<Buffer<uint16_t, 3>> input{"input"};
    Input<float> boost{"boost"};
    Output<Buffer<uint16_t, 3>> output{"output"};

    void generate() {
        const int n = levels;
        Func edge = BoundaryConditions::repeat_edge(input);
        std::vector<Func> down(n), across(n), up(n);
        down[0](x, y, c) = cast<float>(edge(x, y, c)) * (1.0f / 65535.0f);
        for (int j = 1; j < n; j++) {  // 1-2-1 in x, then in y, keeping every second sample
            across[j](x, y, c) =
                down[j - 1](2 * x - 1, y, c) + 2.0f * down[j - 1](2 * x, y, c) + down[j - 1](2 * x + 1, y, c);
            down[j](x, y, c) =
                (across[j](x, 2 * y - 1, c) + 2.0f * across[j](x, 2 * y, c) + across[j](x, 2 * y + 1, c)) *
                (1.0f / 16.0f);
        }
        up[n - 1] = down[n - 1];
        for (int j = n - 2; j >= 0; j--) {  // this level's detail (it minus the coarser level), boosted
            Expr coarse = (up[j + 1](x / 2, y / 2, c) + up[j + 1]((x + 1) / 2, (y + 1) / 2, c)) * 0.5f;
            up[j](x, y, c) = coarse + (down[j](x, y, c) - coarse) * boost;
        }
        output(x, y, c) = cast<uint16_t>(clamp(up[0](x, y, c) * 65535.0f + 0.5f, 0.0f, 65535.0f));

        output.parallel(y).vectorize(x, 8, TailStrategy::GuardWithIf);
        for (int j = 1; j < n; j++) {
            down[j].compute_root().parallel(y).vectorize(x, 8, TailStrategy::GuardWithIf);
            across[j].compute_at(down[j], y).vectorize(x, 8, TailStrategy::GuardWithIf);
        }
        for (int j = 1; j < n - 1; j++) {
            up[j].compute_root().parallel(y).vectorize(x, 8, TailStrategy::GuardWithIf);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ParallelPoolTest, parallel_pool_test)
HALIDE_REGISTER_GENERATOR(ParallelPoolPyramid, parallel_pool_pyramid)
