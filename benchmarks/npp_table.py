#!/usr/bin/env python3
"""npp_table.py: the GPU-versus-NPP table of docs/performance.md from a pipeline-benchmarks JSON file.

Usage: benchmarks/npp_table.py [--help] BENCH_JSON [--profiles cuda,opencl] [--sizes 4096x4096,16384x16384]

Reads Google Benchmark JSON of a run where NVIDIA NPP loaded (BM_npp/<pipeline>/<size> rows, and the
GPU profiles' pipeline benchmarks carrying speedup_vs_npp; median aggregates are used when present) and
prints one Markdown row per pipeline and size: NPP's time and % of the device copy (its own paired
cudart copy), then per profile its time, % of the device copy and speed-up over NPP (NPP's median time /
the pipeline's). Resident mode only. Prints the context's `npp` (versions) or `skipped.npp` (why NPP
did not run) line first.
Exit 2 on a missing or unreadable file.
"""

import json
import sys

from results_table import rows


def ms(b):
    return b.get("real_time", 0.0) * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]


def table(doc, profiles, sizes):
    by, npp = {}, {}
    for name, b in rows(doc).items():
        parts = name.split("/")
        if b.get("error_occurred") or len(parts) < 3 or (sizes and parts[2] not in sizes):
            continue
        if parts[0] == "BM_npp":
            npp[(parts[1], parts[2])] = b
        elif len(parts) == 4 and parts[3] == "resident" and parts[1] in profiles:
            by.setdefault((parts[0][3:], parts[2]), {})[parts[1]] = b
    head = "| pipeline | size | NPP | NPP % of copy |"
    rule = "|---|---|---:|---:|"
    for p in profiles:
        head += f" {p} | {p} % of copy | {p} vs NPP |"
        rule += "---:|---:|---:|"
    out = [head, rule]
    for (pipe, size), per in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        n = npp.get((pipe, size))
        line = f"| {pipe} | {size} | " + (f"{ms(n):.3g} ms | {n.get('pct_of_copy_bw', 0):.0f} % |" if n else " | |")
        for p in profiles:
            b = per.get(p)
            if not b:
                line += " | | |"
                continue
            s = b.get("speedup_vs_npp")
            line += f" {ms(b):.3g} ms | {b.get('pct_of_copy_bw', 0):.0f} % | {'' if s is None else f'{s:.2f}x'} |"
        out.append(line)
    return "\n".join(out)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    args = argv[1:]
    opts = {"--profiles": "cuda,opencl", "--sizes": ""}
    path = None
    i = 0
    while i < len(args):
        if args[i] in opts and i + 1 < len(args):
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            path = args[i]
            i += 1
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, TypeError, json.JSONDecodeError) as e:
        print(
            f"npp_table.py: cannot read {path}: {e}; pass a pipeline-benchmarks --benchmark_out file", file=sys.stderr
        )
        return 2
    ctx = doc.get("context", {})
    if "npp" in ctx:
        print(f"NPP: {ctx['npp']}\n")
    elif "skipped.npp" in ctx:
        print(f"NPP not measured: {ctx['skipped.npp']}\n")
    sizes = [s for s in opts["--sizes"].split(",") if s]
    print(table(doc, [p for p in opts["--profiles"].split(",") if p], sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
