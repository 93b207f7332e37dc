"""The nightly job after the build (scripts/nightly builds first, then calls this).

Runs the whole matrix (every pipeline x profile x case, the nightly cases included) one profile at a time,
then `aot-harness bench` one profile at a time with >= 9 repetitions in random interleaving (each recording
what the machine did: clocks, temperatures, throttling, CPU pressure, calibration), and ingests every
artifact into the history as soon as it exists, so a nightly that stops midway keeps what finished. Writes
OUT/results.json (merged), OUT/report/ (aot-harness report), the dashboard, compares with the previous
complete run (a benchmark whose machine moved more than its change is "not judged", never a regression) and
writes OUT/summary.md (new failures, flips, regressions with their first bad commit when --bisect found it,
environment notes, the dashboard's link), which --notify-cmd gets on its standard input. `aot-harness nightly` runs it on the project that aot-harness was built for (data.REPO_ROOT, paths.py);
this repository's scripts/nightly builds first, then runs the same.

Exit status: 0 all ran, no test worse than SKIP and no regression against the previous run; 1 a test failed or
something got worse; 2 a step could not run (build, harness, benchmarks, --notify-cmd).
"""

import json
import os
import subprocess
import sys
import time

from . import nightly_summary
from ..runs import compare, sides
from .. import data, formats, jsonio, paths, toolmain
from ..history import history, ingest


def log(msg):
    print("nightly: " + msg, flush=True)


def runnable_profiles(harness):
    """Profiles runnable here, from `aot-harness list --json` (all profiles of all pipelines)."""
    out = subprocess.run([harness, "list", "--json"], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError("list --json failed: " + " ".join(out.stderr.strip()[-300:].split()))
    doc = jsonio.loads(out.stdout, "aot-harness list --json", "rebuild the harness")
    allp, runnable = [], []
    for p in doc.get("pipelines", []):
        for prof in p.get("profiles", []):
            if prof["name"] not in allp:
                allp.append(prof["name"])
            if prof.get("runnable") and prof["name"] not in runnable:
                runnable.append(prof["name"])
    return allp, runnable


def main(argv=None):
    root = data.REPO_ROOT
    ap = data.arg_parser("nightly", __doc__)
    data.add_history_argument(ap)
    ap.add_argument("--out", default=os.path.join(root, "out", "nightly"), help="artifacts (default %(default)s)")
    ap.add_argument("--bin", default=paths.bin_dir(), help="the directory of aot-harness (default %(default)s)")
    ap.add_argument(
        "--repetitions",
        type=toolmain.whole(9, 10000),
        default=9,
        help="benchmark repetitions (>= 9 for the Mann-Whitney test to have power; default 9)",
    )
    ap.add_argument("--min-time", type=toolmain.real(0, 3600), default=0.1, help="seconds per repetition (default 0.1)")
    ap.add_argument("--bench-filter", default="", help="extra regex the benchmark names must match, e.g. /small/")
    ap.add_argument("--profile", action="append", help="only these profiles (repeatable; default all)")
    ap.add_argument(
        "--case",
        help="only these cases, for the matrix and the benchmarks (names and globs, "
        "comma-separated, as `aot-harness run --case`; default all)",
    )
    ap.add_argument("--label", default="nightly", help="label of the run in the history")
    ap.add_argument(
        "--build-status",
        type=toolmain.whole(0, 255),
        default=0,
        help="exit status of the build (set by scripts/nightly)",
    )
    ap.add_argument("--dashboard", default=os.path.join(root, "out", "dashboard"), help="dashboard dir ('' = none)")
    ap.add_argument("--dashboard-url", help="the dashboard's address for summary.md (default: its file:// path)")
    ap.add_argument(
        "--notify-cmd",
        help="shell command run at the end with summary.md on its standard input (and "
        "its path in $AOT_HARNESS_SUMMARY), e.g. a chat or merge-request poster",
    )
    ap.add_argument(
        "--bisect",
        action="store_true",
        help="bisect each new failure and regression to its first bad "
        "commit (aot-harness bisect-commit; builds every commit tried)",
    )
    ap.add_argument(
        "--bisect-max", type=toolmain.whole(1, 100), default=3, help="at most this many bisects (default 3)"
    )
    args = ap.parse_args(argv)
    toolmain.handle_signals()
    con = history.connect(args.db)
    run_id = history.create_run(con, commit=history.git_commit(root), label=args.label)
    log("run %d in %s" % (run_id, args.db))
    try:
        status, problems = run_steps(args, con, run_id)
    except BaseException as e:  # the run says why it stopped: failed (with the reason) or interrupted
        also = history.mark_unfinished(con, run_id, e)
        if isinstance(e, (toolmain.Interrupted, KeyboardInterrupt)):
            log("interrupted; what finished is in run %d%s" % (run_id, also))
            raise
        raise data.InputError("run %d failed: %s%s" % (run_id, toolmain.describe(e), also))
    if status is None:
        con.close()
        cand = sides.run_side(args.db, str(run_id))
        summarise(args, cand, None, None, ["the build failed (exit %d)" % args.build_status])
        print("nightly: the build failed (exit %d); recorded as run %d" % (args.build_status, run_id), file=sys.stderr)
        return 2
    prev = [
        r[0]
        for r in con.execute(
            "SELECT id FROM runs WHERE id < ? AND status='complete' ORDER BY id DESC LIMIT 1", (run_id,)
        )
    ]
    con.close()
    cand, base, res = sides.run_side(args.db, str(run_id)), None, None
    if prev:
        base = sides.run_side(args.db, str(prev[0]))
        res = compare.compare_sides(base, cand)
        compare.print_text(res)
        if res["failed"] and status == 0:
            status = 1
    if args.dashboard:
        from ..dashboard import dashboard

        dashboard.main(["--db", args.db, "--out", args.dashboard])
    if not summarise(args, cand, base, res, problems) and status == 0:
        status = 2
    log("run %d: %s" % (run_id, "; ".join(problems) or "complete"))
    return status


def summarise(args, cand, base, res, problems):
    """Writes OUT/summary.md (bisecting first with --bisect) and runs --notify-cmd with it. False when the
    notification failed."""
    bisects = bisect_all(args, base["run"], cand["run"], res) if args.bisect and res and base else {}
    link = args.dashboard_url or (
        "file://" + os.path.abspath(os.path.join(args.dashboard, "index.html")) if args.dashboard else ""
    )
    text = nightly_summary.render(
        cand["run"], base["run"] if base else None, res, cand["tests"], problems, link, bisects
    )
    path = os.path.join(args.out, "summary.md")
    jsonio.make_dirs(args.out)
    jsonio.write_atomic(path, text)
    log("summary: " + path)
    if not args.notify_cmd:
        return True
    rc = subprocess.run(
        args.notify_cmd,
        shell=True,
        input=text,
        text=True,
        env=dict(os.environ, AOT_HARNESS_SUMMARY=os.path.abspath(path)),
    ).returncode
    if rc != 0:
        log("--notify-cmd exited %d; the summary is in %s" % (rc, path))
    return rc == 0


def bisect_all(args, base_run, cand_run, res):
    """{test key or benchmark name: bisect-commit's JSON result, or why it was not bisected}."""
    good, bad = (base_run.get("git_commit") or ""), (cand_run.get("git_commit") or "")
    todo = [(f["key"],) + tuple(f["key"].split("/")[:3]) for f in nightly_summary.new_failures(res, {})[0]]
    todo += [
        (r["name"], r["pipeline"], r["profile"], r["case"])
        for r in res["bench"]["benchmarks"]
        if r["verdict"] == "regression"
    ]
    out = {}
    for n, (key, pipeline, profile, case) in enumerate(todo):
        if not good or not bad or good == bad:
            out[key] = "the same commit in both runs"
        elif good.endswith("-dirty") or bad.endswith("-dirty"):
            out[key] = "a run of uncommitted changes cannot be bisected"
        elif n >= args.bisect_max:
            out[key] = "more than --bisect-max %d to bisect" % args.bisect_max
        else:
            path = os.path.join(args.out, "bisect-%d.json" % n)
            log("bisecting %s from %s to %s" % (key, good[:12], bad[:12]))
            rc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "harnesslib.bisect.bisectcommit",
                    good,
                    bad,
                    "--pipeline",
                    pipeline,
                    "--profile",
                    profile,
                    "--case",
                    case,
                    "--json",
                    path,
                    "--work",
                    os.path.join(args.out, "bisect-work"),
                    "--build-dir",
                    os.path.dirname(os.path.abspath(args.bin)),
                ]
            ).returncode
            out[key] = data.read_json(path) if rc == 0 and os.path.exists(path) else "bisect-commit exited %d" % rc
    return out


def run_steps(args, con, run_id):
    """The matrix and the benchmarks of run `run_id`, each artifact ingested as it appears. Returns (exit
    status, problems), or (None, ...) when the build had failed; the run is finished either way."""
    problems, worst = [], "PASS"
    jsonio.make_dirs(args.out)
    if args.build_status != 0:
        history.finish_run(con, run_id, "build-failed", "build exited with %d" % args.build_status)
        log("build failed (exit %d); recorded as run %d" % (args.build_status, run_id))
        return None, problems
    harness = os.path.join(args.bin, "aot-harness")
    try:
        allp, runnable = runnable_profiles(harness)
    except (OSError, RuntimeError) as e:  # the caller records the run as failed, with this reason
        raise data.InputError("%s: %s; build it (scripts/nightly builds first)" % (harness, e))
    profiles = [p for p in allp if not args.profile or p in args.profile]
    merged = None
    cases = ["--case", args.case] if args.case else []
    t0 = time.time()
    for prof in profiles:  # the matrix, one profile at a time; each results file ingested at once
        path = os.path.join(args.out, "results-%s.json" % prof)
        if os.path.exists(path):
            os.remove(path)
        rc = subprocess.run(
            [harness, "run", "--profile", prof, "--json", path, "--artifacts", os.path.join(args.out, "artifacts")]
            + cases
        ).returncode
        if not os.path.exists(path):
            problems.append("harness run --profile %s wrote no results (exit %d)" % (prof, rc))
            log(problems[-1])
            continue
        doc = formats.load_checked(path, ("results",))[1]
        ingest.ingest_results(con, run_id, doc, path)
        worst = data.worst([worst] + [r.get("outcome") for r in doc["runs"]])
        if merged is None:
            merged = doc
        else:
            merged["runs"] += doc["runs"]
    log("matrix: %.0f s, worst outcome %s" % (time.time() - t0, worst))
    if merged is not None:
        from collections import Counter

        c = Counter(r["outcome"] for r in merged["runs"])
        merged["summary"] = dict(c, total=len(merged["runs"]), worst=worst)
        jsonio.write_atomic(os.path.join(args.out, "results.json"), json.dumps(merged, indent=1))
        subprocess.run(
            [
                harness,
                "report",
                "--results",
                os.path.join(args.out, "results.json"),
                "--out",
                os.path.join(args.out, "report"),
            ]
        )
    t0 = time.time()
    for prof in [p for p in profiles if p in runnable]:  # benchmarks, one profile at a time
        path = os.path.join(args.out, "bench-%s.json" % prof)
        if os.path.exists(path):
            os.remove(path)
        filt = ["--benchmark_filter=" + args.bench_filter] if args.bench_filter else []
        with open(os.path.join(args.out, "bench-%s.log" % prof), "w") as logf:
            rc = subprocess.run(
                [
                    harness,
                    "bench",
                    "--profile",
                    prof,
                    "--json",
                    path,
                    "--repetitions",
                    str(args.repetitions),
                    "--min-time",
                    "%g" % args.min_time,
                    "--benchmark_enable_random_interleaving=true",
                ]
                + filt
                + cases,
                stdout=logf,
                stderr=subprocess.STDOUT,
            ).returncode
        if rc != 0 or not os.path.exists(path):
            problems.append("benchmarks of %s failed (exit %d, log %s/bench-%s.log)" % (prof, rc, args.out, prof))
            log(problems[-1])
        if os.path.exists(path):
            try:
                n = ingest.ingest_bench(con, run_id, formats.load_checked(path, ("bench",))[1], path)
                log("benchmarks %s: %d" % (prof, n))
            except data.InputError as e:
                problems.append(str(e))
    log("benchmarks: %.0f s" % (time.time() - t0))
    history.finish_run(con, run_id, "failed" if problems else "complete", "; ".join(problems))
    return (2 if problems else (1 if data.failed(worst) else 0)), problems


if __name__ == "__main__":
    sys.exit(toolmain.run("nightly", main))
