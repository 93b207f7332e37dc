"""Whether a pipeline without a spec got a meaningful verdict, from what the harness wrote: `list --json`,
`describe <p> --json`, the run's results.json and the blessed goldens. Shared by the corpus table
(harness/test/corpus/corpus_table.py) and the generator fuzzer's check (genfuzz_check.py).

A pipeline has a meaningful verdict when each profile gave PASS or FAIL (or XFAIL, XPASS, FLAKE) on at
least one case whose golden is not degenerate: no output of it constant (2 elements or more) or, in 64
elements or more, one value everywhere but in at most 2 elements or 0.5 % of them, whichever is more, the
harness's rule (degenerate_outputs()); a nightly-size golden, not stored, counts when no run flagged it.
NONDET (the golden's maker, the cpu variant, gives different outputs for the same inputs) is not a
verdict: it is a flag with its reason, as an ERROR is.
"""

import json
import os

VERDICTS = {"PASS", "FAIL", "XFAIL", "XPASS", "FLAKE"}


def load(path):
    with open(path) as f:
        return json.load(f)


HANDFUL, RARE_SHARE, MIN_ELEMENTS = 2, 200, 64


def is_degenerate(n, others):
    """The harness's rule (degenerate_outputs()), for one output of n elements of which `others` do not
    hold its most common value: constant (2 elements or more), or, in 64 elements or more, all but at most
    2 or 0.5 % of them (whichever is more) one value. How many distinct values it holds does not matter."""
    if n < 2:
        return False
    return others == 0 or (n >= MIN_ELEMENTS and others <= max(HANDFUL, n // RARE_SHARE))


def others_than_most_common(a):
    """How many elements of array `a` (compared by bit pattern) do not hold its most common value."""
    import numpy as np

    flat = np.ascontiguousarray(a).reshape(-1)
    if flat.size == 0:
        return 0
    _, counts = np.unique(flat.view(np.dtype((np.void, flat.dtype.itemsize))), return_counts=True)
    return int(flat.size - counts.max())


def any_degenerate(arrays):
    """Whether any of the outputs is degenerate by is_degenerate(), each judged on its own."""
    return any(is_degenerate(a.size, others_than_most_common(a)) for a in arrays)


def distinct_values(arrays, most):
    """(distinct values, by bit pattern, counted up to `most`; elements) over all arrays."""
    import numpy as np

    values = set()
    for a in arrays:
        flat = np.unique(np.ascontiguousarray(a).reshape(-1).view(np.dtype((np.void, a.dtype.itemsize))))
        values.update(bytes(v) for v in flat[:most])
    return len(values), sum(a.size for a in arrays)


def golden_distinct_values(golden_dir, pipeline, case, outputs):
    """(distinct values up to 1000 over all outputs, whether any output is degenerate) of a case's stored
    goldens, or (None, None) if not stored."""
    import numpy as np

    arrays = []
    for o in outputs:
        f = os.path.join(golden_dir, pipeline, "%s.npy" % case if len(outputs) == 1 else "%s.%s.npy" % (case, o))
        if not os.path.exists(f):
            return None, None
        arrays.append(np.load(f))
    return distinct_values(arrays, 1000)[0], any_degenerate(arrays)


def verdict(entry, describe, runs, golden_dir, profiles):
    """What the harness made of one pipeline. entry: its `list --json` row; describe: its `describe --json`;
    runs: its records. Returns a dict: built, shapes, distinct (per case), cells (per profile: the outcomes),
    meaningful, named (no verdict but every record says why), max_error, reasons (every ERROR message and
    flag, deduplicated, in order)."""
    name = entry["name"]
    built = any(x["name"] == "cpu" and not x["reason"].startswith("variant") for x in entry.get("profiles", []))
    cases = [c for c in describe["cases"] if "error" not in c]
    per = {pr: [r for r in runs if r["profile"] == pr] for pr in profiles}
    meaningful_cases, shapes, dv = [], [], []
    for c in cases:
        outs = list(c.get("outputs", {}).keys())
        shape = "x".join(str(e) for e in c["outputs"][outs[0]]["shape"]) if outs else "-"
        shapes.append("%s %s" % (c["name"], shape or "scalar"))
        k, degenerate = golden_distinct_values(golden_dir, name, c["name"], outs)
        dv.append("%s" % (k if k is not None else "?") + ("" if k is None or k < 1000 else "+"))
        if k is not None and not degenerate:
            meaningful_cases.append(c["name"])
        elif k is None:
            # A nightly-size golden is not stored: the runs reproduce it and flag it when degenerate.
            case_runs = [r for pr in profiles for r in per[pr] if r["case"] == c["name"]]
            if case_runs and not any("degenerate_golden" in (r.get("metrics") or {}) for r in case_runs):
                meaningful_cases.append(c["name"])
    cells, ok = [], True
    for pr in profiles:
        outs = sorted({r["outcome"] for r in per[pr]})
        cells.append("/".join(outs) if outs else "-")
        ok &= any(r["outcome"] in VERDICTS and r["case"] in meaningful_cases for r in per[pr])
    recs = [r for pr in profiles for r in per[pr]]
    named = (
        not ok
        and bool(recs)
        and all(
            (r["outcome"] in ("ERROR", "NONDET") and r["message"].strip())
            or "degenerate_golden" in (r.get("metrics") or {})
            for r in recs
        )
    )
    err = 0.0
    for r in recs:
        for o in ((r.get("metrics") or {}).get("outputs") or {}).values():
            err = max(err, float(o.get("max_abs_error", 0) or 0))
    reasons = []
    for c in describe["cases"]:
        if c.get("error"):
            reasons.append("case %s: %s" % (c["name"], c["error"]))
        for fl in c.get("flags", []):
            reasons.append("case %s: %s" % (c["name"], fl))
    for r in recs:
        if r["outcome"] not in VERDICTS or "degenerate_golden" in (r.get("metrics") or {}):
            why = (r.get("metrics") or {}).get("degenerate_golden")
            reasons.append("%s: %s" % (r["outcome"], r["message"].strip() if not why else "degenerate golden: " + why))
    seen, uniq = set(), []
    for x in reasons:
        if x not in seen:
            seen.add(x)
            uniq.append(x)
    return {
        "name": name,
        "built": built,
        "shapes": shapes,
        "distinct": dv,
        "cells": cells,
        "meaningful": ok,
        "named": named,
        "max_error": err,
        "reasons": uniq,
        "failed_profiles": [pr for pr in profiles if any(r["outcome"] == "FAIL" for r in per[pr])],
    }


def verdicts(work, profiles):
    """verdict() of every pipeline of WORK (list.json, describe/<p>.json, results.json, golden/)."""
    listing = load(os.path.join(work, "list.json"))
    runs = load(os.path.join(work, "results.json"))["runs"]
    golden = os.path.join(work, "golden")
    out = []
    for p in listing["pipelines"]:
        d = load(os.path.join(work, "describe", p["name"] + ".json"))
        out.append(verdict(p, d, [r for r in runs if r["pipeline"] == p["name"]], golden, profiles))
    return out
