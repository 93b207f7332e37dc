#!/usr/bin/env python3
"""results_table.py: the RESULTS.md table from a pipeline-benchmarks JSON file.

Usage: benchmarks/results_table.py [--help] BENCH_JSON [--profiles cpu,host,opencl-mali]

Reads Google Benchmark JSON written with --benchmark_repetitions=N (median aggregates are used when
present, else the single run) and prints a Markdown table: one row per pipeline benchmark
(BM_<pipeline>/<profile>/<size>/<mode>) with time, Mpix/s, % of copy bandwidth and speed-up vs
OpenCV, then the BM_memcpy and BM_opencv rows. Exit 2 on a missing or unreadable file.
"""
import json
import re
import sys


def rows(doc):
    """(name, entry) per benchmark: the median aggregate if the run has one, else the run itself."""
    by_name = {}
    for b in doc.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        name = re.sub(r"/(manual_time|real_time|iterations:\d+|repeats:\d+)", "", name)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                by_name[name] = b
        else:
            by_name.setdefault(name, b)
    return by_name


def fmt_time(b):
    t, unit = b.get("real_time", 0.0), b.get("time_unit", "ns")
    ms = t * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
    return f"{ms:.3g} ms"


def table(doc, profiles):
    out = ["| benchmark | time | Mpix/s | % of copy bw | speed-up vs OpenCV |", "|---|---:|---:|---:|---:|"]
    pipes, refs = [], []
    for name, b in rows(doc).items():
        parts = name.split("/")
        if b.get("error_occurred"):
            line = f"| `{name}` | error: {b.get('error_message', '')} | | | |"
        else:
            speed = b.get("speedup_vs_opencv")
            line = (f"| `{name}` | {fmt_time(b)} | {b.get('pixels_per_second', 0) / 1e6:.0f} | "
                    f"{b.get('pct_of_copy_bw', 0):.0f} % | {'' if speed is None else f'{speed:.2f}x'} |")
        if parts[0] in ("BM_memcpy", "BM_opencv"):
            refs.append(line)
        elif not profiles or (len(parts) > 1 and parts[1] in profiles):
            pipes.append(line)
    return "\n".join(out + pipes + refs)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    profiles = []
    if "--profiles" in argv:
        i = argv.index("--profiles")
        profiles = argv[i + 1].split(",")
        argv = argv[:i] + argv[i + 2:]
    try:
        with open(argv[0]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"results_table.py: cannot read {argv[0]}: {e}; pass a pipeline-benchmarks JSON file", file=sys.stderr)
        return 2
    print(table(doc, profiles))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
