"""The corpus table of corpus_test.sh: per generator whether it built, its cases with shapes, the
outcome per profile (cpu, host, opencl), the largest measured error, the distinct values of its
goldens, and what RunGen made of it; then the totals, checked against the targets.

A pipeline has a meaningful verdict when each of cpu, host and opencl gave PASS or FAIL (or XFAIL) on
at least one case whose golden is not degenerate (not constant, and more than 3 distinct values when
it holds 1024 elements or more; a nightly-size golden, not stored, counts when no run flagged it).
Every other pipeline must say why on every record: an ERROR with its reason, or the degenerate-golden
flag.

Usage: python3 corpus_table.py WORK [--min-built F] [--min-verdict F]
  WORK holds list.json, describe/<p>.json, results.json, golden/ and (optional) rungen.json.
Exit 1 when a target is missed, 2 for unreadable input.
"""
import argparse
import json
import os
import sys

import numpy as np

from rungen_compare import distinct_values, is_degenerate

PROFILES = ["cpu", "host", "opencl"]
VERDICTS = {"PASS", "FAIL", "XFAIL", "XPASS", "FLAKE"}


def load(path):
    with open(path) as f:
        return json.load(f)


def golden_distinct_values(golden_dir, pipeline, case, outputs):
    """(distinct values up to 1000, elements) of a case's stored goldens, or (None, 0) if not stored."""
    arrays = []
    for o in outputs:
        f = os.path.join(golden_dir, pipeline, "%s.npy" % case if len(outputs) == 1 else "%s.%s.npy" % (case, o))
        if not os.path.exists(f):
            return None, 0
        arrays.append(np.load(f))
    return distinct_values(arrays, 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work")
    ap.add_argument("--min-built", type=float, default=0.90)
    ap.add_argument("--min-verdict", type=float, default=0.85)
    a = ap.parse_args()
    try:
        listing = load(os.path.join(a.work, "list.json"))
        runs = load(os.path.join(a.work, "results.json"))["runs"]
    except (OSError, ValueError, KeyError) as e:
        print("corpus_table: cannot read %s: %s; run corpus_test.sh first" % (a.work, e), file=sys.stderr)
        return 2
    rungen_path = os.path.join(a.work, "rungen.json")
    rungen = load(rungen_path) if os.path.exists(rungen_path) else {}
    golden = os.path.join(a.work, "golden")
    rows, built, verdict, errors_named, rungen_ok, both = [], 0, 0, 0, 0, 0
    no_verdict, rungen_only = [], []
    lines = ["| generator | built | cases (output shape) | cpu | host | opencl | max error | distinct values | RunGen |",
             "|---|---|---|---|---|---|---|---|---|"]
    pipelines = listing["pipelines"]
    for p in pipelines:
        name = p["name"]
        cpu_ok = any(x["name"] == "cpu" and not x["reason"].startswith("variant") for x in p.get("profiles", []))
        d = load(os.path.join(a.work, "describe", name + ".json"))
        cases = [c for c in d["cases"] if "error" not in c]
        built += cpu_ok
        per = {pr: [r for r in runs if r["pipeline"] == name and r["profile"] == pr] for pr in PROFILES}
        meaningful_cases = []
        shapes, dv = [], []
        for c in cases:
            outs = list(c.get("outputs", {}).keys())
            shape = "x".join(str(e) for e in c["outputs"][outs[0]]["shape"]) if outs else "-"
            shapes.append("%s %s" % (c["name"], shape))
            k, n = golden_distinct_values(golden, name, c["name"], outs)
            dv.append("%s" % (k if k is not None else "?") + ("" if k is None or k < 1000 else "+"))
            if k is not None and not is_degenerate(k, n):
                meaningful_cases.append(c["name"])
            elif k is None:
                # A nightly-size golden is not stored: the runs reproduce it and flag it when degenerate.
                case_runs = [r for pr in PROFILES for r in per[pr] if r["case"] == c["name"]]
                if case_runs and not any("degenerate_golden" in (r.get("metrics") or {}) for r in case_runs):
                    meaningful_cases.append(c["name"])
        cells, ok = [], True
        for pr in PROFILES:
            outs = sorted({r["outcome"] for r in per[pr]})
            cells.append("/".join(outs) if outs else "-")
            ok &= any(r["outcome"] in VERDICTS and r["case"] in meaningful_cases for r in per[pr])
        verdict += ok
        if not ok:
            no_verdict.append(name)
            # Named: an ERROR with its reason, or a record flagged for its degenerate golden.
            recs = [r for pr in PROFILES for r in per[pr]]
            errors_named += bool(recs) and all(
                (r["outcome"] == "ERROR" and r["message"].strip()) or "degenerate_golden" in (r.get("metrics") or {})
                for r in recs)
        err = 0.0
        for pr in PROFILES:
            for r in per[pr]:
                for o in (r.get("metrics", {}).get("outputs", {}) or {}).values():
                    err = max(err, float(o.get("max_abs_error", 0) or 0))
        rg = rungen.get(name, {})
        rg_best = [k for k, v in rg.items() if v.get("meaningful")]
        rungen_ok += bool(rg_best)
        both += bool(rg_best) and ok
        if rg_best and not ok:
            rungen_only.append(name)
        rg_cell = ", ".join(rg_best) if rg_best else ("none" if rg else "-")
        lines.append("| %s | %s | %s | %s | %s | %s | %.3g | %s | %s |" % (
            name, "yes" if cpu_ok else "no", "; ".join(shapes) or d["cases"][0].get("error", "")[:80],
            cells[0], cells[1], cells[2], err, ", ".join(dv) or "-", rg_cell))
    n = len(pipelines)
    lines.append("")
    lines.append("%d generators: %d built (%.0f %%), %d with a meaningful verdict on cpu, host and opencl (%.0f %%), "
                 "%d of the rest say why (ERROR or degenerate flag); RunGen meaningful for %d, the harness for %d "
                 "of those"
                 % (n, built, 100.0 * built / n, verdict, 100.0 * verdict / n, errors_named, rungen_ok, both))
    lines.append("without a verdict: %s; RunGen meaningful where the harness has none: %s"
                 % (", ".join(no_verdict) or "none", ", ".join(rungen_only) or "none"))
    print("\n".join(lines))
    missed = []
    if built < a.min_built * n:
        missed.append("built %d of %d (< %.0f %%)" % (built, n, 100 * a.min_built))
    if verdict < a.min_verdict * n:
        missed.append("meaningful verdicts %d of %d (< %.0f %%)" % (verdict, n, 100 * a.min_verdict))
    if errors_named < n - verdict:
        missed.append("%d pipelines without a verdict do not say why" % (n - verdict - errors_named))
    if rungen and both < rungen_ok:
        missed.append("RunGen is meaningful on %d generators where the harness has no verdict" % (rungen_ok - both))
    if missed:
        print("corpus: targets missed: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
