#!/usr/bin/env python3
"""results_table.py: the RESULTS.md table from a pipeline-benchmarks JSON file.

Usage: benchmarks/results_table.py [--help] BENCH_JSON [--profiles cpu,host,opencl-mali]
       benchmarks/results_table.py BENCH_JSON --summary PROFILE [--reference-profile cpu]

Reads Google Benchmark JSON written with --benchmark_repetitions=N (median aggregates are used when
present, else the single run) and prints a Markdown table: one row per pipeline benchmark
(BM_<pipeline>/<profile>/<size>/<mode>) with time, Mpix/s, % of copy bandwidth and speed-up vs
OpenCV, then the BM_memcpy and BM_opencv rows.

--summary PROFILE: one row per pipeline and size (resident mode) with PROFILE's time, the time of
the reference profile (default cpu) for the same case, PROFILE's Mpix/s, % of copy bandwidth and
speed-up vs OpenCV; then the geometric mean of the speed-ups over the benchmarks that have one, and
over pipelines (each pipeline's sizes averaged geometrically first).
Exit 2 on a missing or unreadable file.
"""
import json
import math
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
    return f"{ms:.0f} ms" if ms >= 1000 else f"{ms:.3g} ms"


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


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def summary(doc, profile, ref_profile):
    """Per pipeline and size: PROFILE vs the reference profile and OpenCV, with geometric means."""
    by_name = rows(doc)
    out = [f"| pipeline | size | {profile} time | {ref_profile} time | {profile} Mpix/s | % of copy bw | "
           "speed-up vs OpenCV |", "|---|---|---:|---:|---:|---:|---:|"]
    speedups, per_pipeline = [], {}
    for name, b in by_name.items():
        parts = name.split("/")
        if len(parts) != 4 or parts[1] != profile or parts[3] != "resident" or parts[0] in ("BM_memcpy", "BM_opencv"):
            continue
        pipeline, size = parts[0][3:], parts[2]
        ref = by_name.get(f"BM_{pipeline}/{ref_profile}/{size}/resident")
        ref_time = "" if ref is None or ref.get("error_occurred") else fmt_time(ref)
        if b.get("error_occurred"):
            out.append(f"| {pipeline} | {size} | error: {b.get('error_message', '')} | {ref_time} | | | |")
            continue
        speed = b.get("speedup_vs_opencv")
        if speed is not None:
            speedups.append(speed)
            per_pipeline.setdefault(pipeline, []).append(speed)
        out.append(f"| {pipeline} | {size} | {fmt_time(b)} | {ref_time} | {b.get('pixels_per_second', 0) / 1e6:.0f} | "
                   f"{b.get('pct_of_copy_bw', 0):.0f} % | {'' if speed is None else f'{speed:.2f}x'} |")
    g_bench = geomean(speedups)
    g_pipe = geomean([geomean(v) for v in per_pipeline.values()])
    out.append("")
    if g_bench is None:
        out.append(f"geomean speed-up vs OpenCV ({profile}): none (no benchmark has speedup_vs_opencv)")
    else:
        out.append(f"geomean speed-up vs OpenCV ({profile}): {g_bench:.2f}x over {len(speedups)} benchmarks, "
                   f"{g_pipe:.2f}x over {len(per_pipeline)} pipelines")
    return "\n".join(out)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    summary_profile, ref_profile = None, "cpu"
    for flag in ("--summary", "--reference-profile"):
        if flag in argv:
            i = argv.index(flag)
            if i + 1 >= len(argv):
                print(f"results_table.py: {flag} needs a profile name", file=sys.stderr)
                return 2
            if flag == "--summary":
                summary_profile = argv[i + 1]
            else:
                ref_profile = argv[i + 1]
            argv = argv[:i] + argv[i + 2:]
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
    print(summary(doc, summary_profile, ref_profile) if summary_profile else table(doc, profiles))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
