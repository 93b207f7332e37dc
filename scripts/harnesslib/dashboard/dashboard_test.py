"""Builds a history from the recorded fixtures and renders the dashboard; runs the nightly driver against
stand-in binaries whose benchmarks die midway. Usage: python3 -m harnesslib.dashboard.dashboard_test [-v]"""

import json
import os
import sqlite3
import stat
import sys
import tempfile
import unittest

from . import dashboard
from ..testing import fixtures as fx
from ..nightly import nightly


class Dashboard(unittest.TestCase):
    def test_render_from_fixture_history(self):
        with tempfile.TemporaryDirectory() as t:
            db = os.path.join(t, "h.sqlite")
            self.assertEqual(fx.build_history(db, t), [1, 2, 3, 4, 5])
            out = os.path.join(t, "dash")
            r = fx.run_script("dashboard", "--db", db, "--out", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(out, "index.html")) as f:
                page = f.read()
            self.assertTrue(os.path.getsize(os.path.join(out, "chart.min.js")) > 100000)
            top = page.index("<h2>Regressions</h2>")
            self.assertLess(top, page.index("<h2>Outcomes"))
            self.assertIn("1 outcome(s) got worse, 1 benchmark(s) significantly slower", page)
            self.assertIn(fx.SLOW_BENCH, page[top : page.index("<h2>Outcomes")])
            specs = json.loads(page.split("<script id='chart-data' type='application/json'>")[1].split("</script>")[0])
            self.assertEqual(len(specs), 8)  # 2 pipelines x 4 runnable profiles
            ocl = [s for s in specs if s["title"] == "blur3x3 / opencl"][0]
            self.assertEqual([m["index"] for m in ocl["markers"]], [2, 3])  # PoCL -> oclgrind -> PoCL
            self.assertIn("Oclgrind 21.10", ocl["markers"][0]["text"])
            rec = "records/run5-blur3x3_opencl-mali_small_host.html"
            self.assertIn("href='%s'" % rec, page)
            with open(os.path.join(out, rec)) as f:
                rpage = f.read()
            for img in ("golden", "output", "diff"):
                self.assertIn("-output-%s.png" % img, rpage)
            self.assertTrue(
                os.path.exists(os.path.join(out, "records", "run5-blur3x3_opencl-mali_small_host-output-diff.png"))
            )

    def test_bands_and_only_significant_regressions_marked(self):
        with tempfile.TemporaryDirectory() as t:
            db = os.path.join(t, "h.sqlite")
            fx.build_history(db, t)
            index = dashboard.render(db, os.path.join(t, "dash"), fx.GOLDEN)
            with open(index) as f:
                page = f.read()
            specs = {
                s["title"]: s
                for s in json.loads(
                    page.split("<script id='chart-data' type='application/json'>")[1].split("</script>")[0]
                )
            }
            for s in specs.values():
                lines = [d for d in s["datasets"] if not d.get("band")]
                bands = {d["label"]: d for d in s["datasets"] if d.get("band")}
                self.assertEqual(len(bands), 2 * len(lines))
                for d in lines:
                    lo, hi = bands[d["label"] + " min"]["data"], bands[d["label"] + " max"]["data"]
                    for k, m in enumerate(d["data"]):
                        if m is not None:
                            self.assertLessEqual(lo[k], m)
                            self.assertLessEqual(m, hi[k])
                    self.assertEqual(bands[d["label"] + " min"]["fill"], "-1")
            # Run 3 (oclgrind: hundreds of times slower) and the planted 20 % slowdown in run 5 are significant;
            # the PoCL re-run (run 2, noise only) and the way back to PoCL (run 4, faster) are not.
            ocl = specs["blur3x3 / opencl"]
            resident = [d for d in ocl["datasets"] if d["label"] == "small/resident"][0]
            self.assertEqual([k for k, st in enumerate(resident["pointStyle"]) if st == "triangle"], [2, 4])
            for title in ("blur3x3 / cpu", "blur3x3 / host", "brighten / cpu"):
                self.assertEqual(specs[title]["regressions"], [], title)
            # One golden / output / diff set on the record page, labelled.
            rec = os.path.join(t, "dash", "records", "run5-blur3x3_opencl-mali_small_host.html")
            with open(rec) as f:
                rpage = f.read()
            self.assertEqual(rpage.count("<img "), 3)
            for kind in ("golden", "output", "diff"):
                self.assertIn("<figcaption>%s</figcaption>" % kind, rpage)

    def test_ingest_takes_the_run_time_from_the_files(self):
        with tempfile.TemporaryDirectory() as t:
            db = os.path.join(t, "h.sqlite")
            r = fx.run_script("history", "ingest", "--bench", fx.fixture("pocl", "bench.json"), "--db", db)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(
                sqlite3.connect(db).execute("SELECT started FROM runs").fetchone()[0], "2026-11-23T10:53:32+00:00"
            )  # the benchmark's context date, not now
            res = fx.write(os.path.join(t, "r.json"), fx.load("pocl", "results.json"))
            os.utime(res, (1700000000, 1700000000))
            r = fx.run_script("history", "ingest", "--results", res, "--db", db)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(
                sqlite3.connect(db).execute("SELECT started FROM runs WHERE id=2").fetchone()[0],
                "2023-11-14T22:13:20+00:00",
            )  # no start recorded: when the run wrote the file
            doc = fx.load("pocl", "results.json")
            doc["started"] = "2026-11-20T01:02:03+00:00"
            r = fx.run_script("history", "ingest", "--results", fx.write(os.path.join(t, "s.json"), doc), "--db", db)
            self.assertEqual(
                sqlite3.connect(db).execute("SELECT started FROM runs WHERE id=3").fetchone()[0],
                "2026-11-20T01:02:03+00:00",
            )

    def test_no_history_is_an_error(self):
        r = fx.run_script("dashboard", "--db", "/nonexistent/h.sqlite", "--out", "/tmp/x")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no history", r.stderr)


FAKE_HARNESS = """#!/bin/sh
# stand-in for aot-harness: 'list --json' and 'run --profile P --json F' from the PoCL fixture
exec "%(py)s" - "$@" <<'PY'
import json, sys
a = sys.argv[1:]
doc = json.load(open(%(res)r))
if a[0] == "list":
    profs = []
    for r in doc["runs"]:
        if r["profile"] not in [p["name"] for p in profs]:
            profs.append({"name": r["profile"], "runnable": r["outcome"] != "SKIP"})
    print(json.dumps({"pipelines": [{"name": "blur3x3", "profiles": profs}]}))
elif a[0] == "run":
    prof = a[a.index("--profile") + 1]
    doc["runs"] = [r for r in doc["runs"] if r["profile"] == prof]
    json.dump(doc, open(a[a.index("--json") + 1], "w"))
elif a[0] == "bench":  # the cpu profile's benchmarks work, then it crashes without output
    import os, shutil, signal
    if a[a.index("--profile") + 1] != "cpu":
        os.kill(os.getpid(), signal.SIGSEGV)
    shutil.copy(%(bench)r, a[a.index("--json") + 1])
PY
"""


def write_fake_harness(directory):
    """FAKE_HARNESS as `aot-harness` in `directory`, executable (for nightly --bin)."""
    p = os.path.join(directory, "aot-harness")
    with open(p, "w") as f:
        f.write(
            FAKE_HARNESS
            % {
                "py": sys.executable,
                "res": fx.fixture("pocl", "results.json"),
                "bench": fx.fixture("pocl", "bench.json"),
            }
        )
    os.chmod(p, os.stat(p).st_mode | stat.S_IEXEC)


class Nightly(unittest.TestCase):
    def test_failure_midway_keeps_what_finished(self):
        with tempfile.TemporaryDirectory() as t:
            write_fake_harness(t)
            db = os.path.join(t, "h.sqlite")
            rc = nightly.main(
                [
                    "--bin",
                    t,
                    "--db",
                    db,
                    "--out",
                    os.path.join(t, "out"),
                    "--dashboard",
                    os.path.join(t, "dash"),
                    "--notify-cmd",
                    "cat > '%s/notified.md'; echo \"$AOT_HARNESS_SUMMARY\" > '%s/path'" % (t, t),
                ]
            )
            self.assertEqual(rc, 2)
            # summary.md says what did not run, links the dashboard, and --notify-cmd got it on its stdin
            with open(os.path.join(t, "out", "summary.md")) as f:
                summary = f.read()
            self.assertIn("# Nightly run #1: first run: nothing to compare with", summary)
            self.assertIn("## Steps that did not run\n\n- benchmarks of host failed", summary)
            self.assertIn("Dashboard: [file://%s/dash/index.html]" % t, summary)
            with open(os.path.join(t, "notified.md")) as f:
                self.assertEqual(f.read(), summary)
            with open(os.path.join(t, "path")) as f:
                self.assertEqual(f.read().strip(), os.path.join(t, "out", "summary.md"))
            con = sqlite3.connect(db)
            status, note = con.execute("SELECT status, note FROM runs").fetchone()
            self.assertEqual(status, "failed")
            self.assertIn("benchmarks of host failed", note)
            self.assertEqual(con.execute("SELECT COUNT(*) FROM tests").fetchone()[0], 20)
            self.assertEqual(con.execute("SELECT COUNT(*) FROM ingested WHERE kind='bench'").fetchone()[0], 1)
            self.assertTrue(os.path.exists(os.path.join(t, "dash", "index.html")))

    def test_build_failure_is_recorded(self):
        with tempfile.TemporaryDirectory() as t:
            db = os.path.join(t, "h.sqlite")
            self.assertEqual(
                nightly.main(["--bin", t, "--db", db, "--out", t, "--build-status", "2", "--notify-cmd", "exit 3"]), 2
            )
            self.assertEqual(sqlite3.connect(db).execute("SELECT status FROM runs").fetchone()[0], "build-failed")
            with open(os.path.join(t, "summary.md")) as f:
                self.assertIn("- the build failed (exit 2)", f.read())


if __name__ == "__main__":
    unittest.main()
