"""scripts/dashboard: a static dashboard of the history, out/dashboard/index.html.

On top: what got worse in the latest run against the one before (significant benchmark regressions, outcome
flips; benchmarks whose machine moved more than their change are "not judged", machine.py). Then the latest pipeline x profile outcome grid (a coloured badge per case, linking to the record page
with its message, metrics, stderr and golden / output / diff images when the run kept an output), then the
throughput (median Mpixel/s over the repetitions) over time per pipeline x profile, with a dashed marker where
the profile's driver version changed and what the machine did in the latest run, and the list of runs with each
run's clocks, temperatures, throttling, CPU pressure and calibration. Chart.js (Debian's libjs-chart.js) is copied next
to the page, so it works offline from file://.
"""

import html
import json
import os
import sys

from ..runs import compare, machine, sides, stats
from .. import data, jsonio, paths, toolmain
from ..history import history
from . import dashboard_page
from .dashboard_records import COLOURS, slug

CHARTJS = [
    "/usr/share/javascript/chart.js/chart.umd.js",
    "/usr/share/javascript/chart.js/chart.min.js",
    "/usr/share/javascript/chart.js/Chart.min.js",
]
REGRESSION_COLOUR = COLOURS["FAIL"]
SERIES_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#e377c2"]


def find_chartjs():
    for p in CHARTJS:
        if os.path.exists(p):
            return p
    raise data.InputError("Chart.js not found (%s); install libjs-chart.js (scripts/setup does)" % CHARTJS[1])


def load(con, max_runs):
    """The charted runs, the series {(pipeline, profile): {case/mode: {run_id: point}}} where a point holds the
    median, min and max Mpixel/s over the repetitions and the benchmark's name, the drivers {(run_id, profile):
    driver}, and the real-time samples {run_id: {benchmark name: side entry}} for compare."""
    runs = [dict(r) for r in con.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (max_runs,))][::-1]
    ids = [r["id"] for r in runs]
    series, drivers, samples = {}, {}, {}
    for b in con.execute("SELECT * FROM benchmarks WHERE run_id >= ? ORDER BY id", (ids[0] if ids else 0,)):
        rows = con.execute(
            "SELECT real_time_ms, pixels_per_second FROM samples WHERE benchmark_id=? ORDER BY rep", (b["id"],)
        ).fetchall()
        if b["driver"]:
            drivers[(b["run_id"], b["profile"])] = b["driver"]
        samples.setdefault(b["run_id"], {})[b["name"]] = {
            "pipeline": b["pipeline"],
            "profile": b["profile"],
            "case": b["case_name"],
            "mode": b["mode"],
            "error": b["error"],
            "samples": [{"real_time_ms": r[0]} for r in rows if r[0] is not None],
        }
        pps = [r[1] / 1e6 for r in rows if r[1] is not None]
        if pps:
            series.setdefault((b["pipeline"], b["profile"]), {}).setdefault("%s/%s" % (b["case_name"], b["mode"]), {})[
                b["run_id"]
            ] = {"median": stats.median(pps), "min": min(pps), "max": max(pps), "name": b["name"]}
    for t in con.execute(
        "SELECT run_id, profile, driver FROM tests WHERE driver != '' AND run_id >= ?", (ids[0] if ids else 0,)
    ):
        drivers.setdefault((t["run_id"], t["profile"]), t["driver"])
    return runs, series, drivers, samples


def significant_regressions(runs, samples, alpha, min_effect, machines=None):
    """{(run_id, benchmark name)} that compare calls a significant regression against the previous run with
    benchmarks (the same test as scripts/compare: Mann-Whitney U, Holm over the run's benchmarks; not where the
    machine moved more than the change: machines = {run_id: machine blocks})."""
    out, prev, machines = set(), None, machines or {}
    for r in runs:
        cur = samples.get(r["id"])
        if not cur:
            continue
        if prev is not None:
            for row in compare.compare_bench(
                samples[prev], cur, alpha, min_effect, "holm", machines.get(prev), machines.get(r["id"])
            )["benchmarks"]:
                if row["verdict"] == "regression":
                    out.add((r["id"], row["name"]))
        prev = r["id"]
    return out


def chart_specs(runs, series, drivers, regressions=frozenset()):
    """One chart per pipeline x profile: per case/mode a median line, a min-max band (two datasets filled
    between, left out of the legend) and a red triangle where compare found a significant regression."""
    labels = ["#%d %s" % (r["id"], (r["started"] or "")[5:16].replace("T", " ")) for r in runs]
    specs = []
    for pipeline, profile in sorted(series):
        per_case = series[(pipeline, profile)]
        datasets, marked = [], []
        for i, name in enumerate(sorted(per_case)):
            colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
            pts = [per_case[name].get(r["id"]) for r in runs]
            reg = [bool(p) and (r["id"], p["name"]) in regressions for p, r in zip(pts, runs)]
            marked += [{"index": k, "series": name} for k, hit in enumerate(reg) if hit]
            datasets.append(
                {
                    "label": name,
                    "data": [p and p["median"] for p in pts],
                    "borderColor": colour,
                    "backgroundColor": colour,
                    "pointStyle": ["triangle" if hit else "circle" for hit in reg],
                    "pointRadius": [8 if hit else 3 for hit in reg],
                    "pointBackgroundColor": [REGRESSION_COLOUR if hit else colour for hit in reg],
                }
            )
            for edge in ("max", "min"):
                datasets.append(
                    {
                        "label": "%s %s" % (name, edge),
                        "band": True,
                        "data": [p and p[edge] for p in pts],
                        "borderColor": "transparent",
                        "backgroundColor": colour + "33",
                        "pointRadius": 0,
                        "fill": "-1" if edge == "min" else False,
                    }
                )
        markers, prev = [], None
        for i, r in enumerate(runs):
            d = drivers.get((r["id"], profile))
            if d and prev and d != prev:
                markers.append({"index": i, "text": "\u2192 " + d})
            prev = d or prev
        specs.append(
            {
                "id": slug("chart-%s-%s" % (pipeline, profile)),
                "title": "%s / %s" % (pipeline, profile),
                "labels": labels,
                "datasets": datasets,
                "markers": markers,
                "regressions": marked,
                "driver": drivers.get((runs[-1]["id"], profile), "") if runs else "",
            }
        )
    return specs


def latest_with(con, what, before=None):
    q = "SELECT id FROM runs WHERE EXISTS (SELECT 1 FROM %s x WHERE x.run_id = runs.id)" % what
    args = ()
    if before is not None:
        q += " AND id < ?"
        args = (before,)
    row = con.execute(q + " ORDER BY id DESC LIMIT 1", args).fetchone()
    return row[0] if row else None


def render(db_path, out_dir, golden_dir, max_runs=60, alpha=0.05, min_effect=0.05):
    """Writes out_dir/index.html (+ style.css, chart.min.js, records/). Returns the index path."""
    if not history.exists(db_path):
        raise data.InputError("no history at %s; run scripts/nightly or scripts/history ingest first" % db_path)
    con = history.connect(db_path)
    runs, series, drivers, samples = load(con, max_runs)
    if not runs:
        raise data.InputError("the history at %s has no runs yet" % db_path)
    jsonio.make_dirs(out_dir)
    with open(find_chartjs(), "rb") as f:
        jsonio.write_all_atomic(
            [
                (os.path.join(out_dir, "chart.min.js"), f.read()),
                (os.path.join(out_dir, "style.css"), dashboard_page.CSS),
            ]
        )
    e = html.escape
    latest = runs[-1]
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>aot-harness nightly dashboard</title>"
        "<link rel='stylesheet' href='style.css'></head><body>",
        "<h1>aot-harness nightly dashboard</h1><p class='muted'>latest run #%d, %s, commit %s, %s, host %s</p>"
        % (
            latest["id"],
            e(latest["started"] or ""),
            e((latest["git_commit"] or "?")[:12]),
            e(latest["status"] or ""),
            e(latest["host"] or ""),
        ),
    ]
    # Regressions on top: latest run with data against the one before it.
    cand_b, cand_t = latest_with(con, "benchmarks"), latest_with(con, "tests")
    cand = max(x for x in (cand_b, cand_t, -1) if x is not None)
    base_b = latest_with(con, "benchmarks", cand) if cand_b else None
    base_t = latest_with(con, "tests", cand) if cand_t else None
    parts.append("<h2>Regressions</h2>")
    if cand < 0 or (base_b is None and base_t is None):
        parts.append("<div class='alert good'>Only one run so far: nothing to compare with.</div>")
    else:
        cs = sides.run_side(db_path, str(cand))
        bs_b = sides.run_side(db_path, str(base_b)) if base_b else data.empty_side("")
        bs_t = sides.run_side(db_path, str(base_t)) if base_t else data.empty_side("")
        bench = (
            compare.compare_bench(bs_b["bench"], cs["bench"], alpha, min_effect, "holm", bs_b["machine"], cs["machine"])
            if base_b
            else {"benchmarks": []}
        )
        flips = compare.compare_tests(bs_t["tests"], cs["tests"])["flips"] if base_t and cs["has_results"] else []
        regs = [r for r in bench["benchmarks"] if r["verdict"] == "regression"]
        worse = [f for f in flips if f["direction"] == "worse"]
        if regs or worse:
            items = [
                "<li><b>%s</b> %s &rarr; %s (run #%s &rarr; #%d): %s</li>"
                % (e(f["key"]), e(f["base"]), e(f["cand"]), base_t, cand, e(f["cand_message"]))
                for f in worse
            ]
            items += [
                "<li><b>%s</b> %s slower: %.4g &rarr; %.4g ms, p = %s (Holm-adjusted %s), run #%s &rarr; #%d</li>"
                % (
                    e(r["name"]),
                    compare.pct(r["change"]),
                    r["base_median"],
                    r["cand_median"],
                    compare.fmt_p(r["p"]),
                    compare.fmt_p(r["p_adj"]),
                    base_b,
                    cand,
                )
                for r in regs
            ]
            parts.append(
                "<div class='alert bad'><b>%d outcome(s) got worse, %d benchmark(s) significantly slower</b>"
                "<ul>%s</ul></div>" % (len(worse), len(regs), "".join(items))
            )
        else:
            parts.append(
                "<div class='alert good'>No outcome got worse and no benchmark is significantly slower in "
                "run #%d than in the run before (Mann-Whitney U, alpha %g, minimum effect %g %%).</div>"
                % (cand, alpha, 100 * min_effect)
            )
        unjudged = [r for r in bench["benchmarks"] if r["verdict"] == "environment changed"]
        if unjudged:
            parts.append(
                "<div class='alert env'><b>%d benchmark(s) not judged: the machine changed</b><ul>%s</ul></div>"
                % (
                    len(unjudged),
                    "".join(
                        "<li>%s: %s</li>" % (e(p), e(next(r["not_judged"] for r in unjudged if r["profile"] == p)))
                        for p in sorted({r["profile"] for r in unjudged})
                    ),
                )
            )
        better = [f for f in flips if f["direction"] != "worse"]
        imps = [r for r in bench["benchmarks"] if r["verdict"] == "improvement"]
        if better or imps:
            parts.append(
                "<p class='muted'>Also changed: %s</p>"
                % e(
                    ", ".join(
                        ["%s %s→%s" % (f["key"], f["base"], f["cand"]) for f in better]
                        + ["%s %s" % (r["name"], compare.pct(r["change"])) for r in imps]
                    )
                )
            )
    # Outcome grid of the latest run with results.
    if cand_t is not None:
        trun = dict(con.execute("SELECT * FROM runs WHERE id=?", (cand_t,)).fetchone())
        tests = [
            history.record_of(db_path, cand_t, r[0], r[1])
            for r in con.execute("SELECT id, record_json FROM tests WHERE run_id=? ORDER BY id", (cand_t,))
        ]
        parts.append("<h2>Outcomes of run #%d</h2>" % cand_t)
        parts.append(dashboard_page.grid_html(out_dir, trun, tests, golden_dir))
    machines = {r["id"]: sides.machine_blocks(con, r["id"]) for r in runs}
    specs = chart_specs(runs, series, drivers, significant_regressions(runs, samples, alpha, min_effect, machines))
    for s in specs:  # what the machine did in the latest run of the chart's profile, beside its numbers
        prof = s["title"].rsplit(" / ", 1)[-1]
        last = next((machines[r["id"]] for r in reversed(runs) if machine.block_for(machines[r["id"]], prof)), None)
        s["machine"] = machine.block_summary(machine.block_for(last, prof)) if last else ""
    parts.append(
        "<h2>Throughput over time</h2><p class='muted'>Median pixels per second over the repetitions of "
        "each benchmark, the shaded band from the slowest to the fastest repetition; a red triangle marks "
        "a significant regression against the run before (Mann-Whitney U, Holm-adjusted, alpha %g, minimum "
        "effect %g %%); dashed lines mark a change of the profile's driver.</p><div class='charts'>"
        % (alpha, 100 * min_effect)
    )
    for s in specs:
        parts.append(
            "<div class='chart'><h3>%s</h3><div class='muted'>%s</div><div style='height:260px'>"
            "<canvas id='%s'></canvas></div><div class='muted machine'>%s</div></div>"
            % (
                e(s["title"]),
                e(("driver: " + s["driver"]) if s["driver"] else "CPU profile: no OpenCL/CUDA driver"),
                s["id"],
                e(("machine, latest run: " + s["machine"]) if s["machine"] else ""),
            )
        )
    parts.append("</div>")
    parts.append(
        "<h2>Runs</h2><table><tr><th>run</th><th>started</th><th>commit</th><th>host</th><th>label</th>"
        "<th>status</th><th>outcomes</th><th>benchmarks</th><th>machine: clocks, temperature, throttling, "
        "CPU pressure, calibration (start &rarr; end)</th></tr>"
    )
    for r in reversed(runs):
        counts = con.execute(
            "SELECT outcome, COUNT(*) FROM tests WHERE run_id=? GROUP BY outcome", (r["id"],)
        ).fetchall()
        nb = con.execute("SELECT COUNT(*) FROM benchmarks WHERE run_id=?", (r["id"],)).fetchone()[0]
        env = "<br>".join(
            "<b>%s</b>: %s" % (e(name), e(machine.block_summary(b))) for name, b in sorted(machines[r["id"]].items())
        )
        parts.append(
            "<tr><td>#%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td>"
            "<td class='machine'>%s</td></tr>"
            % (
                r["id"],
                e(r["started"] or ""),
                e((r["git_commit"] or "")[:12]),
                e(r["host"] or ""),
                e(r["label"] or ""),
                e((r["status"] or "") + (": " + r["note"] if r["note"] else "")),
                e(", ".join("%d %s" % (c[1], c[0]) for c in sorted(counts, key=lambda c: data.severity(c[0])))),
                nb,
                env,
            )
        )
    parts.append("</table>")
    parts.append(
        "<script src='chart.min.js'></script><script id='chart-data' type='application/json'>%s</script>"
        "<script>%s</script></body></html>\n" % (json.dumps(specs).replace("</", "<\\/"), dashboard_page.JS)
    )
    con.close()
    index = os.path.join(out_dir, "index.html")
    jsonio.write_atomic(index, "\n".join(parts))
    return index


def render_into(out_dir, render_fn):
    """Runs render_fn(dir) on a new directory beside out_dir and puts it in out_dir's place only when it
    succeeded: a failure (a damaged history, a full disk) leaves the previous dashboard as it was and no
    partial one. Returns the index path."""
    import shutil
    import tempfile

    out = os.path.abspath(out_dir)
    if os.path.lexists(out) and not os.path.isdir(out):
        raise data.InputError("cannot write the dashboard to %s: it is a file; pass --out a directory" % out_dir)
    made = jsonio.make_dirs(os.path.dirname(out))
    try:
        tmp = tempfile.mkdtemp(prefix=".%s." % os.path.basename(out), dir=os.path.dirname(out))
    except OSError as e:
        jsonio.undo_dirs(made)
        raise jsonio.write_error(out, e, "creating a temporary directory")
    try:
        os.chmod(tmp, 0o755)
        index = render_fn(tmp)
        old = None
        if os.path.isdir(out):
            old = tempfile.mkdtemp(prefix=".%s.old." % os.path.basename(out), dir=os.path.dirname(out))
            os.rename(out, os.path.join(old, "d"))
        os.rename(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        jsonio.undo_dirs(made)
        raise
    if old:
        shutil.rmtree(old, ignore_errors=True)
    return os.path.join(out_dir, os.path.relpath(index, tmp))


def main(argv=None):
    root = data.REPO_ROOT
    ap = data.arg_parser("dashboard", __doc__)
    data.add_history_argument(ap)
    ap.add_argument("--out", default=os.path.join(root, "out", "dashboard"), help="output dir (default %(default)s)")
    ap.add_argument("--golden-dir", default=paths.golden_dir(), help="goldens, for the diff images")
    ap.add_argument(
        "--runs", type=toolmain.whole(1, 100000), default=60, help="how many recent runs to chart (default 60)"
    )
    args = ap.parse_args(argv)
    index = render_into(args.out, lambda d: render(args.db, d, args.golden_dir, args.runs))
    print("dashboard: %s" % index)
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("dashboard", main))
