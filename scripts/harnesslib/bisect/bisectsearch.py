"""The search of `aot-harness bisect-commit` (bisectcommit.py), apart from git and builds so that it can be tested
with a fake build-and-measure step: which commits to try, and whether a measured commit is good or bad.

A commit is judged against the two ends, GOOD and BAD, measured first:
  outcome  the worst outcome of the pipeline's runs differs from GOOD's (a flip: PASS -> FAIL, -> CRASH, ...);
  bench    the benchmarks that regressed from GOOD to BAD (compare's Mann-Whitney U test, the same alpha and
           minimum effect) are compared with both ends: a regression against GOOD and none against BAD is bad,
           the reverse good; when the test cannot tell (both or neither, or the machine moved: machine.py), the
           commit is measured again with twice the repetitions, and then decided by where its medians lie
           between GOOD's and BAD's (the nearer end), which the report says.
"""

import math

from ..runs import compare, stats
from .. import data


class Untestable(Exception):
    """A commit that cannot be judged (it does not build, or the pipeline is not in it): the search tries its
    neighbours, as `git bisect skip`."""


def first_bad(n, judge, log=lambda msg: None):
    """Binary search over commits 0..n-1, 0 good and n-1 bad, judge(i) -> True (bad) / False (good) or raising
    Untestable. Returns (first bad index, {index: verdict or 'untestable'}). With untestable commits the answer
    is the first bad one among those that could be judged (the report names the untestable ones before it)."""
    lo, hi = 0, n - 1
    seen = {0: "good", n - 1: "bad"}
    while hi - lo > 1:
        mid = (lo + hi) // 2
        # the nearest testable commit to the middle, alternating sides
        order = sorted(range(lo + 1, hi), key=lambda i: (abs(i - mid), i))
        order = [i for i in order if seen.get(i) != "untestable"]
        if not order:
            break
        for i in order:
            try:
                bad = judge(i)
            except Untestable as e:
                seen[i] = "untestable"
                log("commit %d of %d cannot be judged (%s); trying a neighbour" % (i, n - 1, e))
                continue
            seen[i] = "bad" if bad else "good"
            if bad:
                hi = i
            else:
                lo = i
            break
        else:
            break
    return hi, seen


def worst_outcome(side):
    return data.worst(r.get("outcome") for r in side["tests"].values()) if side["tests"] else None


class OutcomeJudge:
    """Bad = the worst outcome differs from GOOD's."""

    kind = "outcome"

    def __init__(self, good, bad):
        self.good, self.bad = worst_outcome(good), worst_outcome(bad)
        if self.good is None or self.bad is None:
            raise data.InputError(
                "no run of the pipeline on %s at GOOD or BAD; check --pipeline, --profile and --case"
                % ("GOOD" if self.good is None else "BAD")
            )

    def differ(self):
        return self.good != self.bad

    def classify(self, side):
        """(bad, what: 'FAIL (was PASS)')."""
        o = worst_outcome(side)
        if o is None:
            raise Untestable("no run of the pipeline recorded")
        worst = [r for r in side["tests"].values() if r.get("outcome") == o]
        why = (worst[0].get("message") or "")[:160] if worst and o != self.good else ""
        return o != self.good, "%s (GOOD: %s)%s" % (
            o,
            self.good,
            ": %s %s" % (data.test_key(worst[0]), why) if why else "",
        )

    def describe_ends(self):
        return "outcome %s at GOOD, %s at BAD" % (self.good, self.bad)


def _log_position(good, bad, x):
    """Where x lies between good (0) and bad (1), in log space."""
    if good <= 0 or bad <= 0 or x <= 0 or bad == good:
        return 0.0
    return math.log(x / good) / math.log(bad / good)


class BenchJudge:
    """Bad = the benchmarks that regressed from GOOD to BAD regressed at this commit too."""

    kind = "bench"

    def __init__(self, good, bad, alpha=compare.DEFAULT_ALPHA, min_effect=compare.DEFAULT_MIN_EFFECT):
        self.good, self.bad, self.alpha, self.min_effect = good, bad, alpha, min_effect
        res = self._compare(good, bad)
        # A regression the machine check would not judge is still what the search follows (its ends were
        # measured at other times on a machine that moved); the report says so.
        self.ends = [
            r
            for r in res["benchmarks"]
            if r["verdict"] == "regression"
            or (r["verdict"] == "environment changed" and r.get("stat_verdict") == "regression")
        ]
        self.names = [r["name"] for r in self.ends]
        self.unjudged = [r for r in self.ends if r["verdict"] == "environment changed"]

    def _compare(self, a, b, names=None):
        pick = (lambda s: {k: v for k, v in s["bench"].items() if k in names}) if names else (lambda s: s["bench"])
        return compare.compare_bench(
            pick(a), pick(b), self.alpha, self.min_effect, "holm", a.get("machine"), b.get("machine")
        )

    def differ(self):
        return bool(self.ends)

    def classify(self, side, last_try=False):
        """(bad or None when the test cannot tell and this is not the last try, what: the numbers)."""
        if not set(self.names) <= set(side["bench"]):
            raise Untestable("its benchmarks lack %s" % ", ".join(sorted(set(self.names) - set(side["bench"])))[:200])
        vs_good = {r["name"]: r for r in self._compare(self.good, side, self.names)["benchmarks"]}
        vs_bad = {r["name"]: r for r in self._compare(side, self.bad, self.names)["benchmarks"]}
        slower = any(r["verdict"] == "regression" for r in vs_good.values())
        faster_than_bad = any(r["verdict"] == "regression" for r in vs_bad.values())
        moved = any(r["verdict"] == "environment changed" for r in list(vs_good.values()) + list(vs_bad.values()))
        parts, pos = [], []
        for e in self.ends:
            g = vs_good.get(e["name"])
            if not g:
                continue
            pos.append(_log_position(e["base_median"], e["cand_median"], g["cand_median"]))
            parts.append(
                "%s %.4g ms (%s vs GOOD, p %s)"
                % (e["name"], g["cand_median"], compare.pct(g["change"]), compare.fmt_p(g["p_adj"]))
            )
        what = "; ".join(parts)
        if slower != faster_than_bad and not moved:
            return slower, what
        if not last_try:
            return None, what + ("; the machine moved" if moved else "; the test cannot tell")
        bad = stats.median(pos) >= 0.5 if pos else slower
        return bad, what + "; decided by the nearer end (%.0f %% of the way to BAD)" % (
            100 * stats.median(pos) if pos else 0
        )

    def describe_ends(self):
        return "; ".join(
            "%s %.4g -> %.4g ms (%s, p %s%s)"
            % (
                r["name"],
                r["base_median"],
                r["cand_median"],
                compare.pct(r["change"]),
                compare.fmt_p(r["p_adj"]),
                "; the machine moved too: " + r["not_judged"].split("not judged: ", 1)[-1]
                if r in self.unjudged
                else "",
            )
            for r in self.ends
        )
