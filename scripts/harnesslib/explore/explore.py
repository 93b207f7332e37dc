"""aot-harness explore: random pipelines with random schedules on every profile's driver, each divergence
from the cpu oracle shrunk to a small reproducer, bisected, bundled and blamed.

  aot-harness explore --seed S --count N --profile P[,P...] [--device D] [--time-budget SECONDS]
                      [--out DIR] [--work DIR] [--first K] [--no-shrink] [--no-triage]
                      [--second-driver NAME=WRAPPER]... [--max-threads N] [--halide DIR]
                      [--build-only | --prebuilt | --exe EXE | --generate-only]

N pipelines of the grammar (explore_sample.py: element-wise arithmetic on every integer and float type
with defined behaviour only, saturating casts, shifts, min/max/select/clamp, stencils behind boundary
conditions, gathers, resampling, RDom reductions, histograms, several stages and outputs), each with a
random schedule per profile (explore_sched.py), are built with the pinned Halide through the installed
package (many per generator executable), run in child processes by the project's own aot-harness and
compared with the cpu profile's output under the tolerance their operations give (exact for integer
pipelines). Every divergence is shrunk (explore_shrink.py), bisected, bundled for the vendor and run on
every other driver of its API (explore_triage.py); findings are grouped by their minimized shape.

The same seed gives the same pipelines, schedules and verdicts on every machine. DIR/results.json holds
every run's record as `run --json` writes it (history, compare, driver-diff and the dashboard read it),
diverging records carrying metrics.explore, and the findings under "explore"; DIR/explore.md is the
report; DIR/repro/ the bundles. The work dir (default <build>/explore) keeps the generated project and
its build: a second run of the same seed reuses every variant built before.

On a machine without Halide or a compiler (a GPU box given a copy of the build directory): build here
with --build-only (every profile's variants compile on the host; the cpu goldens are made), copy the
build directory, and run there with --prebuilt (divergences are shrunk only where Halide and a compiler are).
--generate-only writes the project's files into the work dir and stops; --exe EXE runs the pipelines
an executable built from them already has (this repository's explore sample).

--remote-shrink DIR --ingest RESULTS shrinks what such a machine found in few round trips: each call packs
the candidates the shrink needs next (and those a step further) into DIR/shrink-<n>.tar.gz with a runner
for that machine, and exits 3; given their verdicts, the next call goes on or reports (explore_remote.py).

Exit 0: every pipeline ran and none diverged (but in ways --known lists); 1: other divergences, or
pipelines whose oracle failed; 2: bad input, or nothing could be built or run; 3: a bundle of shrink
candidates waits to be run on the other machine (--remote-shrink).
"""

import json
import os
import random
import sys
import time

from . import (
    explore_build,
    explore_remote,
    explore_report,
    explore_rounds,
    explore_sample,
    explore_sched,
    explore_triage,
    explore_verdict,
)
from .. import data, jsonio, paths, toolmain
from ..runs import merge


def profile_runtimes():
    """{profile: runtime} from the package's profiles.json."""
    for path in (
        os.path.join(os.environ.get("AOT_HARNESS_CMAKE_DIR", ""), "profiles.json"),
        os.path.join(paths.project_dir(), "generators", "profiles.json"),
    ):
        if os.path.exists(path):
            return {
                k: v.get("runtime", "none") for k, v in jsonio.load(path, "reinstall the package")["profiles"].items()
            }
    raise jsonio.InputError("cannot find profiles.json (AOT_HARNESS_CMAKE_DIR is not set); run `aot-harness explore`")


def plan(seed, index, profiles, runtimes, max_threads):
    """Pipeline `index` of `seed` with its schedules (each profile's from its own seeded rng)."""
    p = explore_sample.sample_pipeline(seed, index)
    p.sched = {"cpu": explore_sched.sample(p, "cpu", "none", None)}
    for prof in profiles:
        rng = random.Random("explore-sched:%s:%d:%s" % (seed, index, prof))
        p.sched[prof] = explore_sched.sample(p, prof, runtimes[prof], rng, max_threads)
    return p


def _run_help():
    exe = os.environ.get("AOT_HARNESS_EXE")
    if not exe:
        return ""
    import subprocess

    return subprocess.run(
        [exe, "run", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True
    ).stdout


class Explorer:
    def __init__(self, args, runtimes):
        self.a, self.runtimes = args, runtimes
        self.t0 = time.time()
        key = "s%d-%s" % (args.seed, "-".join(args.profiles))
        self.out = os.path.abspath(args.out or paths.out_dir("explore", key))
        build_dir = os.environ.get("AOT_HARNESS_BUILD_DIR") or os.path.join(paths.project_dir(), "build")
        self.work = os.path.abspath(args.work or os.path.join(build_dir, "explore"))
        os.makedirs(self.work, exist_ok=True)
        self.tc, self.no_build = None, ""
        if not args.generate_only:
            try:
                self.tc = explore_build.Toolchain(args.halide)
            except jsonio.InputError as e:
                if not args.prebuilt:
                    raise
                self.no_build = str(e)  # a machine without Halide: run what was built, shrink nothing
        if args.prebuilt or args.remote_shrink:  # a project built for more profiles has these profiles' variants
            key = explore_build.built_key(self.work, args.seed, args.profiles)
        self.project = explore_build.Project(os.path.join(self.work, key), self.tc, args.per_file, exe=args.exe)
        self.log = os.path.join(self.project.work, "explore.log")
        self.run_args = ["--device", args.device] if args.device else []
        if args.device and "--device" not in _run_help():
            raise jsonio.InputError(
                "--device %s: this aot-harness has no device personalities (run --device); "
                "build one that has, or leave --device out" % args.device
            )
        self.stats = {
            "built": 0,
            "run_seconds": 0.0,
            "build_seconds": 0.0,
            "skipped_for_time": 0,
            "harness_errors": {},
            "oracle": {},
        }

    def over_budget(self):
        return self.a.time_budget and time.time() - self.t0 > self.a.time_budget

    def say(self, text):
        print("explore: %s" % text, file=sys.stderr, flush=True)

    def build(self, pipelines, tag, originals=False):
        """Adds and builds (with --prebuilt, the sampled pipelines must be built already)."""
        if self.a.prebuilt and originals:
            missing = [p.name for p in pipelines if p.name not in self.project.names()]
            if missing or not os.path.exists(self.project.exe()):
                raise jsonio.InputError(
                    "--prebuilt: %s has no build of %s; build them first with --build-only"
                    % (self.project.work, ", ".join(missing[:5]) or self.project.exe())
                )
            return
        self.project.add(pipelines, tag)
        try:
            self.project.compile()
        except jsonio.InputError as e:
            if not os.path.exists(self.project.exe()):
                raise
            self.say("the build reported an error (%s); going on with what was built" % e)

    def bless_and_run(self, names, profiles, out_json, **kw):
        """bless + run, leaving out (and naming) pipelines whose spec the harness refuses."""
        names = list(names)
        for _ in range(8):
            if not names:
                return {"runs": []}
            before = os.path.getsize(self.log) if os.path.exists(self.log) else 0
            try:
                res = explore_build.bless_and_run(
                    self.project, names, profiles, out_json, self.log, run_args=self.run_args, **kw
                )
                self.stats["oracle"].update(explore_report.not_blessed(self.log, before))
                return res
            except jsonio.InputError:
                bad = explore_report.refused_pipelines(self.log, before) & set(names)
                if not bad:
                    raise
                for b in bad:
                    self.stats["harness_errors"][b] = explore_report.refusal_of(self.log, b)
                names = [n for n in names if n not in bad]
        raise jsonio.InputError("aot-harness kept refusing the pipelines' specs; see %s" % self.log)

    def explore(self):
        a = self.a
        pipelines = [
            plan(a.seed, i, a.profiles, self.runtimes, a.max_threads) for i in range(a.first, a.first + a.count)
        ]
        self.pipelines = {p.name: p for p in pipelines}
        files = []
        t_run = time.time()
        for k in range(0, len(pipelines), a.batch):
            if self.over_budget():
                self.stats["skipped_for_time"] += len(pipelines) - k
                break
            batch = pipelines[k : k + a.batch]
            self.say(
                "building pipelines %d-%d of %d (%s)" % (k + 1, k + len(batch), len(pipelines), ",".join(a.profiles))
            )
            t_build = time.time()
            self.build(batch, "b%d" % (k // a.batch), originals=True)
            self.stats["build_seconds"] += time.time() - t_build
            out = os.path.join(self.project.work, "results-b%d.json" % (k // a.batch))
            if a.build_only:
                explore_build.harness(self.project, ["bless", "--pipeline", ",".join(p.name for p in batch)], self.log)
                self.stats["built"] += len(batch)
                continue
            self.bless_and_run([p.name for p in batch], a.profiles, out)
            files.append(out)
            self.stats["built"] += len(batch)
        if a.build_only:
            return None, []
        self.stats["run_seconds"] = time.time() - t_run
        if not files:
            raise jsonio.InputError("nothing was built within --time-budget %g s; give it more time" % a.time_budget)
        results = merge.merge(files)
        divs = []
        for r in results["runs"]:
            v = explore_verdict.divergence(r)
            if v and r.get("pipeline") in self.pipelines and r.get("profile") in a.profiles:
                divs.append(
                    {
                        "record": r,
                        "pipeline": r["pipeline"],
                        "profile": r["profile"],
                        "class": v[0],
                        "detail": v[1],
                        "driver": data.test_driver(r),
                        "signature": explore_verdict.signature(v[0], v[1], r["profile"]),
                    }
                )
        self.say("%d runs, %d divergences" % (len(results["runs"]), len(divs)))
        if divs and not a.no_shrink and self.tc is not None and not a.exe:
            divs = explore_rounds.shrink_all(self, divs)
        elif divs and not a.no_shrink:
            for d in divs:
                d["shrink_stopped"] = "not shrunk: %s" % (self.no_build or "--exe builds nothing")
        if divs and not a.no_triage:
            explore_rounds.cross_backends(self, divs)
            for d in divs:
                if not d.get("not_shrunk"):
                    self.triage(d)
        return results, divs

    def triage(self, d):
        name = d.get("minimized") or d["pipeline"]
        tri = os.path.join(self.out, "triage")
        os.makedirs(tri, exist_ok=True)
        if self.over_budget():
            d["blame"], d["why"] = "unconfirmed", "not triaged: --time-budget spent"
            return
        d["bisect"] = (
            explore_triage.bisect(self.project, name, d["profile"], tri, self.log)
            if d["class"] != "compile-rejected"
            else "not run: the variant did not build"
        )
        d["repro"] = explore_triage.repro(self.project, name, d["profile"], os.path.join(self.out, "repro"))
        rt = self.runtimes[d["profile"]]
        rows = (
            []
            if d["class"] == "compile-rejected"
            else explore_triage.second_drivers(
                self.project, name, d["profile"], rt, d["class"], d["driver"], tri, self.a.second_driver
            )
        )
        d["drivers"] = rows
        d["blame"], d["why"] = explore_triage.blame(d["class"], rows)


def main(argv=None):
    ap = data.arg_parser("explore", __doc__)
    ap.add_argument("--seed", required=True, type=toolmain.whole(0, 2**31))
    ap.add_argument("--count", required=True, type=toolmain.whole(1, 100000))
    ap.add_argument("--first", default=0, type=toolmain.whole(0, 10**6))
    ap.add_argument("--profile", required=True, help="the profiles to explore, comma-separated (cpu is the oracle)")
    ap.add_argument("--device", help="a device personality the runs emulate (aot-harness run --device)")
    ap.add_argument("--time-budget", type=toolmain.real(1, 10**7), help="seconds; no new batch or shrink round after")
    ap.add_argument("--out", help="where results.json, explore.md, repro/ go (default out/explore/seed<S>)")
    ap.add_argument("--work", help="the generated project and its build (default <out>/work)")
    ap.add_argument("--batch", default=48, type=toolmain.whole(1, 10000), help="pipelines per build (default 48)")
    ap.add_argument("--per-file", default=16, type=toolmain.whole(1, 1000), help="generators per source file")
    ap.add_argument("--no-shrink", action="store_true", help="report divergences as they are")
    ap.add_argument("--no-triage", action="store_true", help="no bisect, repro bundle or second driver")
    ap.add_argument("--shrink-rounds", default=40, type=toolmain.whole(0, 1000))
    ap.add_argument(
        "--shrink-width",
        type=toolmain.whole(1, 200),
        help="candidates per round (per bundle with --remote-shrink) per divergence (default 6)",
    )
    ap.add_argument(
        "--second-driver",
        action="append",
        default=[],
        metavar="NAME=WRAPPER",
        help="another driver to confirm findings with: a command that runs its arguments on it",
    )
    ap.add_argument("--max-threads", default=256, type=toolmain.whole(1, 4096), help="GPU threads per block at most")
    ap.add_argument("--halide", help="Halide's prefix (default: the one this aot-harness was built with)")
    ap.add_argument(
        "--known",
        help="findings already triaged (JSON: runtime, class, message regex, blame, "
        "evidence): listed in the report, not counted in the exit status",
    )
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--build-only", action="store_true", help="build and bless here, run nothing (then --prebuilt)")
    mode.add_argument("--prebuilt", action="store_true", help="run what --build-only built; build nothing")
    mode.add_argument("--exe", help="an aot-harness that has the pipelines already (build nothing)")
    mode.add_argument("--generate-only", action="store_true", help="write the project's files into --work and stop")
    mode.add_argument(
        "--remote-shrink",
        metavar="DIR",
        help="shrink the divergences of runs made on a machine without "
        "Halide: --ingest their results, get DIR/shrink-<n>.tar.gz to run there (explore_remote.py)",
    )
    ap.add_argument(
        "--ingest",
        action="append",
        default=[],
        metavar="RESULTS",
        help="with --remote-shrink: a results file of runs made there (explore's results.json, verdicts-*.json)",
    )
    ap.add_argument(
        "--lookahead",
        default=2,
        type=toolmain.whole(0, 100),
        help="with --remote-shrink: steps further along whose candidates go in the same bundle (default 2)",
    )
    a = ap.parse_args(argv)
    if a.exe:
        a.prebuilt = True
    if a.ingest and not a.remote_shrink:
        raise jsonio.InputError("--ingest needs --remote-shrink DIR (where the verdicts and bundles are kept)")
    if a.remote_shrink:
        a.remote_shrink = os.path.abspath(a.remote_shrink)
    a.shrink_width = a.shrink_width or 6
    if a.generate_only and not a.work:
        raise jsonio.InputError("--generate-only needs --work DIR (where the files go)")
    runtimes = profile_runtimes()
    a.profiles = [p for p in a.profile.split(",") if p and p != "cpu"]
    unknown = [p for p in a.profiles if p not in runtimes]
    if unknown or not a.profiles:
        raise jsonio.InputError(
            "--profile %s: %s; profiles: %s"
            % (
                a.profile,
                "unknown %s" % ", ".join(unknown) if unknown else "names no profile but cpu (the oracle)",
                ", ".join(sorted(runtimes)),
            )
        )
    for spec in a.second_driver:
        if "=" not in spec or not spec.split("=", 1)[1].strip():
            raise jsonio.InputError(
                "--second-driver %s: write NAME=WRAPPER (a command that runs its arguments "
                "on that driver, e.g. mesa25=scripts/with-mesa25)" % spec
            )
    known = explore_report.load_known(a.known) if a.known else []
    ex = Explorer(a, runtimes)
    if a.generate_only:
        ex.project.add(
            [plan(a.seed, i, a.profiles, runtimes, a.max_threads) for i in range(a.first, a.first + a.count)],
            "s%d" % a.seed,
        )
        print("explore: %d pipelines of seed %d in %s" % (a.count, a.seed, ex.project.src))
        return 0
    if a.remote_shrink:
        results, divs = explore_remote.run(
            ex, [plan(a.seed, i, a.profiles, runtimes, a.max_threads) for i in range(a.first, a.first + a.count)]
        )
        if results is None:
            return 3
    else:
        results, divs = ex.explore()
    if a.build_only:
        secs = time.time() - ex.t0
        print(
            "explore: %d pipelines built and blessed in %s (%.0f s, %.1f per minute); run them with --prebuilt"
            % (ex.stats["built"], ex.project.work, secs, ex.stats["built"] * 60 / max(secs, 1e-9))
        )
        return 0
    doc = explore_report.document(ex, results, divs, known)
    os.makedirs(ex.out, exist_ok=True)
    jsonio.write_all_atomic(
        [
            (os.path.join(ex.out, "results.json"), json.dumps(doc, indent=1, sort_keys=True) + "\n"),
            (os.path.join(ex.out, "explore.md"), explore_report.markdown(doc)),
        ]
    )
    print(explore_report.summary_line(doc))
    print("results: %s\nreport:  %s" % (os.path.join(ex.out, "results.json"), os.path.join(ex.out, "explore.md")))
    if not doc["runs"]:
        return 2
    new = [f for f in doc["explore"]["findings"] if not f.get("known")]
    return 1 if new or doc["explore"]["oracle_failed"] else 0


if __name__ == "__main__":
    sys.exit(toolmain.run("explore", main))
