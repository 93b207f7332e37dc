"""scripts/flake-check: run the precommit tests N times and report every test whose outcome varied.

Each run is `ctest --preset default -L precommit --output-junit <run-i.xml>` (extra arguments after `--`
go to ctest). A test is a flake when it did not have the same outcome (passed / failed / skipped /
not run) in every run; a test that failed in every run is reported too, as a steady failure, not a
flake. Writes <out>/flake-check.json and prints one line per flaky or failing test.
Exit: 0 no flakes and no failures, 1 flakes or steady failures, 2 bad usage or ctest could not run."""

import json
import os
import subprocess
import sys
import time

from harnesslib.devices.junitxml import read_junit

from .. import jsonio, toolmain


def parse_junit(path):
    """{test name: outcome} from one CTest JUnit file; outcome is passed, failed or skipped (junitxml.read_junit)."""
    return {name: status.lower() for name, status, _, _ in read_junit(path)}


def classify(runs):
    """runs: list of {test: outcome}. Returns (flaky, steady_failures): flaky maps test -> {outcome:
    count}, a test missing from a run counts as 'missing'; steady_failures lists tests failed every time."""
    names = sorted(set().union(*runs)) if runs else []
    flaky, steady = {}, []
    for name in names:
        seen = [r.get(name, "missing") for r in runs]
        counts = {o: seen.count(o) for o in sorted(set(seen))}
        if len(counts) > 1:
            flaky[name] = counts
        elif seen and seen[0] == "failed":
            steady.append(name)
    return flaky, steady


def main(argv=None):
    p = toolmain.ArgumentParser(prog="flake-check", description=__doc__.splitlines()[0])
    p.add_argument("runs", type=toolmain.whole(1, 100000), help="how many times to run the precommit set (e.g. 20)")
    p.add_argument("--out", default="out/flake-check", help="where the JUnit files and the JSON go")
    p.add_argument(
        "--labels", default="precommit|unit", help="ctest -L regex (default precommit|unit, what scripts/test runs)"
    )
    p.add_argument(
        "--jobs", type=toolmain.whole(1, 1024), default=os.cpu_count() or 2, help="ctest -j (default: all cores)"
    )
    p.add_argument("ctest_args", nargs="*", help="extra ctest arguments (after --)")
    a = p.parse_args(argv)
    if a.runs < 1:
        print(f"flake-check: runs must be at least 1, got {a.runs}; e.g. scripts/flake-check 20", file=sys.stderr)
        return 2
    try:
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:
        print(f"flake-check: cannot create --out {a.out} ({e.strerror}); pass a writable directory", file=sys.stderr)
        return 2
    runs, seconds = [], []
    for i in range(1, a.runs + 1):
        junit = os.path.join(a.out, f"run-{i}.xml")
        cmd = [
            "ctest",
            "--preset",
            "default",
            "-L",
            a.labels,
            "-j",
            str(a.jobs),
            "--output-junit",
            os.path.abspath(junit),
        ] + a.ctest_args
        t0 = time.time()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seconds.append(round(time.time() - t0, 1))
        if not os.path.exists(junit):
            print(proc.stdout[-2000:])
            print(
                f"flake-check: run {i}: ctest wrote no {junit} (exit {proc.returncode}); build first with scripts/test",
                file=sys.stderr,
            )
            return 2
        runs.append(parse_junit(junit))
        failed = [t for t, o in runs[-1].items() if o == "failed"]
        print(
            f"run {i}/{a.runs}: {len(runs[-1])} tests, {len(failed)} failed, {seconds[-1]} s"
            + (f" ({', '.join(failed[:5])})" if failed else ""),
            flush=True,
        )
    flaky, steady = classify(runs)
    summary = {
        "runs": a.runs,
        "labels": a.labels,
        "tests": len(set().union(*runs)),
        "seconds_per_run": seconds,
        "flaky": flaky,
        "steady_failures": steady,
    }
    jsonio.write_atomic(os.path.join(a.out, "flake-check.json"), json.dumps(summary, indent=2))
    for name, counts in flaky.items():
        print(f"FLAKY {name}: " + ", ".join(f"{o} {n}x" for o, n in counts.items()))
    for name in steady:
        print(f"FAILING {name}: failed in all {a.runs} runs")
    print(f"flake-check: {summary['tests']} tests x {a.runs} runs: {len(flaky)} flaky, {len(steady)} failing every run")
    return 1 if flaky or steady else 0


if __name__ == "__main__":
    sys.exit(toolmain.run("flake-check", main))
