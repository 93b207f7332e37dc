#!/usr/bin/env python3
"""results_table.py: the Markdown tables of docs/performance.md from a pipeline-benchmarks JSON file.

Usage: benchmarks/results_table.py [--help] BENCH_JSON [--profiles cpu,host,opencl-mali]
       benchmarks/results_table.py BENCH_JSON --summary PROFILE [--reference-profile cpu]
       benchmarks/results_table.py NEW_JSON --versus OLD_JSON[,OLD_JSON...] --summary PROFILE

Reads Google Benchmark JSON written with --benchmark_repetitions=N (median aggregates are used when
present, else the single run) and prints a Markdown table: one row per pipeline benchmark
(BM_<pipeline>/<profile>/<size>/<mode>) with time, Mpix/s, % of copy bandwidth and speed-up vs
OpenCV, then the BM_memcpy and BM_opencv rows.

--summary PROFILE: one row per pipeline and size (resident mode) with PROFILE's time, the time of
the reference profile (default cpu) for the same case, PROFILE's Mpix/s, % of copy bandwidth and
speed-up vs OpenCV; then the geometric mean of the speed-ups over the benchmarks that have one, and
over pipelines (each pipeline's sizes averaged geometrically first).

--versus OLD_JSON,...: with --summary, the same rows for several runs side by side (the OLD files
first, BENCH_JSON last; each column named after its file): PROFILE's time and speed-up vs OpenCV per
run, then each run's geometric means. For old-vs-new tables of a schedule change.
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
            line = (
                f"| `{name}` | {fmt_time(b)} | {b.get('pixels_per_second', 0) / 1e6:.0f} | "
                f"{b.get('pct_of_copy_bw', 0):.0f} % | {'' if speed is None else f'{speed:.2f}x'} |"
            )
        if parts[0] in ("BM_memcpy", "BM_opencv"):
            refs.append(line)
        elif not profiles or (len(parts) > 1 and parts[1] in profiles):
            pipes.append(line)
    return "\n".join(out + pipes + refs)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def resident(by_name, profile):
    """(pipeline, size, entry) for PROFILE's resident pipeline benchmarks (not the copy or OpenCV rows)."""
    for name, b in by_name.items():
        parts = name.split("/")
        if (
            len(parts) == 4
            and parts[1] == profile
            and parts[3] == "resident"
            and parts[0] not in ("BM_memcpy", "BM_opencv")
        ):
            yield parts[0][3:], parts[2], b


def summary(doc, profile, ref_profile):
    """Per pipeline and size: PROFILE vs the reference profile and OpenCV, with geometric means."""
    by_name = rows(doc)
    out = [
        f"| pipeline | size | {profile} time | {ref_profile} time | {profile} Mpix/s | % of copy bw | "
        "speed-up vs OpenCV |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    speedups, per_pipeline = [], {}
    for pipeline, size, b in resident(by_name, profile):
        ref = by_name.get(f"BM_{pipeline}/{ref_profile}/{size}/resident")
        ref_time = "" if ref is None or ref.get("error_occurred") else fmt_time(ref)
        if b.get("error_occurred"):
            out.append(f"| {pipeline} | {size} | error: {b.get('error_message', '')} | {ref_time} | | | |")
            continue
        speed = b.get("speedup_vs_opencv")
        if speed is not None:
            speedups.append(speed)
            per_pipeline.setdefault(pipeline, []).append(speed)
        out.append(
            f"| {pipeline} | {size} | {fmt_time(b)} | {ref_time} | {b.get('pixels_per_second', 0) / 1e6:.0f} | "
            f"{b.get('pct_of_copy_bw', 0):.0f} % | {'' if speed is None else f'{speed:.2f}x'} |"
        )
    g_bench = geomean(speedups)
    g_pipe = geomean([geomean(v) for v in per_pipeline.values()])
    out.append("")
    if g_bench is None:
        out.append(f"geomean speed-up vs OpenCV ({profile}): none (no benchmark has speedup_vs_opencv)")
    else:
        out.append(
            f"geomean speed-up vs OpenCV ({profile}): {g_bench:.2f}x over {len(speedups)} benchmarks, "
            f"{g_pipe:.2f}x over {len(per_pipeline)} pipelines"
        )
    return "\n".join(out)


def versus(docs, labels, profile):
    """PROFILE's resident rows of several runs side by side: time and speed-up vs OpenCV per run."""
    tables = [rows(d) for d in docs]
    keys = sorted({(pipeline, size) for t in tables for pipeline, size, _ in resident(t, profile)})
    head = " | ".join(f"{l} time" for l in labels) + " | " + " | ".join(f"{l} vs OpenCV" for l in labels)
    out = [f"| pipeline | size | {head} |", "|---|---|" + "---:|" * (2 * len(labels))]
    per_run = [dict() for _ in docs]
    for pipeline, size in keys:
        times, speeds = [], []
        for k, t in enumerate(tables):
            b = t.get(f"BM_{pipeline}/{profile}/{size}/resident")
            ok = b is not None and not b.get("error_occurred")
            times.append(fmt_time(b) if ok else ("error" if b else ""))
            speed = b.get("speedup_vs_opencv") if ok else None
            speeds.append("" if speed is None else f"{speed:.2f}x")
            if speed is not None:
                per_run[k].setdefault(pipeline, []).append(speed)
        out.append(f"| {pipeline} | {size} | " + " | ".join(times) + " | " + " | ".join(speeds) + " |")
    out.append("")
    for label, pipes in zip(labels, per_run):
        g = geomean([geomean(v) for v in pipes.values()])
        out.append(
            f"{label}: geomean speed-up vs OpenCV ({profile}) "
            + ("none" if g is None else f"{g:.2f}x over {len(pipes)} pipelines")
        )
    return "\n".join(out)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    summary_profile, ref_profile, olds = None, "cpu", []
    for flag in ("--summary", "--reference-profile", "--versus"):
        if flag in argv:
            i = argv.index(flag)
            if i + 1 >= len(argv):
                print(f"results_table.py: {flag} needs a profile name", file=sys.stderr)
                return 2
            if flag == "--summary":
                summary_profile = argv[i + 1]
            elif flag == "--versus":
                olds = argv[i + 1].split(",")
            else:
                ref_profile = argv[i + 1]
            argv = argv[:i] + argv[i + 2 :]
    profiles = []
    if "--profiles" in argv:
        i = argv.index("--profiles")
        profiles = argv[i + 1].split(",")
        argv = argv[:i] + argv[i + 2 :]
    if olds and not summary_profile:
        print("results_table.py: --versus needs --summary PROFILE (the profile to compare)", file=sys.stderr)
        return 2
    docs = []
    for path in olds + argv[:1]:
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, ValueError) as e:
            print(f"results_table.py: cannot read {path}: {e}; pass a pipeline-benchmarks JSON file", file=sys.stderr)
            return 2
    doc = docs[-1]
    if olds:
        labels = [re.sub(r"\.json$", "", p.rsplit("/", 1)[-1]) for p in olds + argv[:1]]
        print(versus(docs, labels, summary_profile))
        return 0
    print(summary(doc, summary_profile, ref_profile) if summary_profile else table(doc, profiles))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
