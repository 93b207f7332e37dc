"""lavapipe 22.3.6 silently ends a shader loop after 65535 iterations (gallivm's loop limiter,
LP_MAX_TGSI_LOOP_ITERATIONS = 65535 in Mesa's source): a 65536-step recurrence computed in one GPU thread
comes back as if it had run 65535 steps (every element wrong), 10000 steps are right. So a kernel cannot
hang on that lavapipe, and a long reduction inside one work-item is wrong there without any error. The
driver's: the same program is right on lavapipe 25.0.7 (scripts/with-mesa25). Not checked on
NVIDIA.

    HL_VK_DEVICE_TYPE=cpu python3 harness/test/vulkan_repro/lavapipe_loop_limit.py    # exit 1: reproduced
"""

import sys

import halide as hl
import numpy as np
from common import compare

x, y, xo, yo, xi, yi = [hl.Var(n) for n in "x y xo yo xi yi".split()]
buf = hl.Buffer(hl.UInt(8), [64, 48])
np.asarray(buf)[:] = np.random.default_rng(5).integers(0, 255, (48, 64), dtype=np.uint8)


def steps(n):
    def build(gpu):
        acc, out, r = hl.Func("acc"), hl.Func("out"), hl.RDom([(0, n)])
        acc[x, y] = hl.cast(hl.UInt(32), buf[x, y])
        acc[x, y] = acc[x, y] * hl.u32(1664525) + hl.u32(1013904223) + hl.cast(hl.UInt(32), r.x)
        out[x, y] = hl.cast(hl.UInt(8), acc[x, y] >> 24)
        if gpu:
            out.gpu_tile(x, y, xo, yo, xi, yi, 8, 4)
            acc.compute_at(out, xi)
        return out

    return build


if compare("10000-step loop in one thread (control)", steps(10000), [64, 48], [buf]):
    print("control failed: some other problem; this test fails until it is understood")
    sys.exit(0)
sys.exit(compare("65536-step loop in one thread", steps(65536), [64, 48], [buf]))
