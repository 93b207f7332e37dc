"""Shrinking divergences found on a machine without Halide (a lent GPU box), in few round trips.

`explore --remote-shrink DIR` on the build machine, the first time without --ingest, packs the sampled
pipelines themselves as bundle 1 (the GPU box then needs neither Python nor a copy of the build). Then
`--ingest RESULTS.json...`: every results file given (each bundle's verdicts, or the results.json of an
`explore --prebuilt --no-shrink` run there) is kept in
DIR/verdicts.json, the record of every (pipeline, profile) run there. Each divergence of the sampled
pipelines is then shrunk as explore_rounds shrinks it (the cheapest candidate that diverges the same
way, one per wrong output) with those records as the only oracle, as far as they go; once two or more
single moves are known to diverge, all of them made together are tried first. Where a divergence needs
a verdict not there yet, its next `--shrink-width` candidates are taken, and those of up to `--lookahead`
nodes further along the path the verdicts so far predict (the step after, should that one diverge):
all are built here (cpu and the profile), their cpu goldens blessed, and packed with the project's
aot-harness, the goldens, libstdc++ and a runner into DIR/shrink-<n>.tar.gz. On the GPU box:

    tar xzf shrink-<n>.tar.gz && sh shrink-<n>/run.sh OUTDIR   # writes OUTDIR/verdicts-<n>-<profile>.json

and back here the same command with `--ingest OUTDIR/verdicts-<n>-<profile>.json` continues. When every
divergence is minimal (all its candidates ran and none diverges the same way) or `--shrink-rounds`
bundles were made, the report is written as explore's (results.json, explore.md): the minimized
pipeline's repro bundle (for the GPU box), and the same pipeline run on this machine's drivers of the API
(it diverges here too: Halide's; it passes here: the GPU box's driver's).
"""

import json
import os
import re
import shutil
import subprocess
import tarfile

from . import explore_build, explore_rounds, explore_shrink, explore_verdict
from .. import data, jsonio

RUNNER = """#!/bin/sh
# run.sh OUTDIR: runs explore's shrink candidates of bundle {n} on this machine's driver (no Halide, no
# compiler needed) and writes OUTDIR/verdicts-{n}-<profile>.json, the results files to give back to
# `aot-harness explore --remote-shrink DIR --ingest`.
set -u
out=${{1:?usage: run.sh OUTDIR}}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
# NVIDIA's Vulkan ICD where the loader does not find it by itself
if [ -z "${{VK_DRIVER_FILES:-}}" ] && [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
status=0
while read -r profile names; do
  rm -f "$out/verdicts-{n}-$profile.json"
  "$here/bin/aot-harness" run --golden-dir "$here/golden" --pipeline "$names" --profile "$profile" \\
    --json "$out/verdicts-{n}-$profile.json" > "$out/run-{n}-$profile.log" 2>&1
  [ -f "$out/verdicts-{n}-$profile.json" ] || {{ echo "run.sh: no results for $profile (see $out/run-{n}-$profile.log)" >&2; status=2; }}
done < "$here/pipelines.txt"
ls "$out"/verdicts-{n}-*.json 2>/dev/null | sed 's/^/run.sh: wrote /'
exit $status
"""


class Verdicts:
    """DIR/verdicts.json: {pipeline|profile: record} of every results file ingested."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "verdicts.json")
        self.doc = jsonio.load(self.path, "delete %s to start over" % directory) if os.path.exists(self.path) else {}
        self.doc.setdefault("records", {})
        self.doc.setdefault("bundles", 0)

    def ingest(self, path):
        doc = jsonio.load(path, "give the results.json of `explore --prebuilt` or a bundle's verdicts-<n>.json")
        runs = doc.get("runs") if isinstance(doc, dict) else None
        if not isinstance(runs, list) or not runs:
            raise jsonio.InputError(
                "%s: no runs; give the results.json of `explore --prebuilt` or a bundle's verdicts-<n>.json" % path
            )
        for r in runs:
            if isinstance(r, dict) and r.get("pipeline") and r.get("profile"):
                self.doc["records"]["%s|%s" % (r["pipeline"], r["profile"])] = r
        return len(runs)

    def get(self, name, profile):
        return self.doc["records"].get("%s|%s" % (name, profile))

    def save(self):
        jsonio.write_atomic(self.path, json.dumps(self.doc, indent=1, sort_keys=True) + "\n")


def ran_elsewhere(verdicts, pipelines, profiles):
    """The pipeline|profile keys whose ingested runs were of another pipeline than this explore makes of that
    name (another version's grammar or schedules built them): their records cannot be shrunk from here."""
    out = []
    for key, h in sorted(verdicts.doc.get("content", {}).items()):
        name, _, prof = key.partition("|")
        if (
            name in pipelines
            and prof in profiles
            and h != explore_build.content_hash(explore_shrink.only_profile(pipelines[name], prof))
        ):
            out.append(key)
    return out


def divergences(pipelines, profiles, verdicts):
    """The divergences among the sampled pipelines' records, as explore makes them."""
    out = []
    for name in sorted(pipelines):
        for prof in profiles:
            r = verdicts.get(name, prof)
            v = explore_verdict.divergence(r) if r else None
            if v:
                out.append(
                    {
                        "record": r,
                        "pipeline": name,
                        "profile": prof,
                        "class": v[0],
                        "detail": v[1],
                        "driver": data.test_driver(r),
                        "signature": explore_verdict.signature(v[0], v[1], prof),
                    }
                )
    return out


def move(what):
    """A move as named at every step ('size 32x48x3' and 'size 16x48x3' are one: halving the size)."""
    return "size" if what.startswith("size ") else re.sub(r"tile \(.*\)$", "tile", what)


def walk(d, start, verdicts, width, lookahead, max_steps):
    """Follows d's shrink from `start` as far as the verdicts go. Sets d's cur, steps, min_record; returns
    the candidates still needed ([] when d is minimal or max_steps were taken).

    At each node the candidates are those of explore_shrink (cheapest first) preceded, once two or more of
    them are known to diverge, by all of those moves made together: one candidate that, when it still
    diverges, takes many steps at once (what a round trip to the GPU box buys). The first that diverges is
    taken. Needed where the verdicts end: that node's next `width` candidates, and those of up to
    `lookahead` nodes further along the predicted path (the moves made together, else the first move of a
    kind that diverged before), so that one call on the GPU box answers several steps."""
    prof = d["profile"]
    cur, d["steps"], good = start, [], set()
    while len(d["steps"]) < max_steps:
        cands = _with_together(d, cur, verdicts)
        good |= {move(w) for w, q in cands if _diverges(d, verdicts.get(q.name, prof))}  # kinds that diverged
        for what, q in cands:
            r = verdicts.get(q.name, prof)
            if r is None:
                d["cur"] = cur
                return _ahead(d, cands, verdicts, width, lookahead, good)
            if _diverges(d, r):
                cur, d["min_record"] = q, r
                d["steps"].append(what)
                break
        else:
            break
    d["cur"] = cur
    return []


def _with_together(d, cur, verdicts):
    prof = d["profile"]
    cands = explore_shrink.candidates(cur, prof, d["pipeline"])
    moves = [w for w, q in cands if _diverges(d, verdicts.get(q.name, prof))]
    if len(moves) < 2:
        return cands
    q = cur
    for m in moves:  # each move again on what the ones before it left (a move whose target went is skipped)
        q = next((c for w, c in explore_shrink.candidates(q, prof, d["pipeline"]) if move(w) == move(m)), q)
    if q.name == cur.name or any(c.name == q.name for _, c in cands):
        return cands
    return [("together: " + "; ".join(moves), q)] + cands


def _diverges(d, r):
    return r is not None and explore_rounds.same(explore_verdict.divergence(r), d, r)


def _ahead(d, cands, verdicts, width, lookahead, good):
    prof = d["profile"]
    need = []
    for depth in range(lookahead + 1):
        unknown = [q for _, q in cands if verdicts.get(q.name, prof) is None]
        need += [q for q in unknown[:width] if q not in need]
        # the predicted step: the first candidate known to diverge, the moves together, or a move of a kind
        # that diverged before (halving the size seldom stops a divergence until the very end)
        nxt = next(
            (
                q
                for w, q in cands
                if _diverges(d, verdicts.get(q.name, prof))
                or (q in unknown and (w.startswith("together: ") or move(w) in good | {"size"}))
            ),
            None,
        )
        if nxt is None or depth == lookahead:
            break
        if nxt in unknown and nxt not in need:
            need.append(nxt)
        cands = _with_together(d, nxt, verdicts)
    return need


def shrink(ex, divs, verdicts):
    """Walks every divergence; builds and packs the candidates still needed. Returns (divs, bundle or None)."""
    a = ex.a
    divs = explore_rounds.by_output(divs)
    needed, seen = {}, {}
    for d in divs:
        seen[d["signature"]] = seen.get(d["signature"], 0) + 1
        if d["class"] == "compile-rejected":  # decided by the build, here: no round trip needed
            d["not_shrunk"] = "a build failure: shrink it here (explore without --remote-shrink)"
            continue
        if d["class"] in explore_rounds.MESSAGE_CLASSES and seen[d["signature"]] > explore_rounds.PER_SIGNATURE:
            d["not_shrunk"] = (
                "%d others with the same profile, class and message were shrunk" % explore_rounds.PER_SIGNATURE
            )
            continue
        start = explore_shrink.only_profile(ex.pipelines[d["pipeline"]], d["profile"])
        need = walk(d, start, verdicts, a.shrink_width, a.lookahead, a.shrink_rounds)
        d["unfinished"] = bool(need)
        for q in need:
            needed[(q.name, d["profile"])] = q
        if d.get("steps"):
            d["minimized"] = d["cur"].name
    if not needed:
        return divs, None
    if verdicts.doc["bundles"] >= a.shrink_rounds:
        for d in divs:
            if d.get("unfinished"):
                d["shrink_stopped"] = "--shrink-rounds %d bundles made" % a.shrink_rounds
        return divs, None
    verdicts.doc["bundles"] += 1
    n = verdicts.doc["bundles"]
    ex.say("bundle %d: %d candidates for %d divergences" % (n, len(needed), len(divs)))
    ex.build(list({q.name: q for q in needed.values()}.values()), "m%d" % n)
    names = sorted({name for name, _ in needed})
    explore_build.harness(ex.project, ["bless", "--pipeline", ",".join(names)], ex.log)
    by_prof = {}
    for name, prof in sorted(needed):
        by_prof.setdefault(prof, []).append(name)
    return divs, pack(ex, n, by_prof, verdicts)


def pack(ex, n, by_prof, verdicts):
    """DIR/shrink-<n>.tar.gz: the project's aot-harness, the candidates' goldens, libstdc++ and run.sh. A
    candidate whose cpu variant made no golden here is left out, recorded as not diverging."""
    top = "shrink-%d" % n
    stage = os.path.join(ex.a.remote_shrink, top)
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(os.path.join(stage, "bin"))
    shutil.copy2(ex.project.exe(), os.path.join(stage, "bin", "aot-harness"))
    names = {x for ns in by_prof.values() for x in ns}
    manifest = jsonio.load(os.path.join(ex.project.golden, "MANIFEST.json"), "see %s" % ex.log)
    manifest["goldens"] = [g for g in manifest.get("goldens", []) if g.get("pipeline") in names]
    missing = names - {g["pipeline"] for g in manifest["goldens"]}
    for prof in by_prof:
        for name in sorted(missing & set(by_prof[prof])):
            verdicts.doc["records"]["%s|%s" % (name, prof)] = {
                "pipeline": name,
                "profile": prof,
                "outcome": "ERROR",
                "message": "no golden: the cpu variant made none on the build machine (see %s)" % ex.log,
            }
        by_prof[prof] = [x for x in by_prof[prof] if x not in missing]
    names -= missing
    if not names:
        raise jsonio.InputError("no shrink candidate got a cpu golden here (see %s)" % ex.log)
    os.makedirs(os.path.join(stage, "golden"))
    for name in sorted(names):
        if os.path.isdir(os.path.join(ex.project.golden, name)):
            shutil.copytree(os.path.join(ex.project.golden, name), os.path.join(stage, "golden", name))
    with open(os.path.join(stage, "golden", "MANIFEST.json"), "w") as f:
        f.write(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    os.makedirs(os.path.join(stage, "lib"))
    for lib in _cxx_runtime(ex.project.exe()):
        shutil.copy2(lib, os.path.join(stage, "lib"))
    with open(os.path.join(stage, "pipelines.txt"), "w") as f:
        for prof, ns in sorted(by_prof.items()):
            if ns:
                f.write("%s %s\n" % (prof, ",".join(ns)))
    with open(os.path.join(stage, "run.sh"), "w") as f:
        f.write(RUNNER.format(n=n))
    os.chmod(os.path.join(stage, "run.sh"), 0o755)
    path = stage + ".tar.gz"
    with tarfile.open(path + ".part", "w:gz") as t:
        t.add(stage, arcname=top)
    os.replace(path + ".part", path)
    shutil.rmtree(stage)
    return path


def _say_next(n, bundle):
    print(
        "explore: bundle %d: %s\n  on the GPU machine: tar xzf %s && sh shrink-%d/run.sh OUTDIR\n"
        "  then here: the same command with --ingest OUTDIR/verdicts-%d-<profile>.json"
        % (n, bundle, os.path.basename(bundle), n, n)
    )


def _cxx_runtime(exe):
    """The C++ runtime libraries exe links (the GPU box's may be older than the build machine's)."""
    out = subprocess.run(
        ["ldd", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True
    ).stdout
    libs = []
    for line in out.splitlines():
        parts = line.split("=>")
        if len(parts) == 2 and parts[0].strip().startswith(("libstdc++", "libgcc_s")):
            path = parts[1].split("(")[0].strip()
            if os.path.exists(path):
                libs.append(path)
    return libs


def run(ex, pipelines):
    """--remote-shrink on the sampled pipelines: ingest, walk, pack the next bundle (returns None, None) or
    triage every minimized divergence here and return (results, divs) for explore's report."""
    a = ex.a
    verdicts = Verdicts(a.remote_shrink)
    for path in a.ingest:
        ex.say("%s: %d runs" % (path, verdicts.ingest(path)))
        doc = jsonio.load(path, "")
        if isinstance(doc.get("explore"), dict):
            verdicts.doc.setdefault("content", {}).update(doc["explore"].get("content") or {})
            verdicts.doc["device_explore"] = {
                k: doc["explore"].get(k) for k in ("seconds_build_and_run", "pipelines_run")
            }
            verdicts.doc["environment"] = doc.get("environment") or {}
    os.makedirs(a.remote_shrink, exist_ok=True)  # after every file ingested is known to be good
    verdicts.save()
    ex.pipelines = {p.name: p for p in pipelines}
    ran = [verdicts.get(p.name, prof) for p in pipelines for prof in a.profiles]
    if not any(ran) and not a.ingest:  # the first call: the sampled pipelines themselves are bundle 1
        names = [p.name for p in pipelines]
        ex.build(pipelines, "s%d" % a.seed)
        explore_build.harness(ex.project, ["bless", "--pipeline", ",".join(names)], ex.log)
        verdicts.doc["bundles"] += 1
        bundle = pack(ex, verdicts.doc["bundles"], {prof: list(names) for prof in a.profiles}, verdicts)
        verdicts.save()
        _say_next(verdicts.doc["bundles"], bundle)
        return None, None
    if not any(ran):
        raise jsonio.InputError(
            "%s holds no run of seed %d's pipelines %d-%d on %s; --ingest the results.json of "
            "`explore --prebuilt --no-shrink` run there"
            % (verdicts.path, a.seed, a.first, a.first + a.count - 1, ",".join(a.profiles))
        )
    ran_other = ran_elsewhere(verdicts, ex.pipelines, a.profiles)
    if ran_other:  # another explore's grammar or schedules: its records are of other pipelines
        raise jsonio.InputError(
            "%s ran other pipelines under the names %s than this explore makes (another version "
            "built them); build them again with this aot-harness (--build-only) and run them there"
            % (verdicts.path, ", ".join(ran_other[:5]))
        )
    divs, bundle = shrink(ex, divergences(ex.pipelines, a.profiles, verdicts), verdicts)
    verdicts.save()
    if bundle:
        _say_next(verdicts.doc["bundles"], bundle)
        return None, None
    runs = [r for r in ran if r]
    summary = {}
    for r in runs:
        summary[r.get("outcome", "ERROR")] = summary.get(r.get("outcome", "ERROR"), 0) + 1
    summary["total"] = len(runs)
    dev = verdicts.doc.get("device_explore") or {}
    ex.stats["built"] = len({r["pipeline"] for r in runs})
    ex.stats["run_seconds"] = dev.get("seconds_build_and_run") or 0.0
    for d in divs:
        if not a.no_triage and not d.get("not_shrunk"):
            ex.triage(d)
    return {"environment": verdicts.doc.get("environment", {}), "runs": runs, "summary": summary}, divs
