"""The shrink rounds of `explore`: every divergence at once, one build per round.

A round takes, for each divergence still shrinking, its next `--shrink-width` candidates (cheapest
first, explore_shrink.candidates), builds them all in one go (cpu and the diverging profile only), runs
them, and keeps for each divergence the cheapest candidate that diverges the same way (same class; for a
build, runtime or crash failure also the same message). A divergence whose candidates are all tried
without one that diverges is minimal. At most `PER_SIGNATURE` divergences with the same profile, class
and message (a build, driver or crash message) are shrunk; the rest join their group as they are. Wrong
values say nothing of their cause, so every such divergence is shrunk, and one with several wrong outputs
once per wrong output (its `focus`: a candidate counts only while that output stays wrong), so that two
bugs in one pipeline end as two reproducers rather than the one the greedy search happens to keep.

Then, for the report's evidence, each minimized pipeline is built once more with its schedule on every
other GPU profile explored (cross_backends): the same code shape on another backend.
"""

import os

from . import explore_shrink, explore_verdict

PER_SIGNATURE = 2


MESSAGE_CLASSES = ("compile-rejected", "runtime-error", "crash")


def wrong_outputs(rec):
    """The outputs a run record says are wrong (metrics.outputs[name].passed false)."""
    outs = ((rec or {}).get("metrics") or {}).get("outputs") or {}
    return sorted(k for k, v in outs.items() if isinstance(v, dict) and v.get("passed") is False)


def same(v, d, rec=None):
    if v is None or v[0] != d["class"]:
        return False
    if d.get("focus"):
        return d["focus"] in wrong_outputs(rec)
    return d["class"] not in MESSAGE_CLASSES or v[1] == d["detail"]


def by_output(divs):
    """divs with each wrong-values divergence of several wrong outputs split into one per output."""
    out = []
    for d in divs:
        wrong = wrong_outputs(d["record"]) if d["class"] == "wrong-values" else []
        out += [dict(d, focus=o) for o in wrong] if len(wrong) > 1 else [d]
    return out


def shrink_all(ex, divs):
    """Shrinks divs (split by wrong output first); returns them."""
    divs = by_output(divs)
    seen = {}
    active = []
    for d in divs:
        sig = d["signature"]
        seen[sig] = seen.get(sig, 0) + 1
        if d["class"] in MESSAGE_CLASSES and seen[sig] > PER_SIGNATURE:
            d["not_shrunk"] = "%d others with the same profile, class and message were shrunk" % PER_SIGNATURE
            continue
        d["cur"] = explore_shrink.only_profile(ex.pipelines[d["pipeline"]], d["profile"])
        d["steps"], d["pending"], d["tried"] = [], None, set()
        active.append(d)
    width = ex.a.shrink_width
    for rnd in range(ex.a.shrink_rounds):
        if ex.over_budget():
            for d in active:
                d["shrink_stopped"] = "--time-budget spent after %d rounds" % rnd
            break
        plan, batch = [], {}
        for d in active:
            if d["pending"] is None:  # a candidate tried before (the same content, the same name) is not again
                d["pending"] = [
                    (w, q)
                    for w, q in explore_shrink.candidates(d["cur"], d["profile"], d["pipeline"])
                    if q.name not in d["tried"]
                ]
            take, d["pending"] = d["pending"][:width], d["pending"][width:]
            if take:
                plan.append((d, take))
                batch.update({q.name: q for _, q in take})
        active = [d for d, _ in plan]
        if not plan:
            break
        ex.say("shrink round %d: %d candidates for %d divergences" % (rnd + 1, len(batch), len(active)))
        ex.build(list(batch.values()), "r%d" % rnd)
        recs = run_by_profile(ex, [(d["profile"], q.name) for d, take in plan for _, q in take], "r%d" % rnd)
        for d, take in plan:
            for what, q in take:
                r = recs.get((q.name, d["profile"]))
                v = explore_verdict.divergence(r) if r else None
                if same(v, d, r):
                    d["cur"], d["pending"], d["min_record"] = q, None, r
                    d["steps"].append(what)
                    break
                d["tried"].add(q.name)
    for d in divs:
        if d.get("steps"):
            d["minimized"] = d["cur"].name
    return divs


def run_by_profile(ex, pairs, tag):
    """{(pipeline, profile): record} of running each (profile, pipeline) pair."""
    recs = {}
    for prof in sorted({p for p, _ in pairs}):
        names = sorted({n for p, n in pairs if p == prof})
        out = os.path.join(ex.project.work, "results-%s-%s.json" % (tag, prof))
        res = ex.bless_and_run(names, [prof], out)
        recs.update({(r["pipeline"], r["profile"]): r for r in res["runs"]})
    return recs


def cross_backends(ex, divs):
    """d["cross"]: the minimized pipeline with the same schedule on every other GPU profile explored."""
    gpu = [p for p in ex.a.profiles if ex.runtimes[p] in ("opencl", "cuda", "vulkan")]
    builds, pairs = {}, []
    for d in divs:
        p = d.get("cur")
        others = [q for q in gpu if ex.runtimes[q] != ex.runtimes[d["profile"]]]
        if p is None or not others:
            continue
        sc = p.sched[d["profile"]]
        if any(c.uatomic for c in sc.values()) and "vulkan" in [ex.runtimes[q] for q in others]:
            others = [q for q in others if ex.runtimes[q] != "vulkan"]
        q = p.copy()
        for o in others:
            q.sched[o] = q.sched[d["profile"]]
        q = explore_shrink.named(q, d["pipeline"] + "x")
        d["cross_pipeline"], d["cross_profiles"] = q.name, others
        builds[q.name] = q
        pairs += [(o, q.name) for o in others]
    if not builds or ex.over_budget():
        return
    ex.say("the minimized pipelines on the other backends: %d builds" % len(builds))
    ex.build(list(builds.values()), "x")
    recs = run_by_profile(ex, pairs, "x")
    for d in divs:
        d["cross"] = [
            {
                "profile": o,
                "outcome": (recs.get((d["cross_pipeline"], o)) or {}).get("outcome", "not run"),
                "message": ((recs.get((d["cross_pipeline"], o)) or {}).get("message") or "")[:200],
            }
            for o in d.get("cross_profiles", [])
        ]
