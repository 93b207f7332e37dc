"""aot-harness bisect-commit GOOD BAD --pipeline P --profile T: the first commit where P on T got slower, or
where its outcome changed.

Checks the commits between GOOD and BAD out into git worktrees of the project's repository (never touching the
checkout you work in), configures each with the CMake cache of this aot-harness's build (its prefix path, Halide,
compilers) restricted to P (AOT_HARNESS_PIPELINES) and to T and cpu (HARNESS_PROFILES), builds only the
aot-harness target, and measures: `aot-harness run` for an outcome (the worst outcome of P on T) or `aot-harness
bench` with --repetitions samples for its speed. GOOD and BAD are measured first: when their outcomes differ the
search follows the outcome, else the benchmarks that regressed from GOOD to BAD (compare's Mann-Whitney U test;
see bisectsearch.py for how a commit in between is judged). Prints the first bad commit with its numbers and
every commit tried; the worktrees and builds go into --work and are removed at the end unless --keep.

Exit status: 0 the first bad commit is named; 1 GOOD and BAD do not differ (nothing to bisect); 2 bad input or
a step that could not run (GOOD or BAD does not build, not a git repository, GOOD not an ancestor of BAD).
"""

import json
import os
import shutil
import subprocess
import sys
import time

from . import bisectsearch
from ..runs import compare
from .. import data, jsonio, paths, toolmain

# CMake cache entries of the user's build that a worktree's build takes over (where Halide and the package are,
# the compilers and launchers, the build type), when the build has them.
CACHE_KEYS = (
    "CMAKE_PREFIX_PATH",
    "CMAKE_BUILD_TYPE",
    "Halide_DIR",
    "HalideHelpers_DIR",
    "AotHarness_DIR",
    "CMAKE_C_COMPILER",
    "CMAKE_CXX_COMPILER",
    "CMAKE_C_COMPILER_LAUNCHER",
    "CMAKE_CXX_COMPILER_LAUNCHER",
    "CMAKE_TOOLCHAIN_FILE",
    "HARNESS_PLATFORM",
)


def log(msg):
    print("bisect-commit: " + msg, file=sys.stderr, flush=True)


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True)
    if check and r.returncode != 0:
        raise data.InputError("git %s: %s" % (" ".join(args), (r.stderr.strip().splitlines() or ["failed"])[-1]))
    return r.stdout.strip()


def commit_list(repo, good, bad):
    """[GOOD, ..., BAD] (full hashes) along the ancestry path, oldest first."""
    g = git(repo, "rev-parse", "--verify", "--quiet", good + "^{commit}", check=False)
    b = git(repo, "rev-parse", "--verify", "--quiet", bad + "^{commit}", check=False)
    for name, sha in ((good, g), (bad, b)):
        if not sha:
            raise data.InputError(
                "'%s' is not a commit of %s; pass a commit, tag or branch (git log shows them)" % (name, repo)
            )
    if g == b:
        raise data.InputError("GOOD and BAD are the same commit %s; pass two commits" % g[:12])
    if subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", g, b]).returncode != 0:
        raise data.InputError("GOOD %s is not an ancestor of BAD %s; pass an older GOOD" % (good, bad))
    between = git(repo, "rev-list", "--ancestry-path", "--reverse", "%s..%s" % (g, b)).split()
    return [g] + between


def cache_args(build_dir):
    """-D arguments (and -G) that give a worktree's build what the user's build in `build_dir` was configured with."""
    path = os.path.join(build_dir, "CMakeCache.txt")
    if not os.path.exists(path):
        return [], "cmake"
    out, cmake, gen = [], "cmake", None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if ":" not in line or "=" not in line or line.startswith(("#", "//")):
                continue
            key, rest = line.split(":", 1)
            typ, value = rest.split("=", 1)
            if key in CACHE_KEYS and value and not value.endswith("-NOTFOUND"):
                out.append("-D%s:%s=%s" % (key, typ, value))
            elif key == "CMAKE_COMMAND":
                cmake = value
            elif key == "CMAKE_GENERATOR":
                gen = value
    return (["-G", gen] if gen else []) + out, cmake


class Workspace:
    """Worktrees and builds of the commits tried, under `work`; each commit built once."""

    def __init__(self, args, repo, sub):
        self.args, self.repo, self.sub = args, repo, sub
        self.work = os.path.abspath(args.work)
        self.cmake_args, self.cmake = cache_args(args.build_dir)
        self.trees, self.built = [], {}
        jsonio.make_dirs(os.path.join(self.work, "logs"))

    def _step(self, name, cmd, env=None):
        logf = os.path.join(self.work, "logs", name + ".log")
        with open(logf, "w") as f:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
        return rc, logf

    def build(self, sha):
        """The bin/ of an aot-harness built at `sha` (raises Untestable when it does not build)."""
        if sha in self.built:
            return self.built[sha]
        short = sha[:12]
        tree, build = os.path.join(self.work, "wt-" + short), os.path.join(self.work, "build-" + short)
        if not os.path.isdir(tree):
            git(self.repo, "worktree", "add", "--detach", "--force", tree, sha)
            self.trees.append(tree)
        t0 = time.time()
        profiles = ";".join(dict.fromkeys([self.args.profile, "cpu"]))
        env = dict(os.environ)
        env.setdefault("CCACHE_BASEDIR", self.work)  # the same sources in another worktree hit the cache
        rc, logf = self._step(
            short + "-configure",
            [self.cmake, "-S", os.path.join(tree, self.sub), "-B", build]
            + self.cmake_args
            + ["-DAOT_HARNESS_PIPELINES=" + self.args.pipeline, "-DHARNESS_PROFILES=" + profiles]
            + self.args.cmake_arg,
            env,
        )
        if rc == 0:
            rc, logf = self._step(short + "-build", [self.cmake, "--build", build, "--target", "aot-harness"], env)
        if rc != 0:
            raise bisectsearch.Untestable("it does not build (log %s)" % logf)
        self.built[sha] = (os.path.join(build, "bin"), time.time() - t0)
        return self.built[sha]

    def measure(self, sha, kind, repetitions):
        """A comparison side (data.py) of `sha`: its results (outcome) or its benchmarks (bench)."""
        bindir, _ = self.build(sha)
        exe = os.path.join(bindir, "aot-harness")
        a = self.args
        sel = ["--pipeline", a.pipeline, "--profile", a.profile] + (["--case", a.case] if a.case else [])
        gold = ["--golden-dir", a.golden_dir] if a.golden_dir else []
        out = os.path.join(self.work, "%s-%s-%d.json" % (sha[:12], kind, repetitions))
        if kind == "outcome":
            cmd = [exe, "run", "--json", out] + sel + gold
        else:
            cmd = (
                [
                    exe,
                    "bench",
                    "--json",
                    out,
                    "--repetitions",
                    str(repetitions),
                    "--min-time",
                    "%g" % a.min_time,
                    "--benchmark_enable_random_interleaving=true",
                ]
                + sel
                + gold
            )
        rc, logf = self._step("%s-%s" % (sha[:12], kind), cmd)
        if not os.path.exists(out):
            raise bisectsearch.Untestable("aot-harness %s wrote nothing (exit %d, log %s)" % (cmd[1], rc, logf))
        return data.load_files_side(out)

    def close(self):
        if self.args.keep:
            log("kept the worktrees and builds in %s" % self.work)
            return
        for tree in self.trees:
            git(self.repo, "worktree", "remove", "--force", tree, check=False)
        git(self.repo, "worktree", "prune", check=False)
        shutil.rmtree(self.work, ignore_errors=True)


def subject(repo, sha):
    return git(repo, "log", "-1", "--format=%h %s (%an, %ad)", "--date=short", sha, check=False)


def bisect(ws, commits, mode, repetitions, alpha, min_effect):
    """(judge, first bad index, tried: [(index, verdict, what)])."""
    good_sha, bad_sha = commits[0], commits[-1]
    for sha, name in ((good_sha, "GOOD"), (bad_sha, "BAD")):
        try:
            ws.build(sha)
        except bisectsearch.Untestable as e:
            raise data.InputError("%s (%s) %s; bisect-commit needs both ends to build" % (name, sha[:12], e))
    judge = None
    if mode in ("auto", "outcome"):
        judge = bisectsearch.OutcomeJudge(ws.measure(good_sha, "outcome", 1), ws.measure(bad_sha, "outcome", 1))
        log("ends: " + judge.describe_ends())
        if not judge.differ() and mode == "outcome":
            return judge, None, []
    if judge is None or not judge.differ():
        judge = bisectsearch.BenchJudge(
            ws.measure(good_sha, "bench", repetitions), ws.measure(bad_sha, "bench", repetitions), alpha, min_effect
        )
        log("ends: " + (judge.describe_ends() or "no benchmark regressed from GOOD to BAD"))
        if not judge.differ():
            return judge, None, []
    tried = []

    def is_bad(i):
        sha = commits[i]
        if judge.kind == "outcome":
            bad, what = judge.classify(ws.measure(sha, "outcome", 1))
        else:
            bad, what = judge.classify(ws.measure(sha, "bench", repetitions))
            if bad is None:
                log("%s: %s; measuring again with %d repetitions" % (sha[:12], what, 2 * repetitions))
                bad, what = judge.classify(ws.measure(sha, "bench", 2 * repetitions), last_try=True)
        tried.append((i, "bad" if bad else "good", what))
        log("%s: %s: %s" % (subject(ws.repo, sha), "BAD" if bad else "good", what))
        return bad

    first, seen = bisectsearch.first_bad(len(commits), is_bad, log)
    tried += [(i, "untestable", "") for i, v in seen.items() if v == "untestable"]
    return judge, first, sorted(tried)


def main(argv=None):
    ap = data.arg_parser("bisect-commit", __doc__)
    ap.add_argument("good", metavar="GOOD", help="a commit where the pipeline was fine (older)")
    ap.add_argument("bad", metavar="BAD", help="a commit where it is slower or its outcome changed (newer)")
    ap.add_argument("--pipeline", required=True, help="the pipeline (one name)")
    ap.add_argument("--profile", required=True, help="the profile (one name)")
    ap.add_argument("--case", help="only this case (run) / case or size (bench); default all")
    ap.add_argument(
        "--mode",
        choices=("auto", "outcome", "bench"),
        default="auto",
        help="what to follow: auto (the outcome when GOOD's and BAD's differ, else the speed; default)",
    )
    ap.add_argument("--repetitions", type=toolmain.whole(5, 1000), default=9, help="benchmark samples (default 9)")
    ap.add_argument("--min-time", type=toolmain.real(0, 3600), default=0.05, help="seconds per sample (default 0.05)")
    ap.add_argument("--alpha", type=toolmain.real(0, 1), default=compare.DEFAULT_ALPHA)
    ap.add_argument("--min-effect", type=toolmain.real(0, 1000), default=compare.DEFAULT_MIN_EFFECT)
    ap.add_argument(
        "--source-dir",
        default=paths.project_dir(),
        help="the CMake project (its directory in the repository; default %(default)s)",
    )
    ap.add_argument(
        "--build-dir",
        default=os.path.dirname(os.path.abspath(paths.bin_dir())),
        help="the build whose CMake cache the commits' builds reuse (default %(default)s)",
    )
    ap.add_argument("--cmake-arg", action="append", default=[], help="one more configure argument (repeatable)")
    ap.add_argument("--golden-dir", help="goldens for every commit (default: each commit's own)")
    ap.add_argument("--work", default=paths.out_dir("bisect-commit"), help="worktrees and builds (default %(default)s)")
    ap.add_argument("--keep", action="store_true", help="keep the worktrees and builds")
    ap.add_argument("--json", help="also write the result as JSON to this file")
    args = ap.parse_args(argv)
    toolmain.handle_signals()
    src = os.path.abspath(args.source_dir)
    if not os.path.isdir(src):
        raise data.InputError("--source-dir %s is not a directory; pass the CMake project's directory" % src)
    repo = git(src, "rev-parse", "--show-toplevel")
    sub = os.path.relpath(os.path.realpath(src), os.path.realpath(repo))
    commits = commit_list(repo, args.good, args.bad)
    log(
        "%d commit(s) from %s to %s in %s; pipeline %s on %s"
        % (len(commits) - 1, commits[0][:12], commits[-1][:12], repo, args.pipeline, args.profile)
    )
    t0 = time.time()
    ws = Workspace(args, repo, sub)
    try:
        judge, first, tried = bisect(ws, commits, args.mode, args.repetitions, args.alpha, args.min_effect)
    finally:
        ws.close()
    took = time.time() - t0
    result = {
        "good": commits[0],
        "bad": commits[-1],
        "pipeline": args.pipeline,
        "profile": args.profile,
        "kind": judge.kind,
        "ends": judge.describe_ends(),
        "seconds": round(took, 1),
        "tried": [{"commit": commits[i], "verdict": v, "what": w} for i, v, w in tried],
    }
    if first is None:
        print(
            "bisect-commit: GOOD and BAD do not differ (%s); nothing to bisect"
            % (judge.describe_ends() or "no benchmark regressed")
        )
        code = 1
    else:
        what = next((w for i, v, w in tried if i == first), judge.describe_ends())
        result.update(first_bad=commits[first], first_bad_subject=subject(repo, commits[first]), first_bad_what=what)
        print(
            "first bad commit: %s\n  %s\n  %d commit(s) built and measured in %.0f s"
            % (subject(repo, commits[first]), what, len(ws.built), took)
        )
        for i, v, w in tried:
            print("  %-10s %s%s" % (v, subject(repo, commits[i]), (": " + w) if w and i != first else ""))
        code = 0
    if args.json:
        jsonio.write_atomic(args.json, json.dumps(result, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(toolmain.run("bisect-commit", main))
