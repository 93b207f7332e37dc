"""Checks `aot-harness bench --kernels` output (the test benchmarks/kernel_times): every GPU benchmark of the
JSON has a per-kernel breakdown whose kernels ran and were timed, the sum of their device times is at most the
wall time of the same calls, and on a CPU OpenCL driver (PoCL, where a kernel is most of a call) at least a tenth
of it; every OpenCL kernel says how many arguments it takes. Usage: check_kernel_times.py BENCH_JSON EXPECTED_BENCHMARK..."""

import json
import sys


def main():
    path, expected = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    kernels = doc.get("kernels", {})
    context = doc.get("context", {})
    problems = []
    for name in expected:
        b = kernels.get(name)
        if b is None:
            problems.append(f"{name}: no per-kernel breakdown (have: {sorted(kernels)})")
            continue
        if not b.get("kernels"):
            problems.append(f"{name}: no kernel launch recorded ({b.get('note', '')})")
            continue
        if "device_ms_per_call" not in b:
            problems.append(f"{name}: not every launch was timed ({b.get('note', '')})")
            continue
        wall, dev = b["wall_ms_per_call"], b["device_ms_per_call"]
        profile = name.split("/")[1]
        pocl = "Portable Computing Language" in context.get("device." + profile, "")
        floor = 0.1 * wall if pocl else 0.0
        print(
            f"{name}: {len(b['kernels'])} kernel(s), device {dev:.4f} ms of wall {wall:.4f} ms per call "
            f"({100 * dev / wall:.0f} %), floor {floor:.4f} ms"
        )
        if profile.startswith("opencl"):  # the interposer asks the driver (CL_KERNEL_NUM_ARGS) at every launch
            for k in b["kernels"]:
                if not isinstance(k.get("arguments"), int) or k["arguments"] < 1:
                    problems.append(f"{name}: kernel {k.get('kernel')} has no argument count ({k.get('arguments')})")
        if not (floor < dev <= wall):
            problems.append(f"{name}: kernel time {dev:.4f} ms per call is not within ({floor:.4f}, {wall:.4f}] ms")
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
