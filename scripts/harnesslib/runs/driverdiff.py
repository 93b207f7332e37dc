"""scripts/driver-diff OLD NEW: is the new driver safe to ship? A qualification report, Markdown and HTML.

OLD and NEW are the same forms as for scripts/compare: run ids of the history (--db), directories with
results.json and/or bench.json, or comma-separated results/bench JSON files. The report lists: the drivers
of each side, tests that changed outcome (worse first), new TEARDOWN_FAULTs, metric drift of tests that
pass on both (errors that changed but stay within the tolerance), performance changes with their Mann-Whitney
U p-values, and what only one side ran.

Exit status: 0 nothing got worse; 1 a test flipped to a worse outcome, or (unless --ignore-perf) a benchmark
regressed significantly; 2 bad input.
"""

import html
import os
import sys

from . import compare, sides
from .. import data, jsonio, toolmain

DRIFT_KEYS = (
    "max_abs_error",
    "max_rel_error",
    "max_ulp_error",
    "mismatches",
    "mismatch_fraction",
    "psnr_db",
    "nan_mismatches",
)


# Metrics where a larger value is better (all others: smaller is better).
HIGHER_IS_BETTER = ("psnr_db",)


def metric_drift(old_tests, new_tests):
    """Records with the same passing outcome on both sides whose compare metrics differ, one row per record x
    output x metric: [{key, pipeline, profile, case, mode, output, tolerance, metric, old, new}]."""
    rows = []
    for key in sorted(set(old_tests) & set(new_tests)):
        o, n = old_tests[key], new_tests[key]
        if o.get("outcome") != n.get("outcome") or not data.passed(o.get("outcome")):
            continue
        oo = (o.get("metrics") or {}).get("outputs") or {}
        no = (n.get("metrics") or {}).get("outputs") or {}
        if not isinstance(oo, dict) or not isinstance(no, dict):
            continue  # metrics are free-form: only the harness's own shape is compared
        for out in sorted(set(oo) & set(no)):
            if not isinstance(oo[out], dict) or not isinstance(no[out], dict):
                continue
            for m in DRIFT_KEYS:
                a, b = _number(oo[out].get(m)), _number(no[out].get(m))
                if a is not None and b is not None and a != b:
                    rows.append(
                        {
                            "key": key,
                            "pipeline": n.get("pipeline"),
                            "profile": n.get("profile"),
                            "case": n.get("case"),
                            "mode": n.get("mode", "host"),
                            "output": out,
                            "tolerance": (n.get("metrics") or {}).get("tolerance", ""),
                            "metric": m,
                            "old": a,
                            "new": b,
                        }
                    )
    return rows


def _number(v):
    """A metric as a number: JSON numbers, and "inf", "-inf", "nan" as the harness writes them; else None."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    if v in ("inf", "-inf"):
        return float(v)
    return None


def _worse(metric, a, b):
    """Whether value a of `metric` is worse than b."""
    return a < b if metric in HIGHER_IS_BETTER else a > b


def group_drift(rows):
    """Drift rows folded per pipeline x profile x output x metric (cases and buffer modes folded): the worst new
    value, the old value of the same record, the worst old value, and which cases and modes drifted. Sorted by
    pipeline, profile, output, metric."""
    groups = {}
    for r in rows:
        g = groups.setdefault(
            (r["pipeline"], r["profile"], r["output"], r["metric"]),
            {
                "pipeline": r["pipeline"],
                "profile": r["profile"],
                "output": r["output"],
                "metric": r["metric"],
                "tolerance": r["tolerance"],
                "records": 0,
                "cases": [],
                "modes": [],
                "worst": r,
                "old_worst": r["old"],
            },
        )
        g["records"] += 1
        for field, k in (("cases", "case"), ("modes", "mode")):
            if r[k] not in g[field]:
                g[field].append(r[k])
        if _worse(r["metric"], r["new"], g["worst"]["new"]):
            g["worst"] = r
        if _worse(r["metric"], r["old"], g["old_worst"]):
            g["old_worst"] = r["old"]
    return [groups[k] for k in sorted(groups, key=lambda k: tuple(str(x) for x in k))]


def _drift_row(g):
    w = g["worst"]
    where = "%s/%s" % (w["case"], w["mode"])
    folded = "%d record(s): %s x %s" % (g["records"], ", ".join(map(str, g["cases"])), ", ".join(map(str, g["modes"])))
    return [
        "%s/%s" % (g["pipeline"], g["profile"]),
        g["output"],
        g["tolerance"],
        g["metric"],
        str(g["old_worst"]),
        "%s (%s; was %s)" % (w["new"], where, w["old"]),
        folded,
    ]


def build(old, new, alpha, min_effect, ignore_perf=False, correction="holm"):
    """The report's data: compare.compare_sides plus drivers, new TEARDOWN_FAULTs and metric drift."""
    res = compare.compare_sides(old, new, alpha, min_effect, correction)
    flips = (res["tests"] or {}).get("flips", [])
    res["old_drivers"], res["new_drivers"] = data.side_drivers(old), data.side_drivers(new)
    res["new_teardown_faults"] = [f for f in flips if f["cand"] == "TEARDOWN_FAULT"]
    res["drift_records"] = metric_drift(old["tests"], new["tests"]) if res["tests"] is not None else []
    res["drift"] = group_drift(res["drift_records"])
    res["counts"] = {"old": outcome_counts(old["tests"]), "new": outcome_counts(new["tests"])}
    res["ignore_perf"] = ignore_perf
    res["old_side"], res["new_side"] = old, new
    res["failed"] = bool(res["worse_flips"] or (res["regressions"] and not ignore_perf))
    return res


def explore_findings(side):
    """A side's explore findings: from the explore section of its results files, else from its records'
    metrics.explore (a run of the history keeps only the records)."""
    out = [f for e in side.get("explore", []) for f in e.get("findings", []) if isinstance(f, dict)]
    if out:
        return out
    by = {}
    for r in side["tests"].values():
        e = (r.get("metrics") or {}).get("explore")
        if isinstance(e, dict):
            f = by.setdefault(
                e.get("finding", "?"),
                {
                    "id": e.get("finding", "?"),
                    "class": e.get("class", ""),
                    "runtime": r.get("profile", ""),
                    "blame": e.get("blame", ""),
                    "count": 0,
                    "message": r.get("message", ""),
                },
            )
            f["count"] += 1
    return [by[k] for k in sorted(by)]


def explore_rows(res):
    rows = []
    for label, side in (("old", res.get("old_side")), ("new", res.get("new_side"))):
        for f in explore_findings(side) if side else []:
            rows.append(
                [
                    label,
                    f.get("id", ""),
                    f.get("class", ""),
                    f.get("runtime", ""),
                    f.get("blame", ""),
                    f.get("count", 0),
                    (f.get("message") or "")[:160],
                ]
            )
    return rows


def outcome_counts(tests):
    c = {}
    for r in tests.values():
        c[r.get("outcome")] = c.get(r.get("outcome"), 0) + 1
    return ", ".join("%d %s" % (c[k], k) for k in sorted(c, key=data.severity)) or "no results"


def verdict_line(res):
    if not res["failed"]:
        return "SAFE: no test got worse" + ("" if res["ignore_perf"] else " and no benchmark regressed significantly")
    parts = []
    if res["worse_flips"]:
        parts.append("%d test(s) got worse" % res["worse_flips"])
    if res["regressions"] and not res["ignore_perf"]:
        parts.append("%d benchmark(s) significantly slower" % res["regressions"])
    return "NOT SAFE: " + ", ".join(parts)


def _sections(res):
    """Yields (title, header, rows, note) tables shared by the Markdown and HTML renderers."""
    flips = (res["tests"] or {}).get("flips", [])
    yield (
        "Tests that changed outcome",
        ["test", "old", "new", "direction", "new message"],
        [[f["key"], f["base"], f["cand"], f["direction"], f["cand_message"]] for f in flips],
        "no results on one side" if res["tests"] is None else "none",
    )
    yield (
        "New TEARDOWN_FAULTs",
        ["test", "old", "message"],
        [[f["key"], f["base"], f["cand_message"]] for f in res["new_teardown_faults"]],
        "none",
    )
    yield (
        "Metric drift within tolerance (per pipeline x profile x output; cases and buffer modes folded)",
        [
            "pipeline/profile",
            "output",
            "tolerance",
            "metric",
            "old worst",
            "new worst (where; its old value)",
            "drifted",
        ],
        [_drift_row(g) for g in res["drift"]],
        "none: every test that passes on both has identical error metrics",
    )
    rows = sorted(
        res["bench"]["benchmarks"], key=lambda r: ({"regression": 0, "improvement": 1}.get(r["verdict"], 2), r["name"])
    )
    yield (
        "Performance (median real time per iteration, Mann-Whitney U, alpha %g, minimum effect %g %%, "
        "p %s)"
        % (
            res["alpha"],
            100 * res["min_effect"],
            "Holm-adjusted" if res["bench"]["correction"] == "holm" else "not adjusted",
        ),
        ["benchmark", "old ms", "new ms", "change", "U", "p", "p adj", "verdict"],
        [
            [
                r["name"],
                "%.4g" % r["base_median"],
                "%.4g" % r["cand_median"],
                compare.pct(r["change"]),
                "%g" % r["u"],
                compare.fmt_p(r["p"]),
                compare.fmt_p(r["p_adj"]),
                r["verdict"],
            ]
            for r in rows
        ],
        "no benchmark on both sides",
    )
    yield (
        "What aot-harness explore found on each side (findings grouped by their minimized shape)",
        ["side", "finding", "class", "backend", "whose", "divergences", "message"],
        explore_rows(res),
        "no explore results on either side",
    )
    only = [["test", k, "old only"] for k in (res["tests"] or {}).get("only_base", [])]
    only += [["test", k, "new only"] for k in (res["tests"] or {}).get("only_cand", [])]
    only += [["benchmark", k, "old only"] for k in res["bench"]["only_base"]]
    only += [["benchmark", k, "new only"] for k in res["bench"]["only_cand"]]
    yield ("Run on one side only", ["kind", "name", "side"], only, "none")


def to_markdown(res):
    def cell(s):
        return str(s).replace("|", "\\|").replace("\n", " ")

    lines = [
        "# Driver qualification report",
        "",
        "| | old | new |",
        "|---|---|---|",
        "| run | %s | %s |" % (cell(res["base"]), cell(res["candidate"])),
        "| drivers | %s | %s |"
        % (cell("; ".join(res["old_drivers"]) or "-"), cell("; ".join(res["new_drivers"]) or "-")),
        "| outcomes | %s | %s |" % (res["counts"]["old"], res["counts"]["new"]),
        "",
        "**%s** (%d outcome change(s), %d new TEARDOWN_FAULT(s), %d metric drift(s) in %d group(s), %d "
        "significant regression(s), %d improvement(s))"
        % (
            verdict_line(res),
            len((res["tests"] or {}).get("flips", [])),
            len(res["new_teardown_faults"]),
            len(res["drift_records"]),
            len(res["drift"]),
            res["regressions"],
            res["improvements"],
        ),
        "",
    ]
    for title, header, rows, empty in _sections(res):
        lines += ["## " + title, ""]
        if not rows:
            lines += ["_%s_" % empty, ""]
            continue
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
        lines.append("")
    return "\n".join(lines)


CSS = """body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f3f3}
.bad{background:#fdd}.good{background:#dfd}.verdict{font-size:1.3em;padding:.5em;border-radius:4px}
.verdict.bad{border:2px solid #c00}.verdict.good{border:2px solid #080}em{color:#666}"""


def to_html(res):
    e = html.escape
    out = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Driver qualification</title><style>%s</style>"
        "</head><body><h1>Driver qualification report</h1>" % CSS,
        "<table><tr><th></th><th>old</th><th>new</th></tr>",
        "<tr><th>run</th><td>%s</td><td>%s</td></tr>" % (e(res["base"]), e(res["candidate"])),
        "<tr><th>drivers</th><td>%s</td><td>%s</td></tr>"
        % ("<br>".join(map(e, res["old_drivers"])) or "-", "<br>".join(map(e, res["new_drivers"])) or "-"),
        "<tr><th>outcomes</th><td>%s</td><td>%s</td></tr></table>" % (e(res["counts"]["old"]), e(res["counts"]["new"])),
        "<p class='verdict %s'>%s</p>" % ("bad" if res["failed"] else "good", e(verdict_line(res))),
    ]
    for title, header, rows, empty in _sections(res):
        out.append("<h2>%s</h2>" % e(title))
        if not rows:
            out.append("<p><em>%s</em></p>" % e(empty))
            continue
        out.append("<table><tr>%s</tr>" % "".join("<th>%s</th>" % e(h) for h in header))
        for r in rows:
            cls = (
                "bad"
                if ("worse" in r or "regression" in r or "TEARDOWN_FAULT" in r[1:3])
                else ("good" if ("better" in r or "improvement" in r) else "")
            )
            out.append("<tr class='%s'>%s</tr>" % (cls, "".join("<td>%s</td>" % e(str(c)) for c in r)))
        out.append("</table>")
    out.append("</body></html>\n")
    return "\n".join(out)


def main(argv=None):
    ap = data.arg_parser("driver-diff", __doc__)
    ap.add_argument("old", metavar="OLD", help="run id, directory, or results/bench JSON file(s) joined with ','")
    ap.add_argument("new", metavar="NEW", help="same forms as OLD")
    ap.add_argument(
        "--out", metavar="DIR", help="write DIR/driver-diff.md and DIR/driver-diff.html (default: Markdown on stdout)"
    )
    ap.add_argument("--ignore-perf", action="store_true", help="performance changes do not affect the exit status")
    compare.add_side_args(ap)
    args = ap.parse_args(argv)
    db = compare.default_db(args)
    old, new = sides.load_side(args.old, db), sides.load_side(args.new, db)
    res = build(old, new, args.alpha, args.min_effect, args.ignore_perf, args.correction)
    md = to_markdown(res)
    if args.out:  # both files or neither: a full disk leaves no empty or half report
        jsonio.write_all_atomic(
            [(os.path.join(args.out, "driver-diff.md"), md), (os.path.join(args.out, "driver-diff.html"), to_html(res))]
        )
        print(
            "driver-diff: %s\nreport: %s/driver-diff.md, %s/driver-diff.html" % (verdict_line(res), args.out, args.out)
        )
    else:
        sys.stdout.write(md)
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(toolmain.run("driver-diff", main))
