"""Checks `aot-harness bench --kernels` on a CPU profile (the test benchmarks/func_times): the benchmark has Halide's
per-Func breakdown from its profiled twin, the profiler counted every call of the pass and sampled it, each expected
Func (the generator's own names, given by the test) is listed with time, and the times add up against the clock:
the Funcs' sum is at most the profiler's time inside the pipeline, that is at most the wall time of the same calls
(2 % for the two clocks), and at least half of the wall time (at 1080p a call is several of the profiler's 1 ms
intervals, so nearly every call is sampled and billed). Usage: check_func_times.py BENCH_JSON BENCHMARK FUNC..."""

import json
import sys


def main():
    path, name, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    b = doc.get("kernels", {}).get(name)
    if b is None:
        print(f"FAILED: {name}: no breakdown (have: {sorted(doc.get('kernels', {}))})")
        return 1
    if "funcs" not in b:
        print(f"FAILED: {name}: no per-Func times: {b.get('error', b.get('note', b))}")
        return 1
    problems = []
    calls, runs, samples = b.get("calls", 0), b.get("runs", 0), b.get("samples", 0)
    wall, inside, funcs = b["wall_ms_per_call"], b["pipeline_ms_per_call"], b["funcs_ms_per_call"]
    times = {f["func"]: f["ms_per_call"] for f in b["funcs"]}
    print(
        f"{name}: {calls} calls of {b.get('variant')}, {runs} runs, {samples} samples; wall {wall:.4f} ms, "
        f"in the pipeline {inside:.4f} ms, Funcs {funcs:.4f} ms per call; "
        + ", ".join(f"{k} {v:.4f}" for k, v in times.items())
    )
    if calls < 1 or runs != calls:
        problems.append(f"the profiler counted {runs} runs of {calls} calls")
    if samples < 10:
        problems.append(f"only {samples} samples")
    for func in expected:
        if func not in times:
            problems.append(f"Func {func} is not listed (listed: {sorted(times)})")
        elif times[func] <= 0:
            problems.append(f"Func {func} has no time")
    if abs(funcs - sum(times.values())) > 1e-9 * max(1.0, funcs):
        problems.append(f"funcs_ms_per_call {funcs} is not the sum of the Funcs {sum(times.values())}")
    if not (0.5 * wall <= funcs <= inside * (1 + 1e-6) and inside <= 1.02 * wall):
        problems.append(
            f"Funcs {funcs:.4f} ms <= pipeline {inside:.4f} ms <= wall {wall:.4f} ms (x1.02) with the "
            f"Funcs at least half the wall does not hold"
        )
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
