// With the debug runtime: the harness's benchmark sequence (Invocation::call in host mode, then
// call_resident + device_sync twice) for brighten/cur and blur/cur; prints markers so that the
// runtime calls of the resident calls can be read.
#include <cstdio>
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"
#include "HalideRuntimeOpenCL.h"
#include "all.h"
using B = Halide::Runtime::Buffer<uint8_t>;
int main() {
    for (int rt = 0; rt < 2; rt++) {
        B in(64, 48, 3), out(64, 48, 3);
        in.fill(7);
        auto call = [&] { return rt ? brighten_cur_cuda(in.raw_buffer(), 20, 30, out.raw_buffer()) : brighten_cur_opencl(in.raw_buffer(), 20, 30, out.raw_buffer()); };
        fprintf(stderr, "=== %s: host-mode call\n", rt ? "cuda" : "opencl");
        in.set_host_dirty(true);
        call();
        out.copy_to_host();
        out.device_free();
        in.device_free();
        fprintf(stderr, "=== warm-up resident call\n");
        call(); out.device_sync();
        for (int i = 0; i < 2; i++) {
            fprintf(stderr, "=== resident call %d\n", i);
            call();
            fprintf(stderr, "=== device_sync %d\n", i);
            out.device_sync();
        }
        fprintf(stderr, "=== device-to-device halide_buffer_copy (the copy reference)\n");
        {
            const halide_device_interface_t *i = rt ? halide_cuda_device_interface() : halide_opencl_device_interface();
            B s(1 << 20), d(1 << 20);
            s.fill(1); s.set_host_dirty(true); s.copy_to_device(i); d.device_malloc(i);
            fprintf(stderr, "=== copy\n");
            halide_buffer_copy(nullptr, s.raw_buffer(), i, d.raw_buffer());
            fprintf(stderr, "=== sync\n");
            d.device_sync();
        }
        fprintf(stderr, "=== end\n");
    }
}
