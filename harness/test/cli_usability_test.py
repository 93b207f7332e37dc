"""The CLI behaves like the tools people know: --version, `--json -` to stdout, comma lists and globs in
the filters (a typo is a one-line error), --junit FILE (well-formed, a named suite), and a pathological
--fail-on-output pattern rejected at once with one line.

Usage: python3 cli_usability_test.py AOT_HARNESS GOLDEN_DIR SCENARIO   (exit 0 pass, 1 fail)
"""

import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def run(exe, *args, timeout=120):
    return subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=timeout)


def check(cond, what, r=None):
    if not cond:
        detail = (
            ""
            if r is None
            else "\nexit %d\nstdout: %s\nstderr: %s" % (r.returncode, r.stdout[-3000:], r.stderr[-3000:])
        )
        raise AssertionError(what + detail)


def one_line_error(r, needle):
    check(r.returncode == 2, "expected exit 2", r)
    lines = r.stderr.strip().splitlines()
    check(
        len(lines) == 1 and lines[0].startswith("aot-harness: error: ") and needle in lines[0],
        "expected one error line with %r" % needle,
        r,
    )


def scenario(name, exe, golden):
    g = ["--golden-dir", golden]
    if name == "version":
        for flag in ("--version", "version"):
            r = run(exe, flag)
            check(r.returncode == 0, "exit 0", r)
            first = r.stdout.splitlines()[0]
            check(first.startswith("aot-harness ") and "(git " in first, "version and commit on the first line", r)
            commit = first.split("(git ")[1].rstrip(")")
            check(commit and commit != "", "a commit", r)
            check("Halide 21." in r.stdout, "the Halide version", r)
        r = run(exe, "env", "--json")
        env = json.loads(r.stdout)
        check(
            env.get("harness_git_commit") == commit and env.get("harness_version"), "env --json has the same commit", r
        )
    elif name == "json_stdout":
        r = run(exe, "run", "--pipeline", "brighten", "--profile", "cpu", "--case", "small", "--json", "-", *g)
        check(r.returncode == 0, "exit 0", r)
        doc = json.loads(r.stdout)  # stdout is the JSON and nothing else
        check([x["outcome"] for x in doc["runs"]] == ["PASS"], "one PASS run", r)
        check("PASS" in r.stderr and "1 runs: 1 PASS" in r.stderr, "the per-run lines and summary on stderr", r)
        check(doc["environment"].get("started", "").endswith("+00:00"), "the run's start time in the results", r)
        check(not os.path.exists("-"), "no file named '-'")
        # Every command whose --json is a flag prints its document on stdout, where scripts read it.
        for cmd in (
            ["list", "--json"],
            ["env", "--json"],
            ["machine", "--json"],
            ["outcomes", "--json"],
            ["describe", "brighten", "--json"],
        ):
            r = run(exe, *cmd)
            check(r.returncode == 0, "%s: exit 0" % " ".join(cmd), r)
            try:
                json.loads(r.stdout)
            except ValueError:
                check(False, "%s: stdout is not one JSON document" % " ".join(cmd), r)
    elif name == "filters":
        r = run(exe, "run", "--pipeline", "blur3x3,bri*", "--profile", "cpu,ho?t", "--case", "small", "--json", "-", *g)
        check(r.returncode == 0, "exit 0", r)
        got = sorted((x["pipeline"], x["profile"], x["case"]) for x in json.loads(r.stdout)["runs"])
        want = sorted((p, q, "small") for p in ("blur3x3", "brighten") for q in ("cpu", "host"))
        check(got == want, "comma lists and globs select %s, got %s" % (want, got), r)
        one_line_error(run(exe, "run", "--pipeline", "blur3x3,sobol*", *g), "--pipeline 'sobol*' matches no pipeline")
        one_line_error(run(exe, "run", "--pipeline", "blur3x3,", *g), "empty name")
        one_line_error(run(exe, "run", "--profile", "metal*", *g), "--profile 'metal*' matches no profile")
        one_line_error(run(exe, "run", "--pipeline", "brighten", "--case", "huge", *g), "unknown case 'huge'")
    elif name == "junit":
        with tempfile.TemporaryDirectory() as t:
            junit = os.path.join(t, "sub", "junit.xml")
            r = run(
                exe, "run", "--pipeline", "brighten", "--profile", "cpu,cuda", "--case", "small", "--junit", junit, *g
            )
            check(r.returncode in (0, 77), "exit 0 or 77 (cuda SKIPs here)", r)
            root = ET.parse(junit).getroot()  # well-formed
            check(root.tag == "testsuite" and root.get("name") == "aot-harness run", "a named suite", r)
            cases = root.findall("testcase")
            check(len(cases) == int(root.get("tests")) == 2, "two testcases", r)
            check({c.get("classname") for c in cases} == {"brighten.cpu", "brighten.cuda"}, "classnames", r)
            check(all(c.get("name") == "small/host" for c in cases), "names case/mode", r)
            one_line_error(run(exe, "run", "--junit", "/proc/nope/junit.xml", *g), "cannot write the JUnit file")
    elif name == "pathological_pattern":
        for pattern, needle in (("(((a{200}){200}){200})", "states"), ("(a)\\1", "back-reference")):
            r = run(exe, "run", "--pipeline", "brighten", "--fail-on-output", pattern, *g, timeout=20)
            one_line_error(r, needle)
    else:
        raise SystemExit("unknown scenario %s" % name)


def main():
    exe, golden, name = sys.argv[1:4]
    try:
        with tempfile.TemporaryDirectory() as cwd:
            os.chdir(cwd)  # a stray file named '-' would land here
            scenario(name, exe, golden)
    except (AssertionError, ValueError, subprocess.TimeoutExpired) as e:
        print("cli_usability %s: FAIL: %s" % (name, e))
        return 1
    print("cli_usability %s: PASS" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
