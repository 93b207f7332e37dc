// int_edges: integer overflow semantics, elementwise over three inputs (a, b: u16; s: i16):
//   add_sat(x, y) = saturating_add(a, b)          (u16: clamps at 65535)
//   sub_sat(x, y) = saturating_sub(a, b)          (u16: clamps at 0)
//   shifted(x, y) = i16(s >> (x % 16)) + i16(s << 3)   (arithmetic shift right by a per-lane amount;
//                                                      the left shift and the sum wrap modulo 2^16)
// Halide defines 8/16-bit integer overflow as wrapping; backends must not widen or saturate.
#include "Halide.h"
#include "harness/schedule.h"

namespace {

using namespace Halide;
using namespace harness;

class IntEdges : public Generator<IntEdges> {
public:
    ScheduleParam schedule;

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
        for (auto *in : {&a, &b})
            in->set_estimates({{0, 1920}, {0, 1080}});
        s.set_estimates({{0, 1920}, {0, 1080}});
        add_sat.set_estimates({{0, 1920}, {0, 1080}});
        sub_sat.set_estimates({{0, 1920}, {0, 1080}});
        shifted.set_estimates({{0, 1920}, {0, 1080}});

        // Schedule: one comment per decision, saying why and what it measured (current figures: docs/performance.md)
        std::vector<Func> outs{add_sat, sub_sat, shifted};
        switch (schedule.value()) {
        case Schedule::Portable:
            break;  // plain loops
        case Schedule::Host:
            // 16-row strips in parallel, native 16-bit vectors (paddusw/psubusw): 89-94 % of the copy bandwidth.
            for (Func &f : outs)
                f.split(y, yo, yi, 16).parallel(yo).vectorize(x, natural_vector_size<uint16_t>());
            break;
        case Schedule::Mali:
            for (Func &f : outs)
                mali_work_items(f, x, y, 8);  // 8 x 16-bit (128-bit)
            break;
        case Schedule::Gpu:
            for (Func &f : outs)
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);  // one element per thread: no reuse
            break;
        }
    }

private:
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IntEdges, int_edges)
