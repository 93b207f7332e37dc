// harness/schedule.h: what the suite's generators share about schedules. Header-only, needs nothing
// but Halide.h, so a generator outside this repository can include it as well.
//
// Selection, the Halide idiom: one enum GeneratorParam named `schedule`, whose string values are the
// `schedule` field of generators/profiles.json. A generator declares
//
//     harness::ScheduleParam schedule;
//
// and switches over it in generate():
//
//     switch (schedule) {
//     case harness::Schedule::Portable: ...; break;   // cpu profile: the golden source
//     case harness::Schedule::Host: ...; break;       // host: vectors and threads
//     case harness::Schedule::Mali: ...; break;       // opencl-mali
//     case harness::Schedule::Gpu: ...; break;        // opencl, cuda
//     }
//
// An unknown value (`schedule=fast`) fails the generator with one line naming the values. Nothing in
// it is specific to this repository: a generator outside it includes this header the same way.
#pragma once

#include <map>
#include <string>

#include "Halide.h"

namespace harness {

enum class Schedule { Portable, Host, Mali, Gpu };

// The GeneratorParam values (profiles.json's "schedule").
inline const std::map<std::string, Schedule> &schedule_names() {
    static const std::map<std::string, Schedule> names{
        {"portable", Schedule::Portable}, {"host", Schedule::Host}, {"mali", Schedule::Mali}, {"gpu", Schedule::Gpu}};
    return names;
}

// `schedule`, default portable; a value that is not one of schedule_names() is a one-line error.
class ScheduleParam : public Halide::GeneratorParam<Schedule> {
public:
    ScheduleParam() : Halide::GeneratorParam<Schedule>("schedule", Schedule::Portable, schedule_names()) {}

    void set_from_string(const std::string &value) override {
        const auto it = schedule_names().find(value);
        if (it == schedule_names().end()) {
            throw Halide::CompileError("schedule '" + value +
                                       "' is not one of portable, host, mali, gpu; fix the profile's \"schedule\" "
                                       "in profiles.json (or the schedule= generator parameter)");
        }
        set(it->second);
    }
};

// The generic GPU thread block: every thread computes per_x outputs of a row (one vector when
// vectorize_x, else unrolled) in each of per_y rows (unrolled), threads_x x threads_y threads per
// block, tails guarded (GuardWithIf: any size, including images smaller than a block).
struct ThreadBlock {
    int per_x = 4, per_y = 1;
    bool vectorize_x = true;
    int threads_x = 32, threads_y = 8;
};

// The loops gpu_thread_block() makes: block (xo, yo) and thread (xi, yi) indices, and the per-thread
// columns (xv) and rows (yr). Named by name, so the same Var anywhere else is the same loop.
struct ThreadBlockVars {
    Halide::Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, xv{"xv"}, yr{"yr"};
};

// Schedules f's (x, y) as ThreadBlock b; other dimensions stay outer (e.g. gpu_blocks(c) after it).
inline ThreadBlockVars gpu_thread_block(Halide::Func f, const Halide::Var &x, const Halide::Var &y,
                                        const ThreadBlock &b) {
    ThreadBlockVars v;
    Halide::Stage s = f;
    if (b.per_y > 1) {
        s.split(x, x, v.xv, b.per_x).split(y, y, v.yr, b.per_y).reorder(v.xv, v.yr, x, y);
        if (b.vectorize_x)
            s.vectorize(v.xv);
        else
            s.unroll(v.xv);
        s.unroll(v.yr);
    } else if (b.per_x > 1) {
        s.split(x, x, v.xv, b.per_x);
        if (b.vectorize_x)
            s.vectorize(v.xv);
        else
            s.unroll(v.xv);
    }
    s.gpu_tile(x, y, v.xo, v.yo, v.xi, v.yi, b.threads_x, b.threads_y, Halide::TailStrategy::GuardWithIf);
    return v;
}

// Wide GPU accesses to byte buffers. Halide 21 aligns a GPU kernel's vector load or store of an external
// buffer no further than the buffer's declared host alignment (CodeGen_LLVM.cpp: the element size unless the
// generator calls set_host_alignment), so without a declaration every u8 access of a CUDA kernel is a single
// byte (ld/st.global.b8) whatever the index; OpenCL C gets an aligned `uchar4` only where the index is
// provably a multiple of 4. gpu_aligned_rows(lanes, buffers...) declares 16 bytes of host alignment on each
// buffer (Halide then checks it on every call: error -24 names a buffer whose host pointer is not 16-byte
// aligned; Halide's Runtime::Buffer and the harness allocate at 128, malloc at 16) and returns the condition
// under which every row of every buffer starts at a multiple of `lanes` elements. Specialise on it: a
// `lanes`-wide vector at a multiple of `lanes` is then one access; other shapes take the byte path.
template<typename... Buffers>
inline Halide::Expr gpu_aligned_rows(int lanes, Buffers &...buffers) {
    Halide::Expr cond = Halide::Internal::const_true();
    const auto one = [&](auto &b) {
        b.set_host_alignment(16);
        cond = cond && b.dim(0).min() % lanes == 0;
        for (int d = 1; d < b.dimensions(); d++)
            cond = cond && b.dim(d).stride() % lanes == 0;
    };
    (one(buffers), ...);
    return cond;
}

// Kernel arguments. Halide 21's OpenCL runtime creates a cl_kernel for every launch and sets every argument on
// it, and NVIDIA's OpenCL then charges about 0.2-0.27 us per int argument at the launch (gpu-launch-probe on an
// H200: 1 buffer + 30 ints 15.4-19.1 us a launch, 1 buffer + 2 ints 9.6-11.5 us; buffers cost little; CUDA takes
// the arguments in one call: no difference). A 2-D stencil kernel passes 17-26 ints, mostly buffer mins and the
// loop bounds derived from them. zero_mins(buffers...) is the condition under which every dimension of every buffer
// starts at 0 (whole images: what the harness and most callers pass); specialised on it, those are constants.
template<typename... Buffers>
inline Halide::Expr zero_mins(Buffers &...buffers) {
    Halide::Expr cond = Halide::Internal::const_true();
    const auto one = [&](auto &b) {
        for (int d = 0; d < b.dimensions(); d++)
            cond = cond && b.dim(d).min() == 0;
    };
    (one(buffers), ...);
    return cond;
}

// Mali (Midgard/Valhall): `lanes` elements per work-item (one 128-bit vector of the type), 8x4
// work-groups, no local memory.
inline void mali_work_items(Halide::Func f, const Halide::Var &x, const Halide::Var &y, int lanes) {
    Halide::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    if (lanes > 1) f.vectorize(x, lanes);
    f.gpu_tile(x, y, xo, yo, xi, yi, 8, 4);
}

// Host stencils: a stage's columns in chunks of `chunk` (loop xo; the vectorized xi inside), so that a
// producer computed at xo streams its new row's chunk next to the consumer's (reads and stores
// together). Rows of at least `chunk` (`width`, the output's extent) shift the last chunk inwards (no
// scalar tail; the overlap is rewritten by the same thread); narrower rows guard it (GuardWithIf): any
// width works. `s`: a Func or one of its specialisations (harness/host_strips.h).
inline void column_chunks(Halide::Stage s, const Halide::Expr &width, const Halide::Var &x, const Halide::Var &xo,
                          const Halide::Var &xi, int chunk, int lanes) {
    s.specialize(width >= chunk).split(x, xo, xi, chunk, Halide::TailStrategy::ShiftInwards).vectorize(xi, lanes);
    s.split(x, xo, xi, chunk, Halide::TailStrategy::GuardWithIf).vectorize(xi, lanes);
}
}  // namespace harness
