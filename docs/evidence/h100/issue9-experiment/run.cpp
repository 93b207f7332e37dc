// Times the variants built by gen.cpp on the device: resident mode (inputs copied once, outputs left
// on the device, each call followed by a device sync, like pipeline-benchmarks), interleaved with a
// device-to-device halide_buffer_copy of (inputs + outputs) / 2 bytes, like pct_of_copy_bw.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"
#include "HalideRuntimeOpenCL.h"
#include "all.h"

using B = Halide::Runtime::Buffer<uint8_t>;
using Clock = std::chrono::steady_clock;
static double now_s() { return std::chrono::duration<double>(Clock::now().time_since_epoch()).count(); }

struct Variant {
    std::string family, sched, rt;
    std::function<int(std::vector<B> &)> call;  // bufs: inputs then outputs
};
std::vector<Variant> variants;

#define REG_copy3(s, rt, fn) variants.push_back({"copy3", #s, #rt, [](std::vector<B> &b) { return fn(b[0].raw_buffer(), b[1].raw_buffer()); }});
#define REG_brighten(s, rt, fn) variants.push_back({"brighten", #s, #rt, [](std::vector<B> &b) { return fn(b[0].raw_buffer(), 20, 30, b[1].raw_buffer()); }});
#define REG_blur(s, rt, fn) variants.push_back({"blur", #s, #rt, [](std::vector<B> &b) { return fn(b[0].raw_buffer(), b[1].raw_buffer()); }});
#define REG_resize(s, rt, fn) variants.push_back({"resize", #s, #rt, [](std::vector<B> &b) { return fn(b[0].raw_buffer(), b[1].dim(0).extent(), b[1].dim(1).extent(), b[1].raw_buffer()); }});
#define REG_yuv(s, rt, fn) variants.push_back({"yuv", #s, #rt, [](std::vector<B> &b) { return fn(b[0].raw_buffer(), b[1].raw_buffer(), b[2].raw_buffer(), b[3].raw_buffer()); }});
#define V(f, s, rt, fn) REG_##f(s, rt, fn)

static const halide_device_interface_t *iface(const std::string &rt) {
    return rt == "cuda" ? halide_cuda_device_interface() : halide_opencl_device_interface();
}

// shapes: inputs then outputs
static std::vector<std::vector<int>> shapes(const std::string &f, int w, int h, int *nin) {
    *nin = 1;
    if (f == "copy3" || f == "brighten") return {{w, h, 3}, {w, h, 3}};
    if (f == "blur") return {{w, h}, {w, h}};
    if (f == "resize") return {{w, h, 3}, {w * 2 / 3, h * 2 / 3, 3}};
    return {{w, h, 3}, {w, h}, {(w + 1) / 2, (h + 1) / 2}, {(w + 1) / 2, (h + 1) / 2}};
}

static B make(const std::vector<int> &s) { return s.size() == 2 ? B(s[0], s[1]) : B(s[0], s[1], s[2]); }

struct Ref {
    B src, dst;
    const halide_device_interface_t *i;
    Ref(size_t bytes, const halide_device_interface_t *i) : src((int)bytes), dst((int)bytes), i(i) {
        src.fill(0x5A);
        src.set_host_dirty(true);
        src.copy_to_device(i);
        dst.device_malloc(i);
    }
    ~Ref() { src.device_free(); dst.device_free(); }
    double run() {
        double t0 = now_s();
        halide_buffer_copy(nullptr, src.raw_buffer(), i, dst.raw_buffer());
        dst.device_sync();
        return now_s() - t0;
    }
};

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
#include "variants.inc"
    std::string only = argc > 1 ? argv[1] : "";
    int size = argc > 2 ? atoi(argv[2]) : 16384;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    std::string rts = argc > 4 ? argv[4] : "opencl,cuda";
    std::vector<std::string> fams{"copy3", "brighten", "blur", "resize", "yuv"};
    for (const auto &f : fams) {
        if (!only.empty() && only.find(f) == std::string::npos) continue;
        int nin;
        auto sh = shapes(f, size, size, &nin);
        std::vector<B> host;
        double bytes = 0;
        for (auto &s : sh) { host.push_back(make(s)); bytes += host.back().size_in_bytes(); }
        uint32_t st = 12345;
        for (int k = 0; k < nin; k++) {
            uint8_t *p = host[k].data();
            for (size_t i = 0; i < host[k].size_in_bytes(); i++) { st = st * 1664525u + 1013904223u; p[i] = st >> 24; }
        }
        std::vector<std::vector<uint8_t>> golden;
        for (const std::string rt : {"opencl", "cuda"}) {
            if (rts.find(rt) == std::string::npos) continue;
            Ref ref((size_t)(bytes / 2), iface(rt));
            ref.run();
            std::vector<B> b;
            for (size_t k = 0; k < sh.size(); k++) {
                b.push_back(k < (size_t)nin ? host[k] : make(sh[k]));
                if (k < (size_t)nin) { b.back().set_host_dirty(true); b.back().copy_to_device(iface(rt)); }
                else b.back().device_malloc(iface(rt));
            }
            for (auto &v : variants) {
                if (v.family != f || v.rt != rt) continue;
                for (size_t k = nin; k < sh.size(); k++) { b[k].fill(0xCD); b[k].set_host_dirty(true); b[k].copy_to_device(iface(rt)); }
                auto sync = [&] { for (size_t k = nin; k < sh.size(); k++) b[k].device_sync(); };
                int err = v.call(b);
                sync();
                if (err) { std::printf("%s %s %s: error %d\n", f.c_str(), v.sched.c_str(), rt.c_str(), err); continue; }
                for (int w = 0; w < 2; w++) { v.call(b); sync(); }
                std::vector<double> ts, cs, enq;
                for (int i = 0; i < iters; i++) {
                    double t0 = now_s();
                    v.call(b);
                    double t1 = now_s();
                    sync();
                    double t2 = now_s();
                    ts.push_back(t2 - t0);
                    enq.push_back(t1 - t0);
                    cs.push_back(ref.run());
                }
                // back-to-back: iters calls, one sync
                double t0 = now_s();
                for (int i = 0; i < iters; i++) v.call(b);
                sync();
                double batch = (now_s() - t0) / iters;
                // check against the first variant of the family
                std::vector<uint8_t> out;
                for (size_t k = nin; k < sh.size(); k++) {
                    b[k].set_device_dirty(true);
                    b[k].copy_to_host();
                    out.insert(out.end(), b[k].data(), b[k].data() + b[k].size_in_bytes());
                }
                size_t diff = 0;
                if (golden.empty()) golden.push_back(out);
                else for (size_t i = 0; i < out.size(); i++) diff += out[i] != golden[0][i];
                const double tm = median(ts), cm = median(cs);
                std::printf("%-9s %-10s %-6s %5d  %8.4f ms  batch %8.4f ms  enqueue %7.4f ms  copy %8.4f ms  %6.1f GB/s  pct %5.1f %%  diffs %zu\n",
                            f.c_str(), v.sched.c_str(), rt.c_str(), size, tm * 1e3, batch * 1e3, median(enq) * 1e3, cm * 1e3,
                            bytes / tm / 1e9, 100 * cm / tm, diff);
                std::fflush(stdout);
            }
            for (auto &x : b) x.device_free();
        }
    }
    return 0;
}
