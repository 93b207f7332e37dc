"""summary.md of a nightly: Markdown that a merge request, a chat message or a mail can carry, written by
nightly.py beside its artifacts and handed to --notify-cmd.

  new failures   tests that fail in this run and did not in the run compared with (or are new and fail)
  flips          every other outcome change
  regressions    benchmarks significantly slower (compare's verdict), each with its first bad commit when the
                 nightly bisected it (--bisect), else the one command that bisects it
  not judged     benchmarks whose machine moved more than their change (machine.py), with the numbers
  environment    per profile, what the machine did in both runs: clocks, temperatures, throttling, CPU
                 pressure, calibration
  problems       steps that did not run
and a link to the dashboard.
"""

from ..runs import compare
from .. import data


def _md(text):
    """Text safe inside a Markdown table cell or list item (no pipes or line breaks)."""
    return " ".join(str(text).replace("|", "\\|").split())


def bisect_command(base_commit, cand_commit, pipeline, profile, case):
    return "aot-harness bisect-commit %s %s --pipeline %s --profile %s%s" % (
        (base_commit or "?")[:12],
        (cand_commit or "?")[:12],
        pipeline,
        profile,
        " --case %s" % case if case else "",
    )


def new_failures(res, cand_tests):
    """(new failures, other flips): worse flips into a failing outcome, and tests only in this run that fail."""
    tests = res.get("tests") or {"flips": [], "only_cand": []}
    new = [f for f in tests["flips"] if f["direction"] == "worse" and data.failed(f["cand"])]
    new += [
        {
            "key": k,
            "base": "(new)",
            "cand": cand_tests[k].get("outcome"),
            "direction": "worse",
            "cand_message": cand_tests[k].get("message", ""),
        }
        for k in tests.get("only_cand", [])
        if k in cand_tests and data.failed(cand_tests[k].get("outcome"))
    ]
    others = [f for f in tests["flips"] if f not in new]
    return new, others


def render(run, base_run, res, cand_tests, problems, dashboard, bisects=None):
    """The Markdown. run/base_run: history rows (dicts: id, git_commit, started, host) or None; res: compare's
    result (None without a run to compare with); cand_tests: {key: record} of this run; bisects: {key or
    benchmark name: bisect-commit's JSON result, or a str saying why it was not bisected}."""
    bisects = bisects or {}
    lines = []
    commit = (run.get("git_commit") or "?")[:12]
    if res is None:
        verdict = "first run: nothing to compare with"
        new, others, regs, nj = [], [], [], []
    else:
        new, others = new_failures(res, cand_tests)
        rows = res["bench"]["benchmarks"]
        regs = [r for r in rows if r["verdict"] == "regression"]
        nj = [r for r in rows if r["verdict"] == "environment changed"]
        bad = len(new) + len(regs)
        verdict = (
            ("%d new failure(s), %d regression(s)" % (len(new), len(regs))) if bad else "no new failure, no regression"
        )
        if nj:
            verdict += ", %d benchmark(s) not judged (the machine changed)" % len(nj)
    failing = sum(1 for r in cand_tests.values() if data.failed(r.get("outcome")))
    lines.append("# Nightly run #%s: %s" % (run.get("id"), verdict))
    lines.append("")
    lines.append(
        "Commit `%s` on %s, started %s; %d test(s), %d failing."
        % (commit, _md(run.get("host") or "?"), _md(run.get("started") or "?"), len(cand_tests), failing)
    )
    if base_run:
        lines.append(
            "Compared with run #%s (commit `%s`, %s)."
            % (base_run.get("id"), (base_run.get("git_commit") or "?")[:12], _md(base_run.get("started") or "?"))
        )
    if dashboard:
        lines.append("Dashboard: [%s](%s)" % (dashboard, dashboard))
    lines.append("")
    if problems:
        lines += ["## Steps that did not run", ""] + ["- %s" % _md(p) for p in problems] + [""]
    if res is None:
        return "\n".join(lines)
    base_commit, cand_commit = (base_run or {}).get("git_commit"), run.get("git_commit")
    lines += ["## New failures (%d)" % len(new), ""]
    for f in new:
        lines.append("- `%s`: %s → **%s**: %s" % (f["key"], f["base"], f["cand"], _md(f.get("cand_message", ""))[:300]))
        lines.append("  " + _bisect_line(bisects.get(f["key"]), base_commit, cand_commit, *_key_parts(f["key"])))
    if not new:
        lines.append("None.")
    lines += ["", "## Outcome flips (%d)" % len(others), ""]
    lines += ["- `%s`: %s → %s (%s)" % (f["key"], f["base"], f["cand"], f["direction"]) for f in others] or ["None."]
    lines += ["", "## Regressions (%d)" % len(regs), ""]
    for r in regs:
        lines.append(
            "- `%s`: %s slower, %.4g → %.4g ms (Mann-Whitney U, p %s, Holm-adjusted %s)"
            % (
                r["name"],
                compare.pct(r["change"]),
                r["base_median"],
                r["cand_median"],
                compare.fmt_p(r["p"]),
                compare.fmt_p(r["p_adj"]),
            )
        )
        lines.append(
            "  "
            + _bisect_line(bisects.get(r["name"]), base_commit, cand_commit, r["pipeline"], r["profile"], r["case"])
        )
    if not regs:
        lines.append("None.")
    imps = [r for r in res["bench"]["benchmarks"] if r["verdict"] == "improvement"]
    if imps:
        lines += ["", "## Improvements (%d)" % len(imps), ""]
        lines += ["- `%s`: %s" % (r["name"], compare.pct(r["change"])) for r in imps]
    if nj:
        lines += ["", "## Not judged: the machine changed (%d benchmark(s))" % len(nj), ""]
        for prof in sorted({r["profile"] for r in nj}):
            these = [r for r in nj if r["profile"] == prof]
            lines.append(
                "- %s, %d benchmark(s) (changes %s to %s): %s"
                % (
                    prof,
                    len(these),
                    compare.pct(min(r["change"] for r in these)),
                    compare.pct(max(r["change"] for r in these)),
                    _md(these[0]["not_judged"]),
                )
            )
    env = res["bench"].get("environment") or {}
    lines += ["", "## Environment", ""]
    if env:
        lines += ["| profile | run #%s | this run |" % (base_run or {}).get("id", "?"), "|---|---|---|"]
        for prof in sorted(env):
            lines.append("| %s | %s | %s |" % (prof, _md(env[prof]["base"]), _md(env[prof]["cand"])))
    else:
        lines.append(
            "No machine record in one of the runs (benchmarks recorded before the harness recorded the "
            "machine, or no benchmarks): changes were judged without it."
        )
    return "\n".join(lines) + "\n"


def _key_parts(key):
    p = key.split("/")
    return (p + ["", "", ""])[:3]


def _bisect_line(result, base_commit, cand_commit, pipeline, profile, case):
    if isinstance(result, dict) and result.get("first_bad"):
        return "First bad commit: `%s` (bisect-commit, %s s): %s" % (
            _md(result.get("first_bad_subject") or result["first_bad"][:12]),
            result.get("seconds"),
            _md(result.get("first_bad_what", ""))[:300],
        )
    why = (" (%s)" % _md(result)) if isinstance(result, str) and result else ""
    if not base_commit or not cand_commit or base_commit == cand_commit:
        return "Same commit in both runs: not a code change%s." % why
    return "Bisect%s: `%s`" % (why, bisect_command(base_commit, cand_commit, pipeline, profile, case))
