// int_edges: integer overflow semantics, elementwise over three inputs (a, b: u16; s: i16):
//   add_sat(x, y) = saturating_add(a, b)          (u16: clamps at 65535)
//   sub_sat(x, y) = saturating_sub(a, b)          (u16: clamps at 0)
//   shifted(x, y) = i16(s >> (x % 16)) + i16(s << 3)   (arithmetic shift right by a per-lane amount;
//                                                      the left shift and the sum wrap modulo 2^16)
// Halide defines 8/16-bit integer overflow as wrapping; backends must not widen or saturate.
#include "Halide.h"

namespace {

using namespace Halide;

class IntEdges : public Generator<IntEdges> {
public:
    GeneratorParam<std::string> schedule{"schedule", "portable"};

    Input<Buffer<uint16_t, 2>> a{"a"};
    Input<Buffer<uint16_t, 2>> b{"b"};
    Input<Buffer<int16_t, 2>> s{"s"};
    Output<Buffer<uint16_t, 2>> add_sat{"add_sat"};
    Output<Buffer<uint16_t, 2>> sub_sat{"sub_sat"};
    Output<Buffer<int16_t, 2>> shifted{"shifted"};

    void generate() {
        // Algorithm
        add_sat(x, y) = saturating_add(a(x, y), b(x, y));
        sub_sat(x, y) = saturating_sub(a(x, y), b(x, y));
        Expr amount = cast<int16_t>(x % 16);
        shifted(x, y) = (s(x, y) >> amount) + (s(x, y) << cast<int16_t>(3));

        // Estimates
        for (auto *in : {&a, &b}) in->set_estimates({{0, 1920}, {0, 1080}});
        s.set_estimates({{0, 1920}, {0, 1080}});
        add_sat.set_estimates({{0, 1920}, {0, 1080}});
        sub_sat.set_estimates({{0, 1920}, {0, 1080}});
        shifted.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule
        const std::string sched = schedule;
        std::vector<Func> outs{add_sat, sub_sat, shifted};
        if (sched == "portable") {
            // Plain loops.
        } else if (sched == "host") {
            // Rows in parallel, native 16-bit vectors (saturating adds map to paddusw/psubusw).
            for (Func &f : outs) f.split(y, yo, yi, 16).parallel(yo).vectorize(x, natural_vector_size<uint16_t>());
        } else if (sched == "mali") {
            // Mali: 8 x 16-bit lanes per work-item (128-bit), 8x4 work-groups, no local memory.
            for (Func &f : outs) f.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
        } else if (sched == "gpu") {
            // Generic GPU: one element per thread, 16x16 blocks (no reuse: no local memory).
            for (Func &f : outs) f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        } else {
            throw CompileError("int_edges: unknown schedule '" + sched + "' (portable, host, mali, gpu)");
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IntEdges, int_edges)
