#!/usr/bin/env python3
"""Where a `run`'s wall time goes, from one results directory of the matrix device payloads.

matrix_timeline.py DIR [NAME ...]: for each run NAME (default: every NAME.batches in DIR), reads
NAME.batches (HARNESS_BATCH_LOG: one line per child with t0/t1), NAME.cpu (/proc/stat samples:
"<epoch> cpu user nice system idle iowait irq softirq ...") and summary.txt (start/end of the run), and
prints: wall time, the parent's start-up (first child's start - run start; the `matrix` line: after the
probes and planning) and wind-down, children per
device group and runtime (batches and lone children), child-seconds, when each group's last child
ended, the CPU use over the run (busy cores out of all), and the longest children.
"""
import collections
import os
import re
import sys


def read_summary(d):
    runs = {}
    path = os.path.join(d, "summary.txt")
    if not os.path.exists(path):
        return runs
    for line in open(path):
        m = re.match(r"(\S+): rc=(\d+) start=([\d.]+) end=([\d.]+)", line)
        if m:
            runs[m.group(1)] = (int(m.group(2)), float(m.group(3)), float(m.group(4)), line.split("|")[-1].strip())
    return runs


def read_matrix_start(path):
    for line in open(path):
        if line.startswith("matrix "):
            return float(dict(kv.split("=", 1) for kv in line.split() if "=" in kv)["t0"])
    return None


def read_children(path):
    kids = []
    for line in open(path):
        if line.startswith("matrix "):
            continue
        f = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        if "t0" not in f:
            continue
        pipeline, profile, case = f["first"].split("/")
        kids.append({"cases": int(f["cases"]), "end": f["end"], "first": f["first"], "profile": profile,
                     "at": f.get("at", ""), "t0": float(f["t0"]), "t1": float(f["t1"])})
    return kids


def runtime_of(profile):
    if profile in ("cpu", "host"):
        return "cpu"
    return profile.split("-")[0]


def cpu_use(path, t0, t1):
    samples = []
    for line in open(path):
        w = line.split()
        if len(w) < 9:
            continue
        t = float(w[0])
        vals = [int(x) for x in w[2:]]
        busy = sum(vals) - vals[3] - vals[4]
        samples.append((t, busy, sum(vals)))
    if len(samples) < 2:
        return None, []
    series = []
    for (ta, ba, sa), (tb, bb, sb) in zip(samples, samples[1:]):
        if sb > sa:
            series.append((tb - t0, (bb - ba) / (sb - sa)))
    inside = [s for s in samples if t0 <= s[0] <= t1] or samples
    first, last = inside[0], inside[-1]
    mean = (last[1] - first[1]) / max(1, last[2] - first[2])
    return mean, series


def machine_cores(d):
    """The device's core count: env.txt's nproc line (the payload writes it second), else 16."""
    try:
        return int(open(os.path.join(d, "env.txt")).read().split("\n")[1])
    except (OSError, ValueError, IndexError):
        return 16


def report(d, name, summary):
    kids = read_children(os.path.join(d, name + ".batches"))
    if not kids:
        print(f"== {name}: no children logged")
        return
    rc, start, end, counts = summary.get(name, (None, min(k["t0"] for k in kids), max(k["t1"] for k in kids), ""))
    print(f"== {name}: rc={rc} wall {end - start:.2f} s  {counts}")
    first_t0, last_t1 = min(k["t0"] for k in kids), max(k["t1"] for k in kids)
    matrix_t0 = read_matrix_start(os.path.join(d, name + ".batches"))
    planned = f" (probes and planning {matrix_t0 - start:.2f} s)" if matrix_t0 else ""
    print(f"   parent start-up {first_t0 - start:.2f} s{planned}, children {first_t0 - start:.2f}..{last_t1 - start:.2f} s,"
          f" wind-down {end - last_t1:.2f} s")
    by = collections.defaultdict(list)
    for k in kids:
        by[runtime_of(k["profile"])].append(k)
    for rt, ks in sorted(by.items()):
        lone = sum(1 for k in ks if k["end"] == "alone")
        busy = sum(k["t1"] - k["t0"] for k in ks)
        ends = collections.Counter(k["end"] for k in ks)
        print(f"   {rt:7s} children {len(ks):3d} (alone {lone:3d}) cases {sum(k['cases'] for k in ks):3d}"
              f"  child-s {busy:6.1f}  first start {min(k['t0'] for k in ks) - start:5.2f}"
              f"  last end {max(k['t1'] for k in ks) - start:5.2f}  ends {dict(ends)}")
    cpu = os.path.join(d, name + ".cpu")
    if os.path.exists(cpu):
        mean, series = cpu_use(cpu, start, end)
        if mean is not None:
            cores = machine_cores(d)
            line = " ".join(f"{u * cores:4.1f}" for _, u in series[:60])
            print(f"   CPU busy {mean * 100:.0f}% of all cores; per 0.5 s (cores busy): {line}")
    longest = sorted(kids, key=lambda k: k["t1"] - k["t0"], reverse=True)[:8]
    for k in longest:
        print(f"   long: {k['t1'] - k['t0']:5.2f} s  {k['t0'] - start:5.2f}..{k['t1'] - start:5.2f}"
              f"  cases={k['cases']} end={k['end']} first={k['first']}")


def main():
    d = sys.argv[1]
    names = sys.argv[2:] or sorted(f[:-len(".batches")] for f in os.listdir(d) if f.endswith(".batches"))
    summary = read_summary(d)
    for n in names:
        report(d, n, summary)


if __name__ == "__main__":
    main()
