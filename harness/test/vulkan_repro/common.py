"""Shared helpers of the Vulkan reproducers: JIT the same Func for the CPU and for Vulkan, compare.

Each reproducer exits 1 while the problem reproduces (printing REPRODUCED and the first difference),
0 once it no longer does (then remove the golden/xfail.json entry that cites it), 77 without Vulkan.
"""

import sys

import halide as hl
import numpy as np


def vk_target():
    t = hl.get_host_target()
    for f in (
        hl.TargetFeature.Vulkan,
        hl.TargetFeature.VulkanInt8,
        hl.TargetFeature.VulkanInt16,
        hl.TargetFeature.VulkanV13,
    ):
        t = t.with_feature(f)
    return t


def realize(f, shape, target, inputs=()):
    for b in inputs:
        b.set_host_dirty(True)
    try:
        out = f.realize(shape, target)
    except hl.HalideError as e:  # no Vulkan driver: SKIP
        if "Vulkan" in str(e) and ("instance" in str(e).lower() or "device" in str(e).lower()):
            print("SKIP:", e)
            sys.exit(77)
        raise
    out.copy_to_host()
    return np.asarray(out).copy()


def compare(name, build, shape, inputs=()):
    """build(gpu) -> Func. Exit 1 if Vulkan's result differs from the CPU's."""
    ref = realize(build(False), shape, hl.get_host_target(), inputs)
    got = realize(build(True), shape, vk_target(), inputs)
    bad = np.argwhere(ref != got)
    if len(bad):
        i = tuple(int(v) for v in bad[0])
        print(
            f"{name}: REPRODUCED: {len(bad)} of {ref.size} elements differ; first at numpy index {i}: "
            f"cpu {ref[i]}, vulkan {got[i]}"
        )
        return 1
    print(f"{name}: not reproduced (Vulkan matches the CPU)")
    return 0
