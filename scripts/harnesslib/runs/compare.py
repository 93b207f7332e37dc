"""scripts/compare BASE CANDIDATE: did the candidate get slower, or worse at being right?

Each side is a run id of the history (with --db; 'latest' and 'latest~N' work too), a directory holding
results.json and/or bench.json, or a comma-separated list of such files.

Per benchmark (in both sides, with samples): median real time per iteration of each side, its change, and a
two-sided Mann-Whitney U test over the repetitions. A change is significant when p < alpha (default 0.05) and
|change| >= the minimum effect (default 5 %). With many benchmarks some would pass p < 0.05 by chance, so p
is Holm-adjusted over all compared benchmarks first (--correction none for raw p-values). Where both sides
recorded what the machine did (clocks, temperatures, throttling, CPU pressure, calibration: machine.py), a
benchmark whose machine moved more than its change is "environment changed: not judged", with the numbers,
never a regression or an improvement. Per test (when both sides have results): outcome flips,
e.g. PASS -> FAIL, ordered by the harness's outcome table (`aot-harness outcomes`: PASS < XFAIL < SKIP < XPASS < FAIL < ...).

Exit status: 0 no significant regression and no flip to a worse outcome; 1 otherwise; 2 bad input.
"""

import json
import sys

from . import machine, sides, stats
from .. import data, toolmain

DEFAULT_ALPHA = 0.05
DEFAULT_MIN_EFFECT = 0.05


def compare_bench(
    base,
    cand,
    alpha=DEFAULT_ALPHA,
    min_effect=DEFAULT_MIN_EFFECT,
    correction="holm",
    base_machine=None,
    cand_machine=None,
):
    """List of per-benchmark comparisons (dicts) for benchmarks present in both sides, sorted by name;
    plus 'only_base' / 'only_cand' names. Uses real_time_ms (lower is better). p is the raw Mann-Whitney
    p-value, p_adj the one the verdict uses (Holm-adjusted over all benchmarks, or raw with correction='none').
    With both sides' machine blocks (machine.py), a benchmark whose profile's machine moved more than its
    change gets the verdict 'environment changed' (its test's verdict kept as stat_verdict, the numbers in
    not_judged) and 'environment' holds each profile's check."""
    rows, skipped = [], []
    for name in sorted(set(base) & set(cand)):
        b = [s["real_time_ms"] for s in base[name]["samples"]]
        c = [s["real_time_ms"] for s in cand[name]["samples"]]
        if not b or not c:
            skipped.append({"name": name, "why": base[name].get("error") or cand[name].get("error") or "no samples"})
            continue
        r = stats.compare_samples(b, c, alpha, min_effect)
        r.update(
            {
                "name": name,
                "pipeline": base[name]["pipeline"],
                "profile": base[name]["profile"],
                "case": base[name]["case"],
                "mode": base[name]["mode"],
                "base_driver": base[name].get("driver", ""),
                "cand_driver": cand[name].get("driver", ""),
            }
        )
        rows.append(r)
    if correction == "holm":  # many benchmarks: control the family-wise false-positive rate
        for r, padj in zip(rows, stats.holm([r["p"] for r in rows])):
            r["p_adj"] = padj
            r["significant"], r["verdict"] = stats.classify(r["change"], padj, alpha, min_effect)
    else:
        for r in rows:
            r["p_adj"] = r["p"]
    envs = {}
    for r in rows:
        prof = r["profile"]
        if prof not in envs:
            envs[prof] = machine.environment(base_machine, cand_machine, prof)
        why = machine.judge(r["change"], min_effect, envs[prof], r["verdict"])
        if why:
            r["stat_verdict"], r["verdict"] = r["verdict"], "environment changed"
            r["not_judged"] = "environment changed: not judged: " + why
    environment = {
        p: dict(
            e,
            base=machine.block_summary(machine.block_for(base_machine or {}, p)),
            cand=machine.block_summary(machine.block_for(cand_machine or {}, p)),
        )
        for p, e in envs.items()
        if e["known"]
    }
    return {
        "correction": correction,
        "benchmarks": rows,
        "skipped": skipped,
        "only_base": sorted(set(base) - set(cand)),
        "only_cand": sorted(set(cand) - set(base)),
        "environment": environment,
    }


def compare_tests(base, cand):
    """Outcome flips between two {key: record} maps: list of {key, base, cand, direction, base_message,
    cand_message}, worse first; plus keys only on one side."""
    flips = []
    for key in sorted(set(base) & set(cand)):
        ob, oc = base[key].get("outcome"), cand[key].get("outcome")
        if ob != oc:
            d = data.severity(oc) - data.severity(ob)
            flips.append(
                {
                    "key": key,
                    "base": ob,
                    "cand": oc,
                    "direction": "worse" if d > 0 else ("better" if d < 0 else "changed"),
                    "base_message": base[key].get("message", ""),
                    "cand_message": cand[key].get("message", ""),
                }
            )
    order = {"worse": 0, "changed": 1, "better": 2}
    flips.sort(key=lambda f: (order[f["direction"]], f["key"]))
    return {"flips": flips, "only_base": sorted(set(base) - set(cand)), "only_cand": sorted(set(cand) - set(base))}


def compare_sides(base, cand, alpha=DEFAULT_ALPHA, min_effect=DEFAULT_MIN_EFFECT, correction="holm"):
    """Full comparison of two sides; 'failed' is True on a significant regression or a worse flip."""
    out = {
        "base": base["label"],
        "candidate": cand["label"],
        "alpha": alpha,
        "min_effect": min_effect,
        "bench": compare_bench(
            base["bench"], cand["bench"], alpha, min_effect, correction, base.get("machine"), cand.get("machine")
        ),
        "tests": compare_tests(base["tests"], cand["tests"]) if base["has_results"] and cand["has_results"] else None,
    }
    regressions = [r for r in out["bench"]["benchmarks"] if r["verdict"] == "regression"]
    worse = [f for f in (out["tests"] or {}).get("flips", []) if f["direction"] == "worse"]
    out["regressions"] = len(regressions)
    out["improvements"] = sum(r["verdict"] == "improvement" for r in out["bench"]["benchmarks"])
    out["not_judged"] = sum(r["verdict"] == "environment changed" for r in out["bench"]["benchmarks"])
    out["worse_flips"] = len(worse)
    out["failed"] = bool(regressions or worse)
    return out


def pct(x):
    """'+4.2 %' for a relative change; 'x12.3' (ratio of the medians) from +100 % on."""
    return "x%.3g" % (1.0 + x) if x >= 1.0 else "%+.1f %%" % (100.0 * x)


def fmt_p(p):
    return "%.2g" % p if p < 0.001 else "%.3f" % p


def print_text(res, out=sys.stdout):
    w = out.write
    w("base:      %s\ncandidate: %s\n" % (res["base"], res["candidate"]))
    w(
        "alpha %.3g, minimum effect %.1f %%, p-values %s\n\n"
        % (
            res["alpha"],
            100 * res["min_effect"],
            "Holm-adjusted over %d benchmarks" % len(res["bench"]["benchmarks"])
            if res["bench"]["correction"] == "holm"
            else "not adjusted",
        )
    )
    rows = res["bench"]["benchmarks"]
    if rows:
        width = max(len(r["name"]) for r in rows)
        w(
            "%-*s  %12s  %12s  %9s  %5s  %8s  %8s  %s\n"
            % (width, "benchmark", "base ms", "cand ms", "change", "U", "p", "p adj", "verdict")
        )
        order = {"regression": 0, "improvement": 1, "environment changed": 2}
        for r in sorted(rows, key=lambda r: (order.get(r["verdict"], 3), r["name"])):
            w(
                "%-*s  %12.4g  %12.4g  %9s  %5g  %8s  %8s  %s\n"
                % (
                    width,
                    r["name"],
                    r["base_median"],
                    r["cand_median"],
                    pct(r["change"]),
                    r["u"],
                    fmt_p(r["p"]),
                    fmt_p(r["p_adj"]),
                    r["verdict"].upper() if r["verdict"] != "unchanged" else "-",
                )
            )
    else:
        w("no benchmark in both sides\n")
    env = res["bench"].get("environment") or {}
    for prof in sorted(env):
        e = env[prof]
        w("\nmachine, %s: base: %s\n%s  candidate: %s\n" % (prof, e["base"], " " * len(prof), e["cand"]))
    notes = sorted({r["not_judged"] for r in rows if r.get("not_judged")})
    if notes:
        w("\n%d benchmark(s) not judged:\n" % sum(1 for r in rows if r.get("not_judged")))
        for profile in sorted({r["profile"] for r in rows if r.get("not_judged")}):
            first = next(r for r in rows if r.get("not_judged") and r["profile"] == profile)
            w("  %s: %s\n" % (profile, first["not_judged"]))
    for s in res["bench"]["skipped"]:
        w("skipped %s: %s\n" % (s["name"], s["why"]))
    if res["bench"]["only_base"] or res["bench"]["only_cand"]:
        w(
            "benchmarks only in base: %d, only in candidate: %d\n"
            % (len(res["bench"]["only_base"]), len(res["bench"]["only_cand"]))
        )
    if res["tests"] is not None:
        flips = res["tests"]["flips"]
        w("\n%d outcome change(s)\n" % len(flips))
        for f in flips:
            w(
                "  %-6s %-40s %s -> %s  %s\n"
                % (f["direction"].upper(), f["key"], f["base"], f["cand"], f["cand_message"])
            )
    w(
        "\n%d significant regression(s), %d improvement(s), %d not judged (environment changed), %d flip(s) to a "
        "worse outcome: %s\n"
        % (
            res["regressions"],
            res["improvements"],
            res.get("not_judged", 0),
            res["worse_flips"],
            "FAIL" if res["failed"] else "OK",
        )
    )


def add_side_args(ap):
    ap.add_argument(
        "--db", help="history for run ids: SQLite path or postgresql:// URL (default: out/history.sqlite if it exists)"
    )
    ap.add_argument(
        "--alpha", type=toolmain.real(0, 1), default=DEFAULT_ALPHA, help="significance level (default 0.05)"
    )
    ap.add_argument(
        "--min-effect",
        type=toolmain.real(0, 1000),
        default=DEFAULT_MIN_EFFECT,
        help="minimum relative change of the median to report, e.g. 0.05 = 5%% (default)",
    )
    ap.add_argument(
        "--correction",
        choices=("holm", "none"),
        default="holm",
        help="multiple-comparison adjustment of the p-values (default holm)",
    )


def default_db(args):
    import os

    if args.db:
        return args.db
    p = data.DEFAULT_HISTORY
    return p if os.path.exists(p) else None


def main(argv=None):
    ap = data.arg_parser("compare", __doc__)
    ap.add_argument("base", metavar="BASE", help="run id, directory, or results/bench JSON file(s) joined with ','")
    ap.add_argument("candidate", metavar="CANDIDATE", help="same forms as BASE")
    ap.add_argument("--json", action="store_true", help="print the comparison as JSON")
    add_side_args(ap)
    args = ap.parse_args(argv)
    db = default_db(args)
    base, cand = sides.load_side(args.base, db), sides.load_side(args.candidate, db)
    res = compare_sides(base, cand, args.alpha, args.min_effect, args.correction)
    if args.json:
        json.dump(res, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
    else:
        print_text(res)
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(toolmain.run("compare", main))
