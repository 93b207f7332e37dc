"""`explore`'s results: the run records (as `run --json` writes them) with metrics.explore on each diverging
one, the findings grouped by their minimized shape under "explore", the Markdown report, and the words
for pipelines the harness refused.

A finding's shape is what its minimized pipeline is made of without names, constants and offsets: each
stage's kind, type and expression tree, and the diverging profile's schedule features. Two divergences
with one shape, class and backend are one finding.
"""

import re

from . import explore_build, explore_coverage, explore_cpp, explore_sched, explore_shrink, explore_verdict
from .. import jsonio

SPEC_ERROR = re.compile(r"specs/([a-z][a-z0-9_]*)\.json: ([^\n]*)")


def refused_pipelines(log, offset=0):
    """Pipelines whose spec the harness refused in the log after offset."""
    with open(log, errors="replace") as f:
        f.seek(offset)
        return {m.group(1) for m in SPEC_ERROR.finditer(f.read())}


def not_blessed(log, offset=0):
    """{pipeline: why} of the pipelines whose cpu oracle made no golden (bless's 'not blessed' lines)."""
    with open(log, errors="replace") as f:
        f.seek(offset)
        return {
            m.group(1): m.group(2)[:300]
            for m in re.finditer(r"not blessed: ([a-z][a-z0-9_]*)/[^:]*: ([^\n]*)", f.read())
        }


def refusal_of(log, name):
    with open(log, errors="replace") as f:
        for m in SPEC_ERROR.finditer(f.read()):
            if m.group(1) == name:
                return m.group(2)[:300]
    return ""


def shape(p, profile):
    stages = ["%s:%s=%s" % (s.kind, s.t, s.expr.shape() if s.expr is not None else s.src and "src") for s in p.stages]
    feats = sorted(f.split(":", 1)[1] for f in explore_sched.features(p, profile, p.sched[profile]))
    return " ; ".join(stages) + " | " + ", ".join(feats)


def group(ex, divs):
    """Findings: divergences with one class, backend and minimized shape; one left unshrunk joins the finding
    of a shrunk one with its signature (profile, class, message)."""
    groups, of_signature = {}, {}
    for d in sorted(divs, key=lambda d: not d.get("cur")):
        if d.get("cur"):
            key = (d["class"], ex.runtimes[d["profile"]], shape(d["cur"], d["profile"]))
            of_signature.setdefault(d["signature"], key)
        else:
            key = of_signature.get(d["signature"], (d["class"], ex.runtimes[d["profile"]], d["signature"]))
        groups.setdefault(key, []).append(d)
    out = []
    for n, (key, ds) in enumerate(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))):
        d = next((x for x in ds if x.get("minimized")), ds[0])
        p = d.get("cur") or ex.pipelines[d["pipeline"]]
        f = {
            "id": "F%d" % (n + 1),
            "class": d["class"],
            "runtime": key[1],
            "shape": key[2],
            "count": len(ds),
            "profiles": sorted({x["profile"] for x in ds}),
            "pipelines": sorted({x["pipeline"] for x in ds}),
            "message": d["detail"],
            "driver": d["driver"],
            "blame": d.get("blame", "unconfirmed"),
            "why": d.get("why", "not triaged"),
            "bisect": d.get("bisect", ""),
            "repro": d.get("repro") or "",
            "drivers": d.get("drivers", []),
            "cross": d.get("cross", []),
            "minimized": {
                "pipeline": p.name,
                "profile": d["profile"],
                "size": p.size,
                "stages": len(p.stages),
                "steps": d.get("steps", []),
                "stopped": d.get("shrink_stopped", ""),
                "algorithm": explore_cpp.algorithm(p),
                "schedule": explore_cpp.schedule_lines(p, d["profile"]),
                "message": (d.get("min_record") or d["record"]).get("message", "")[:400],
            },
        }
        for x in ds:
            x["finding"] = f["id"]
        out.append(f)
    return out


def load_known(path):
    """The entries of a known-findings file, their message (and shape) patterns compiled."""
    doc = jsonio.load(path, 'write {"findings": [{"runtime", "class", "message", "blame", "evidence"}]}')
    at = jsonio.At(doc, path, "see harness/test/explore/known_findings.json")
    out = []
    for e in at.get("findings").items():
        for k in ("runtime", "class", "message", "blame", "evidence"):
            e.get(k).str()
        entry = dict(e.value)
        for k in ("message", "shape"):
            if k == "shape" and k not in e.value:
                continue
            e.get(k).str()
            try:
                entry[k + "_pattern"] = re.compile(e.value[k])
            except re.error as err:
                e.get(k).fail("is not a regular expression (%s)" % err, "fix the pattern")
        out.append(entry)
    return out


def _known(f, known):
    """The known entry a finding is: its runtime and class, its message matches, and its minimized shape
    too where the entry names one (wrong values say nothing in their message: the shape tells them apart)."""
    for k in known:
        if (
            k["runtime"] == f["runtime"]
            and k["class"] == f["class"]
            and k["message_pattern"].search(f["message"] or "")
            and ("shape_pattern" not in k or k["shape_pattern"].search(f["shape"] or ""))
        ):
            return {x: k[x] for x in ("blame", "evidence", "reproducer") if x in k}
    return None


def document(ex, results, divs, known=()):
    findings = group(ex, divs)
    for f in findings:
        k = _known(f, known)
        if k:
            f["known"] = k
    by_key = {}
    for d in divs:  # a divergence split by wrong output: the record names its first finding
        by_key.setdefault((d["pipeline"], d["profile"]), d)
    for r in results["runs"]:
        d = by_key.get((r.get("pipeline"), r.get("profile")))
        if d:
            r.setdefault("metrics", {})["explore"] = {
                "finding": d["finding"],
                "class": d["class"],
                "blame": d.get("blame", "unconfirmed"),
                "minimized": d.get("minimized", r.get("pipeline")),
            }
    oracle = {k: v for k, v in ex.stats["oracle"].items() if k in ex.pipelines}
    built = ex.stats["built"]
    minutes = max(ex.stats["run_seconds"], 1e-9) / 60
    results["explore"] = {
        "seed": ex.a.seed,
        "first": ex.a.first,
        "count": ex.a.count,
        "profiles": ex.a.profiles,
        "device": ex.a.device or "",
        "pipelines_run": built,
        "skipped_for_time": ex.stats["skipped_for_time"],
        "seconds_build_and_run": round(ex.stats["run_seconds"], 1),
        "seconds_build": round(ex.stats.get("build_seconds", 0.0), 1),
        "pipelines_per_minute": round(built / minutes, 2),
        "oracle_failed": oracle,
        "harness_refused": ex.stats["harness_errors"],
        "beyond_device": sorted(
            "%s/%s" % (r.get("pipeline"), r.get("profile")) for r in results["runs"] if explore_verdict.beyond_device(r)
        ),
        "coverage": explore_coverage.coverage(list(ex.pipelines.values())[:built], ex.a.profiles, ex.runtimes),
        # what each pipeline was on each profile, so that results made elsewhere are shrunk from the same ones
        "content": {
            "%s|%s" % (n, prof): explore_build.content_hash(explore_shrink.only_profile(p, prof))
            for n, p in ex.pipelines.items()
            for prof in ex.a.profiles
        },
        "findings": findings,
    }
    return results


def summary_line(doc):
    e = doc["explore"]
    fs = e["findings"]
    return (
        "explore: %d pipelines on %s, %.1f per minute; %d divergence(s) in %d finding(s)%s; grammar coverage %.0f %%"
        % (
            e["pipelines_run"],
            ",".join(e["profiles"]),
            e["pipelines_per_minute"],
            sum(f["count"] for f in fs),
            len(fs),
            ""
            if not fs
            else " ("
            + ", ".join(
                "%s %s %s%s" % (f["id"], f["class"], f["blame"], " known" if f.get("known") else "") for f in fs
            )
            + ")",
            100 * e["coverage"]["fraction"],
        )
    )


def markdown(doc):
    e = doc["explore"]
    lines = [
        "# explore: seed %d, pipelines %d-%d on %s"
        % (e["seed"], e["first"], e["first"] + e["count"] - 1, ", ".join(e["profiles"])),
        "",
        summary_line(doc),
        "",
        "| | |",
        "|---|---|",
        "| pipelines run | %d (%d left out by --time-budget) |" % (e["pipelines_run"], e["skipped_for_time"]),
        "| build and run | %.0f s (%.0f s of it building), %.1f pipelines per minute |"
        % (e["seconds_build_and_run"], e.get("seconds_build", 0), e["pipelines_per_minute"]),
        "| runs | %s |"
        % ", ".join("%d %s" % (v, k) for k, v in sorted(doc["summary"].items()) if k not in ("total", "worst")),
        "| oracle failed (cpu variant) | %s |"
        % ("; ".join("%s: %s" % kv for kv in sorted(e["oracle_failed"].items())) or "none"),
        "| beyond the emulated device's limits (not divergences) | %s |"
        % (", ".join(e.get("beyond_device", [])) or "none"),
        "| refused by the harness | %s |"
        % ("; ".join("%s: %s" % kv for kv in sorted(e["harness_refused"].items())) or "none"),
        "| grammar coverage | %d of %d features (%.0f %%) |"
        % (e["coverage"]["covered"], e["coverage"]["features"], 100 * e["coverage"]["fraction"]),
        "",
    ]
    if not e["findings"]:
        lines += ["No divergence.", ""]
    for f in e["findings"]:
        m = f["minimized"]
        lines += [
            "## %s: %s on %s (%d divergence(s)): %s" % (f["id"], f["class"], f["runtime"], f["count"], f["blame"]),
            "",
            "- profiles: %s; pipelines: %s" % (", ".join(f["profiles"]), ", ".join(f["pipelines"])),
            "- known: %s"
            % ("%s's (%s)" % (f["known"]["blame"], f["known"]["evidence"]) if f.get("known") else "no: new"),
            "- first driver: %s" % (f["driver"] or "-"),
            "- message: `%s`" % f["message"],
            "- whose: **%s**: %s" % (f["blame"], f["why"]),
        ]
        for r in f["drivers"]:
            lines.append("  - %s (%s): %s %s" % (r["driver"], r["via"], r["outcome"], r["message"][:160]))
        for r in f["cross"]:
            lines.append("- same schedule on %s: %s %s" % (r["profile"], r["outcome"], r["message"][:160]))
        lines += [
            "- bisect: %s" % (f["bisect"] or "-"),
            "- repro bundle: %s" % (f["repro"] or "-"),
            "- minimized: %s on %s, size %s, %d stage(s), in %d step(s)%s"
            % (
                m["pipeline"],
                m["profile"],
                "x".join(map(str, m["size"])),
                m["stages"],
                len(m["steps"]),
                " (%s)" % m["stopped"] if m["stopped"] else "",
            ),
            "- its message: `%s`" % m["message"].replace("`", "'"),
            "",
            "```cpp",
        ]
        lines += m["algorithm"] + ["// schedule on %s" % m["profile"]] + m["schedule"] + ["```", ""]
    return "\n".join(lines) + "\n"
