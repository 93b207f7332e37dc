"""aot-harness run --jobs, --shard, --flake-retries and --baseline, through the binary.

  python3 -m harnesslib.testing.scale_cli_test --harness build/bin/aot-harness

- --jobs 4 gives the records of --jobs 1 (same order, outcomes and messages), each console line with
  its [n/N elapsed] prefix, n = 1..N once each;
- --shard i/3: disjoint, together the whole selection, each test where the Python twin of the shard
  function (scripts/lava-job) puts it; scripts/merge joins them into the unsharded run;
- flakes through HARNESS_EXEC_WRAPPER (the child is started through a wrapper script): a child that
  crashes once and then passes is FLAKE (exit 0) with the crash kept under metrics.flake, or CRASH with
  --flake-retries 0; one that always crashes is CRASH after its retry;
- a baseline written by one run and taken back by the next: the same crash is XFAIL (exit 0, not re-run),
  a pass of a listed failure XPASS, a listed flake that fails FLAKE; history and compare keep FLAKE.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from . import fixtures as fx
from ..lava import lavajob

HARNESS = None
SELECT = ["--pipeline", "blur3x3", "--profile", "cpu"]
ONE = ["--pipeline", "blur3x3", "--profile", "cpu", "--case", "small"]

CRASH_ONCE = """#!/bin/sh
# the first child run crashes (SIGSEGV before any record), every later one runs normally
if [ ! -e "%(state)s" ]; then : > "%(state)s"; kill -SEGV $$; fi
exec "$@"
"""
CRASH_ALWAYS = """#!/bin/sh
kill -SEGV $$
"""


def run(*args, env=None):
    return subprocess.run(
        [HARNESS, "run"] + list(args), capture_output=True, text=True, timeout=600, env=dict(os.environ, **(env or {}))
    )


def records(path):
    with open(path) as f:
        return json.load(f)["runs"]


def ident(r):
    return (r["pipeline"], r["profile"], r["case"], r.get("mode", "host"))


class ScaleCli(unittest.TestCase):
    def setUp(self):
        self.tmpdir = tempfile.TemporaryDirectory()
        self.tmp = self.tmpdir.name

    def tearDown(self):
        self.tmpdir.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def wrapper(self, text, name):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(text % {"state": self.path(name + ".state")})
        os.chmod(p, 0o755)
        return {"HARNESS_EXEC_WRAPPER": p}

    def test_jobs_give_the_sequential_records(self):
        a = run(*SELECT, "--jobs", "1", "--json", self.path("a.json"))
        b = run(*SELECT, "--jobs", "4", "--json", self.path("b.json"))
        self.assertEqual(a.returncode, b.returncode, b.stderr)
        ra, rb = records(self.path("a.json")), records(self.path("b.json"))
        self.assertGreater(len(ra), 2)
        self.assertEqual(
            [ident(r) + (r["outcome"], r["message"]) for r in ra], [ident(r) + (r["outcome"], r["message"]) for r in rb]
        )
        lines = [l for l in b.stdout.splitlines() if l.startswith("[")]
        self.assertEqual(len(lines), len(rb), b.stdout)
        n = [int(re.match(r"\[\s*(\d+)/(\d+)\s+[0-9.ms]+\]", l).group(1)) for l in lines]
        self.assertEqual(sorted(n), list(range(1, len(rb) + 1)))
        self.assertTrue(all("/%d " % len(rb) in l for l in lines))

    def test_shards_partition_the_selection(self):
        full = run(*SELECT, "--json", self.path("full.json"))
        want = sorted(ident(r) for r in records(self.path("full.json")))
        seen, paths = [], []
        for i in (1, 2, 3):
            p = self.path("s%d.json" % i)
            r = run(*SELECT, "--shard", "%d/3" % i, "--json", p)
            self.assertIn(r.returncode, (0, 1, 77, full.returncode), r.stderr)
            for x in records(p):
                self.assertEqual(lavajob.shard_of("%s/%s/%s" % ident(x)[:3], 3), i, x)
                seen.append(ident(x))
            with open(p) as f:
                self.assertEqual(json.load(f)["environment"]["shard"], "%d/3" % i)
            paths.append(p)
        self.assertEqual(sorted(seen), want)  # disjoint and complete
        m = fx.run_script("merge", *paths, "--out", self.path("merged.json"))
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertEqual(sorted(ident(r) for r in records(self.path("merged.json"))), want)
        bad = run(*SELECT, "--shard", "4/3")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--shard", bad.stderr)

    def test_a_crash_that_passes_on_retry_is_flake(self):
        r = run(*ONE, "--json", self.path("f.json"), env=self.wrapper(CRASH_ONCE, "once"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        (rec,) = records(self.path("f.json"))
        self.assertEqual(rec["outcome"], "FLAKE")
        self.assertEqual(rec["metrics"]["flake"]["failed"][0]["outcome"], "CRASH")
        self.assertIn("FLAKE", r.stdout)
        with open(self.path("f.json")) as f:
            self.assertEqual(json.load(f)["summary"].get("FLAKE"), 1)
        r = run(*ONE, "--flake-retries", "0", "--json", self.path("g.json"), env=self.wrapper(CRASH_ONCE, "once0"))
        self.assertEqual(r.returncode, 3)
        self.assertEqual(records(self.path("g.json"))[0]["outcome"], "CRASH")
        r = run(*ONE, "--json", self.path("h.json"), env=self.wrapper(CRASH_ALWAYS, "always"))
        self.assertEqual(r.returncode, 3)
        (rec,) = records(self.path("h.json"))
        self.assertEqual(rec["outcome"], "CRASH")
        self.assertIn("1 retry: CRASH", rec["message"])
        # history and compare keep FLAKE apart from PASS
        db = self.path("h.sqlite")
        p = run(*ONE, "--json", self.path("p.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        for res in ("p.json", "f.json"):
            self.assertEqual(fx.run_script("history", "ingest", "--db", db, "--results", self.path(res)).returncode, 0)
        c = fx.run_script("compare", "1", "2", "--db", db, "--json")
        flips = json.loads(c.stdout)["tests"]["flips"]
        self.assertEqual([(f["base"], f["cand"]) for f in flips], [("PASS", "FLAKE")])
        out = self.path("dash")
        d = fx.run_script("dashboard", "--db", db, "--out", out, "--golden-dir", os.path.join(fx.ROOT, "golden"))
        self.assertEqual(d.returncode, 0, d.stderr)
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("1 FLAKE", page)  # the runs table's outcome counts
        from .. import data

        self.assertIn(data.COLOURS["FLAKE"][0], page)  # the outcome table's FLAKE colour on its badge

    def test_a_baseline_lets_only_new_failures_fail(self):
        crash = self.wrapper(CRASH_ALWAYS, "always")
        r = run(*ONE, "--baseline-out", self.path("b.json"), env=crash)
        self.assertEqual(r.returncode, 3)
        with open(self.path("b.json")) as f:
            b = json.load(f)
        self.assertEqual(b["failures"], {"blur3x3/cpu/small/host": "CRASH"})
        r = run(*ONE, "--baseline", self.path("b.json"), "--json", self.path("x.json"), env=crash)
        self.assertEqual(r.returncode, 0, r.stdout)
        (rec,) = records(self.path("x.json"))
        self.assertEqual((rec["outcome"], rec["result_outcome"]), ("XFAIL", "CRASH"))
        self.assertNotIn("flake", rec["metrics"])  # an expected failure is not re-run
        r = run(*ONE, "--baseline", self.path("b.json"), "--json", self.path("y.json"))
        self.assertEqual(records(self.path("y.json"))[0]["outcome"], "XPASS")
        r = run(*SELECT, "--baseline", self.path("b.json"), "--json", self.path("z.json"), env=crash)
        others = [x for x in records(self.path("z.json")) if x["case"] != "small"]
        self.assertTrue(others and all(x["outcome"] == "CRASH" for x in others))  # new failures still fail
        self.assertEqual(r.returncode, 3)
        # a flake goes into the baseline; the next time it fails outright it is FLAKE, not a failure
        r = run(*ONE, "--baseline-out", self.path("fb.json"), env=self.wrapper(CRASH_ONCE, "once"))
        with open(self.path("fb.json")) as f:
            self.assertEqual(json.load(f)["flakes"], ["blur3x3/cpu/small/host"])
        r = run(*ONE, "--baseline", self.path("fb.json"), "--json", self.path("w.json"), env=crash)
        self.assertEqual(r.returncode, 0)
        self.assertEqual(records(self.path("w.json"))[0]["outcome"], "FLAKE")
        bad = run(*ONE, "--baseline", self.path("nope.json"))
        self.assertEqual(bad.returncode, 2)
        self.assertEqual(len(bad.stderr.strip().splitlines()), 1, bad.stderr)


def main():
    global HARNESS
    if "--harness" not in sys.argv:
        print("usage: python3 -m harnesslib.testing.scale_cli_test --harness build/bin/aot-harness", file=sys.stderr)
        return 2
    i = sys.argv.index("--harness")
    HARNESS = os.path.abspath(sys.argv[i + 1])
    argv = [sys.argv[0]] + sys.argv[1:i] + sys.argv[i + 2 :]
    return 0 if unittest.main(argv=argv + ["-v"], exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
