// Experiment: AOT variants of the memory-bound pipelines' gpu schedules (and copy kernels), for
// x86-64-linux-opencl and x86-64-linux-cuda, timed on the H100 by run.cpp.
#include "Halide.h"
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
using namespace Halide;

Var x("x"), y("y"), c("c"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), yc("yc"), xii("xii"), yii("yii"), t("t");

struct Built { Pipeline p; std::vector<Argument> args; };

// Lanes contiguous in x: a warp's 32 threads take 32 consecutive x; each thread does U such x
// positions 32 apart (unrolled) and R rows (unrolled), so every load/store instruction of a warp
// touches one contiguous 32-byte run, with U*R independent accesses per thread in flight.
Var k("k"), r("r"), xt("xt"), yt("yt");
void lanes(Func f, int U, int R, int TY, bool with_c) {
    f.split(x, x, xt, 32, TailStrategy::GuardWithIf).split(x, xo, k, U, TailStrategy::GuardWithIf)
        .split(y, y, r, R, TailStrategy::GuardWithIf).split(y, yo, yt, TY, TailStrategy::GuardWithIf);
    if (with_c) f.reorder(k, r, xt, yt, xo, yo, c).gpu_blocks(xo, yo, c);
    else f.reorder(k, r, xt, yt, xo, yo).gpu_blocks(xo, yo);
    f.gpu_threads(xt, yt).unroll(k).unroll(r);
}

// ---- copy (3-channel planar) ----
Built copy3(const std::string &s) {
    ImageParam in(UInt(8), 3, "input");
    Func out("output");
    out(x, y, c) = in(x, y, c);
    if (s == "v16") out.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
    else if (s == "v4") out.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
    else if (s == "v16al") {
        Expr al = in.dim(0).min() % 16 == 0 && in.dim(1).stride() % 16 == 0 && in.dim(2).stride() % 16 == 0 &&
                  Func(out).output_buffer().dim(0).min() % 16 == 0 && Func(out).output_buffer().dim(1).stride() % 16 == 0 &&
                  Func(out).output_buffer().dim(2).stride() % 16 == 0;
        out.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        out.specialize(al);
    } else if (s == "lane16") { lanes(out, 16, 1, 8, true);
    } else if (s == "v4al") {
        Expr al = in.dim(0).min() % 4 == 0 && in.dim(1).stride() % 4 == 0 && in.dim(2).stride() % 4 == 0 &&
                  Func(out).output_buffer().dim(0).min() % 4 == 0 && Func(out).output_buffer().dim(1).stride() % 4 == 0 &&
                  Func(out).output_buffer().dim(2).stride() % 4 == 0;
        out.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf).gpu_blocks(c);
        out.specialize(al);
    } else throw std::runtime_error("copy3 " + s);
    return {Pipeline(out), {in}};
}

// ---- brighten ----
Built brighten(const std::string &s) {
    ImageParam input(UInt(8), 3, "input");
    Param<uint8_t> gain("gain");
    Param<int16_t> offset("offset");
    Func output("output");
    Expr scaled = (cast<int32_t>(input(x, y, c)) * cast<int32_t>(gain) + 8) >> 4;
    output(x, y, c) = cast<uint8_t>(clamp(scaled + cast<int32_t>(offset), 0, 255));
    auto ob = output.output_buffer();
    auto al = [&](int a) {
        return input.dim(0).min() % a == 0 && input.dim(1).stride() % a == 0 && input.dim(2).stride() % a == 0 &&
               ob.dim(0).min() % a == 0 && ob.dim(1).stride() % a == 0 && ob.dim(2).stride() % a == 0;
    };
    if (s == "cur") output.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
    else if (s == "px16") output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16).gpu_blocks(c);
    else if (s == "v16al") {
        output.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(al(16));
    } else if (s == "v4al") {
        output.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(al(4));
    } else if (s == "v8al") {
        output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(al(8));
    } else if (s == "v16al_r4") {  // 16 B x 4 rows per thread
        output.split(x, x, xii, 16).split(y, y, yii, 4).reorder(xii, yii, x, y, c).vectorize(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(al(16));
    } else if (s == "v4al_r4") {  // 4 B x 4 rows per thread
        output.split(x, x, xii, 4).split(y, y, yii, 4).reorder(xii, yii, x, y, c).vectorize(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(al(4));
    } else if (s.rfind("st", 0) == 0) {  // st<V>r<R>[al]: V bytes x R rows per thread, the input block staged in registers first
        int V = 4, R = 4;
        sscanf(s.c_str(), "st%dr%d", &V, &R);
        output.split(x, x, xii, V).split(y, y, yii, R).reorder(xii, yii, x, y, c).vectorize(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        Func w = input.in();
        w.compute_at(output, xi).vectorize(w.args()[0]).unroll(w.args()[1]);
        if (s.find("al") != std::string::npos) output.specialize(al(V));
    } else if (s == "lane16") { lanes(output, 16, 1, 8, true);
    } else if (s == "lane8r2") { lanes(output, 8, 2, 8, true);
    } else if (s == "lane4r4") { lanes(output, 4, 4, 8, true);
    } else if (s == "lane4") { lanes(output, 4, 1, 8, true);
    } else if (s == "v4al_fuse") {  // y and c fused: one 2-D grid
        output.fuse(y, c, yc).vectorize(x, 4).gpu_tile(x, yc, xo, yo, xi, yi, 64, 4, TailStrategy::GuardWithIf);
        output.specialize(al(4));
    } else throw std::runtime_error("brighten " + s);
    return {Pipeline(output), {input, gain, offset}};
}

// ---- blur3x3 ----
Built blur(const std::string &s) {
    ImageParam input(UInt(8), 2, "input");
    Func output("output"), sum_x("sum_x"), in16("in16");
    Func clamped = BoundaryConditions::repeat_edge(input);
    in16(x, y) = cast<uint16_t>(clamped(x, y));
    sum_x(x, y) = in16(x - 1, y) + in16(x, y) + in16(x + 1, y);
    output(x, y) = cast<uint8_t>((sum_x(x, y - 1) + sum_x(x, y) + sum_x(x, y + 1) + 4) / 9);
    auto ob = output.output_buffer();
    auto al = [&](int a) { return input.dim(1).stride() % a == 0 && ob.dim(0).min() % a == 0 && ob.dim(1).stride() % a == 0 && input.dim(0).min() % a == 0; };
    if (s == "cur") output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    else if (s == "v8al") {
        output.vectorize(x, 8).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
        output.specialize(al(8));
    } else if (s == "v16al") {
        output.vectorize(x, 16).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
        output.specialize(al(16));
    } else if (s == "rows8" || s == "rows16x4" || s == "rows8x8n" || s == "rows16x8") {  // V wide x R rows per thread, row sums slide in registers
        const int V = (s == "rows16x4" || s == "rows16x8") ? 16 : 8, R = (s == "rows16x4") ? 4 : 8;
        output.split(x, x, xii, V).split(y, y, yii, R).reorder(xii, yii, x, y).vectorize(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
        sum_x.store_at(output, xi).compute_at(output, yii).vectorize(x);
        if (s != "rows8x8n") output.specialize(al(V));
    } else if (s == "lane_r8" || s == "lane_r16" || s == "lane_r4") {  // 1 column x R rows per thread, row sums slide in registers
        const int R = s == "lane_r8" ? 8 : s == "lane_r16" ? 16 : 4;
        output.split(x, xo, xt, 32, TailStrategy::GuardWithIf).split(y, y, r, R, TailStrategy::GuardWithIf)
            .split(y, yo, yt, 8, TailStrategy::GuardWithIf).reorder(r, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt).unroll(r);
        sum_x.store_at(output, xt).compute_at(output, r);
    } else if (s == "lane_r8b" || s == "lane_r16b") {  // 1 column x R rows per thread, R+2 row sums in registers
        const int R = s == "lane_r8b" ? 8 : 16;
        output.split(x, xo, xt, 32, TailStrategy::GuardWithIf).split(y, y, r, R, TailStrategy::ShiftInwards)
            .split(y, yo, yt, 8, TailStrategy::GuardWithIf).reorder(r, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt).unroll(r);
        sum_x.compute_at(output, xt).unroll(y);
    } else if (s == "lane2_r8b") {
        output.split(x, x, xt, 32, TailStrategy::GuardWithIf).split(x, xo, k, 2, TailStrategy::GuardWithIf)
            .split(y, y, r, 8, TailStrategy::ShiftInwards).split(y, yo, yt, 8, TailStrategy::GuardWithIf)
            .reorder(r, k, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt).unroll(k).unroll(r);
        sum_x.compute_at(output, k).unroll(y);
    } else if (s == "lane2_r8") {  // 2 columns (32 apart) x 8 rows per thread
        output.split(x, x, xt, 32, TailStrategy::GuardWithIf).split(x, xo, k, 2, TailStrategy::GuardWithIf)
            .split(y, y, r, 8, TailStrategy::GuardWithIf).split(y, yo, yt, 8, TailStrategy::GuardWithIf)
            .reorder(r, k, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt).unroll(k).unroll(r);
        sum_x.store_at(output, k).compute_at(output, r);
    } else if (s.rfind("st", 0) == 0) {  // st<V>x<R>: V x R outputs per thread; (V+2)x(R+2) input and V x (R+2) row sums in registers
        int V = 4, R = 8;
        sscanf(s.c_str(), "st%dx%d", &V, &R);
        output.split(x, x, xii, V).split(y, y, yii, R).reorder(xii, yii, x, y).unroll(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
        in16.compute_at(output, xi).unroll(x).unroll(y);
        sum_x.compute_at(output, xi).unroll(x).unroll(y);
        if (s.find("al") != std::string::npos) output.specialize(al(V));
    } else if (s == "smem") {  // input tile staged in shared memory, 8 px per thread
        output.split(x, x, xii, 8).vectorize(xii).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
        in16.compute_at(output, xo).gpu_threads(x, y);
        output.specialize(al(8));
    } else throw std::runtime_error("blur " + s);
    return {Pipeline(output), {input}};
}

// ---- resize_bilinear ----
Built resize(const std::string &s) {
    ImageParam input(UInt(8), 3, "input");
    Func output("output"), in_f("in_f");
    Expr in_w = input.dim(0).extent(), in_h = input.dim(1).extent();
    Param<int> pw("ow"), ph("oh");
    Expr ow = pw, oh = ph;
    Expr sx = (cast<float>(x) + 0.5f) * (cast<float>(in_w) / cast<float>(ow)) - 0.5f;
    Expr sy = (cast<float>(y) + 0.5f) * (cast<float>(in_h) / cast<float>(oh)) - 0.5f;
    Expr ix = cast<int>(floor(sx)), iy = cast<int>(floor(sy));
    Expr fx = sx - floor(sx), fy = sy - floor(sy);
    Func clamped = BoundaryConditions::repeat_edge(input);
    in_f(x, y, c) = cast<float>(clamped(x, y, c));
    Expr top = in_f(ix, iy, c) * (1.f - fx) + in_f(ix + 1, iy, c) * fx;
    Expr bottom = in_f(ix, iy + 1, c) * (1.f - fx) + in_f(ix + 1, iy + 1, c) * fx;
    Expr v = top * (1.f - fy) + bottom * fy;
    output(x, y, c) = cast<uint8_t>(clamp(v + 0.5f, 0.f, 255.f));
    auto ob = output.output_buffer();
    if (s == "cur") output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16).gpu_blocks(c);
    else if (s == "px32x8") output.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
    else if (s == "v4") {
        output.vectorize(x, 4).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(ob.dim(0).min() % 4 == 0 && ob.dim(1).stride() % 4 == 0 && ob.dim(2).stride() % 4 == 0);
    } else if (s == "v4r2") {
        output.split(x, x, xii, 4).split(y, y, yii, 2).reorder(xii, yii, x, y, c).vectorize(xii).unroll(yii)
            .gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf).gpu_blocks(c);
        output.specialize(ob.dim(0).min() % 4 == 0 && ob.dim(1).stride() % 4 == 0 && ob.dim(2).stride() % 4 == 0);
    } else if (s == "lane4") { lanes(output, 4, 1, 8, true);
    } else if (s == "lane2r2") { lanes(output, 2, 2, 8, true);
    } else if (s == "lanec2") {  // 2 x (32 apart) x 3 channels per thread
        output.bound(c, 0, 3);
        output.split(x, x, xt, 32, TailStrategy::GuardWithIf).split(x, xo, k, 2, TailStrategy::GuardWithIf)
            .split(y, yo, yt, 8, TailStrategy::GuardWithIf).reorder(c, k, xt, yt, xo, yo).gpu_blocks(xo, yo).gpu_threads(xt, yt).unroll(k).unroll(c);
    } else if (s == "px32x8c") {  // channels inside the thread: 3 outputs per thread share coordinates
        output.reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(x, y, xo, yo, xi, yi, 32, 8, TailStrategy::GuardWithIf);
    } else throw std::runtime_error("resize " + s);
    return {Pipeline(output), {input, pw, ph}};
}

// ---- rgb_to_yuv ----
Built yuv(const std::string &s) {
    ImageParam input(UInt(8), 3, "input");
    Func out_y("out_y"), out_u("out_u"), out_v("out_v"), in32("in32"), sub("sub");
    Func clamped = BoundaryConditions::repeat_edge(input);
    in32(x, y, c) = cast<int32_t>(clamped(x, y, c));
    Expr r = in32(x, y, 0), g = in32(x, y, 1), b = in32(x, y, 2);
    out_y(x, y) = cast<uint8_t>(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
    sub(x, y, c) = (in32(2 * x, 2 * y, c) + in32(2 * x + 1, 2 * y, c) + in32(2 * x, 2 * y + 1, c) + in32(2 * x + 1, 2 * y + 1, c) + 2) >> 2;
    Expr rs = sub(x, y, 0), gs = sub(x, y, 1), bs = sub(x, y, 2);
    out_u(x, y) = cast<uint8_t>(clamp(((-38 * rs - 74 * gs + 112 * bs + 128) >> 8) + 128, 0, 255));
    out_v(x, y) = cast<uint8_t>(clamp(((112 * rs - 94 * gs - 18 * bs + 128) >> 8) + 128, 0, 255));
    auto shape = [&] {
        out_y.output_buffer().dim(0).set_min(0).dim(1).set_min(0);
        for (Func o : {out_u, out_v}) {
            o.output_buffer().dim(0).set_min(0).set_extent((out_y.output_buffer().dim(0).extent() + 1) / 2);
            o.output_buffer().dim(1).set_min(0).set_extent((out_y.output_buffer().dim(1).extent() + 1) / 2);
        }
    };
    if (s == "cur") {
        for (Func o : {out_y, out_u, out_v}) o.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
    } else if (s == "cw") {
        shape();  // u and v computed with y: one kernel, 2x2 Y pixels + 1 U + 1 V per thread
        out_y.split(x, x, xi, 2).split(y, y, yi, 2).reorder(xi, yi, x, y).unroll(xi).unroll(yi)
            .gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_v.gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.compute_with(out_y, xii);
        out_v.compute_with(out_u, xii);
    } else if (s == "cw_st") {  // cw, with the 2x2x3 input block staged in registers
        shape();
        out_y.split(x, x, xi, 2).split(y, y, yi, 2).reorder(xi, yi, x, y).unroll(xi).unroll(yi)
            .gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_v.gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.compute_with(out_y, xii);
        out_v.compute_with(out_u, xii);
        in32.compute_at(out_y, xii).reorder(c, x, y).unroll(x).unroll(y).unroll(c);
    } else if (s == "cw4") {
        shape();  // 4x2 Y + 2 U + 2 V per thread
        out_y.split(x, x, xi, 4).split(y, y, yi, 2).reorder(xi, yi, x, y).vectorize(xi).unroll(yi)
            .gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.split(x, x, xi, 2).vectorize(xi).gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_v.split(x, x, xi, 2).vectorize(xi).gpu_tile(x, y, xo, yo, xii, yii, 32, 8);
        out_u.compute_with(out_y, xii);
        out_v.compute_with(out_u, xii);
    } else throw std::runtime_error("yuv " + s);
    return {Pipeline({out_y, out_u, out_v}), {input}};
}

int main(int argc, char **argv) {
    const std::string outdir = argv[1];
    const bool debug = argc > 2 && std::string(argv[2]) == "debug";
    const std::string only = argc > 3 ? argv[3] : "";
    std::map<std::string, std::pair<std::function<Built(const std::string &)>, std::vector<std::string>>> fam{
        {"copy3", {copy3, {"v16", "v4", "v16al", "v4al", "lane16"}}},
        {"brighten", {brighten, {"cur", "px16", "v16al", "v4al", "v8al", "v16al_r4", "v4al_r4", "v4al_fuse", "lane16", "lane8r2", "lane4r4", "lane4", "st4r4", "st4r8", "st4r4al", "st4r8al", "st8r4al", "st16r1al", "st16r2al"}}},
        {"blur", {blur, {"cur", "v8al", "v16al", "rows8", "rows16x4", "rows8x8n", "rows16x8", "lane_r4", "lane_r8", "lane_r16", "lane2_r8", "lane_r8b", "lane_r16b", "lane2_r8b", "st4x8", "st4x16", "st8x8", "st8x8al", "st4x8al", "st16x4al"}}},
        {"resize", {resize, {"cur", "px32x8", "v4", "v4r2", "px32x8c", "lane4", "lane2r2", "lanec2"}}},
        {"yuv", {yuv, {"cur", "cw", "cw4"}}},
    };
    std::ofstream list(outdir + "/variants.inc");
    std::ofstream hdr(outdir + "/all.h");
    for (const std::string rt : {"opencl", "cuda"}) {
        Target tg("x86-64-linux-" + rt + (debug ? "-debug" : ""));
        tg = tg.with_feature(Target::NoRuntime);
        for (auto &[f, v] : fam) {
            for (auto &s : v.second) {
                if (debug && !(s == "cur")) continue;
                if (!only.empty() && only != f) continue;
                const std::string name = f + "_" + s + "_" + rt;
                try {
                    Built b = v.first(s);
                    b.p.compile_to({{OutputFileType::object, outdir + "/" + name + ".o"},
                                    {OutputFileType::c_header, outdir + "/" + name + ".h"}},
                                   b.args, name, tg);
                    list << "V(" << f << ", " << s << ", " << rt << ", " << name << ")\n";
                    hdr << "#include \"" << name << ".h\"\n";
                    std::printf("built %s\n", name.c_str());
                } catch (const Halide::Error &e) {
                    std::printf("FAILED %s: %s\n", name.c_str(), e.what());
                } catch (const std::exception &e) {
                    std::printf("FAILED %s: %s\n", name.c_str(), e.what());
                }
            }
        }
    }
    Target rtg(std::string("x86-64-linux-opencl-cuda") + (debug ? "-debug" : ""));
    compile_standalone_runtime(outdir + "/runtime.o", rtg);
    return 0;
}
