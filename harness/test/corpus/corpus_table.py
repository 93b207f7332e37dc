"""The corpus table of corpus_test.sh: per generator whether it built, its cases with shapes, the
outcome per profile (cpu, host, opencl), the largest measured error, the distinct values of its
goldens, what RunGen made of it, and why it has no verdict; then the totals, checked against the targets.

A pipeline has a meaningful verdict as scripts/harnesslib/zerospec.py says: each of cpu, host and
opencl gave PASS or FAIL (or XFAIL) on at least one case whose golden is not degenerate. Every other
pipeline must say why on every record: an ERROR with its reason, or the degenerate-golden flag.

Usage: python3 corpus_table.py WORK [--min-verdict F]
  WORK holds list.json, describe/<p>.json, results.json, golden/ and (optional) rungen.json.
  F (default 0.9): the fraction of the generators that built that must have a meaningful verdict.
Exit 1 when a target is missed, 2 for unreadable input.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from harnesslib import zerospec  # noqa: E402

PROFILES = ["cpu", "host", "opencl"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work")
    ap.add_argument("--min-verdict", type=float, default=0.90)
    a = ap.parse_args()
    try:
        rows = zerospec.verdicts(a.work, PROFILES)
    except (OSError, ValueError, KeyError) as e:
        print("corpus_table: cannot read %s: %s; run corpus_test.sh first" % (a.work, e), file=sys.stderr)
        return 2
    rungen_path = os.path.join(a.work, "rungen.json")
    rungen = zerospec.load(rungen_path) if os.path.exists(rungen_path) else {}
    lines = [
        "| generator | built | cases (output shape) | cpu | host | opencl | max error | distinct values | RunGen | "
        "why no verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    built = verdict = named = rungen_ok = both = 0
    no_verdict, rungen_only = [], []
    for v in rows:
        built += v["built"]
        verdict += v["meaningful"]
        if not v["meaningful"]:
            no_verdict.append(v["name"])
            named += v["named"]
        rg = rungen.get(v["name"], {})
        rg_best = [k for k, r in rg.items() if r.get("meaningful")]
        rungen_ok += bool(rg_best)
        both += bool(rg_best) and v["meaningful"]
        if rg_best and not v["meaningful"]:
            rungen_only.append(v["name"])
        why = "" if v["meaningful"] else (v["reasons"][0] if v["reasons"] else "no records")
        lines.append(
            "| %s | %s | %s | %s | %s | %s | %.3g | %s | %s | %s |"
            % (
                v["name"],
                "yes" if v["built"] else "no",
                "; ".join(v["shapes"]) or "-",
                v["cells"][0],
                v["cells"][1],
                v["cells"][2],
                v["max_error"],
                ", ".join(v["distinct"]) or "-",
                ", ".join(rg_best) if rg_best else ("none" if rg else "-"),
                why.replace("|", "/")[:160],
            )
        )
    n = len(rows)
    lines.append("")
    lines.append(
        "%d generators: %d built (%.0f %%), %d with a meaningful verdict on cpu, host and opencl (%.0f %% of "
        "those built), %d of the rest say why (ERROR or degenerate flag); RunGen meaningful for %d, the "
        "harness for %d of those"
        % (n, built, 100.0 * built / max(n, 1), verdict, 100.0 * verdict / max(built, 1), named, rungen_ok, both)
    )
    lines.append(
        "without a verdict: %s; RunGen meaningful where the harness has none: %s"
        % (", ".join(no_verdict) or "none", ", ".join(rungen_only) or "none")
    )
    print("\n".join(lines))
    missed = []
    if n == 0 or verdict < a.min_verdict * built:
        missed.append("meaningful verdicts %d of %d built (< %.0f %%)" % (verdict, built, 100 * a.min_verdict))
    if named < n - verdict:
        missed.append("%d pipelines without a verdict do not say why" % (n - verdict - named))
    if rungen and both < rungen_ok:
        missed.append("RunGen is meaningful on %d generators where the harness has no verdict" % (rungen_ok - both))
    if missed:
        print("corpus: targets missed: " + "; ".join(missed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
