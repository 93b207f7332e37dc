"""The shared history under load: 8 processes ingest the shards of 8 devices into one database at once, each
process one shard of every device plus a retried shard; then every row is checked (nothing lost, nothing
doubled) and compare and the dashboard read it back. Also: SQLite -> PostgreSQL migration (twice: the second
copies nothing) and an old SQLite history gaining run_key.

Usage: python3 -m harnesslib.history.history_pg_test [postgresql|sqlite]   (default both; PostgreSQL on a throwaway
server from pgserver.py; exit 77 only when PostgreSQL or python3-psycopg2 is not installed)."""

import copy
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

from . import db, history, ingest, pgserver
from .. import data
from ..testing import fixtures as fx
from ..runs import sides

DEVICES, SHARDS = 8, 8


def device_docs(dev):
    """The PoCL fixture as device `dev` would report it: its own host, durations and throughputs, so that a
    row in the wrong run, or twice, is seen."""
    res, bench = copy.deepcopy(fx.load("pocl", "results.json")), copy.deepcopy(fx.load("pocl", "bench.json"))
    res["environment"]["device_name"] = "board%d" % dev
    for i, r in enumerate(res["runs"]):
        r["duration_ms"] = dev * 1000.0 + i
    for b in bench["benchmarks"]:
        b["real_time"] *= 1.0 + dev / 100.0
    return res, bench


def shard_docs(res, bench, n):
    """Splits one device's results and benchmarks into n disjoint shards (by position)."""
    out = []
    names = sorted({data.parse_bench_name(b.get("run_name") or b["name"])[0] for b in bench["benchmarks"]})
    for i in range(n):
        r = dict(res, runs=[x for j, x in enumerate(res["runs"]) if j % n == i], summary={})
        mine = set(names[i::n])
        b = dict(
            bench,
            benchmarks=[
                x for x in bench["benchmarks"] if data.parse_bench_name(x.get("run_name") or x["name"])[0] in mine
            ],
        )
        out.append((r, b))
    return out


def worker(target, work, w):
    """Process `w`: shard w of every device, then shard (w+1) of device 0 again (a retry)."""
    jobs = [(dev, w) for dev in range(DEVICES)] + [(0, (w + 1) % SHARDS)]
    for dev, s in jobs:
        rc = history.main(
            [
                "ingest",
                "--db",
                target,
                "--run-key",
                "nightly-2026-11-24-board%d" % dev,
                "--host",
                "board%d" % dev,
                "--label",
                "nightly",
                "--commit",
                "c0ffee",
                "--time",
                "2026-11-24T02:00:00+00:00",
                "--results",
                os.path.join(work, "d%d-s%d-results.json" % (dev, s)),
                "--bench",
                os.path.join(work, "d%d-s%d-bench.json" % (dev, s)),
            ]
        )
        if rc != 0:
            return rc
    return 0


class SharedHistory(unittest.TestCase):
    target = None

    def test_concurrent_shards(self):
        with tempfile.TemporaryDirectory() as work:
            expect = {}
            for dev in range(DEVICES):
                res, bench = device_docs(dev)
                expect[dev] = (res, data.normalise_bench(bench)["bench"])
                fx.write(os.path.join(work, "d%d" % dev, "results.json"), res)
                fx.write(os.path.join(work, "d%d" % dev, "bench.json"), bench)
                for s, (r, b) in enumerate(shard_docs(res, bench, SHARDS)):
                    fx.write(os.path.join(work, "d%d-s%d-results.json" % (dev, s)), r)
                    fx.write(os.path.join(work, "d%d-s%d-bench.json" % (dev, s)), b)
            target = self.target if db.is_url(self.target) else os.path.join(work, "h.sqlite")
            env = dict(os.environ, PYTHONPATH=fx.SCRIPTS, PYTHONDONTWRITEBYTECODE="1")
            t0 = time.time()
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "harnesslib.history.history_pg_test", "--worker", target, work, str(w)],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                for w in range(SHARDS)
            ]
            errs = [(p.communicate(timeout=600)[1], p.returncode)[::-1] for p in procs]
            took = time.time() - t0
            for rc, err in errs:
                self.assertEqual(rc, 0, err[-2000:])
            ntests = sum(len(expect[d][0]["runs"]) for d in expect)
            print(
                "\n%s: %d processes ingested %d tests and %d benchmarks (%d shard files) in %.1f s"
                % (
                    "postgresql" if db.is_url(target) else "sqlite",
                    SHARDS,
                    ntests,
                    sum(len(expect[d][1]) for d in expect),
                    2 * (DEVICES * SHARDS + SHARDS),
                    took,
                ),
                file=sys.stderr,
            )
            con = history.connect(target)
            runs = con.execute("SELECT id, run_key, host, status FROM runs ORDER BY id").fetchall()
            self.assertEqual(
                sorted(r["run_key"] for r in runs), sorted("nightly-2026-11-24-board%d" % d for d in range(DEVICES))
            )
            for r in runs:
                dev = int(r["run_key"][-1])
                res, bench = expect[dev]
                self.assertEqual(r["host"], "board%d" % dev)
                rows = con.execute(
                    "SELECT pipeline, profile, case_name, mode, duration_ms FROM tests WHERE run_id=?", (r["id"],)
                ).fetchall()
                self.assertEqual(
                    sorted((x[0], x[1], x[2], x[3], x[4]) for x in rows),
                    sorted((t["pipeline"], t["profile"], t["case"], t["mode"], t["duration_ms"]) for t in res["runs"]),
                    "run of board%d" % dev,
                )
                nmetrics = sum(
                    len(
                        [
                            v
                            for _k, v in ingest.flatten(t.get("metrics") or {}, "", [])
                            if isinstance(v, (int, float)) and not isinstance(v, bool)
                        ]
                    )
                    for t in res["runs"]
                )
                self.assertEqual(
                    con.execute(
                        "SELECT COUNT(*) FROM metrics m JOIN tests t ON t.id=m.test_id WHERE t.run_id=?", (r["id"],)
                    ).fetchone()[0],
                    nmetrics,
                )
                self.assertEqual(
                    sorted(x[0] for x in con.execute("SELECT name FROM benchmarks WHERE run_id=?", (r["id"],))),
                    sorted(bench),
                )
                self.assertEqual(
                    con.execute(
                        "SELECT COUNT(*) FROM samples s JOIN benchmarks b ON b.id=s.benchmark_id WHERE b.run_id=?",
                        (r["id"],),
                    ).fetchone()[0],
                    sum(len(b["samples"]) for b in bench.values()),
                )
                dup = con.execute(
                    "SELECT COUNT(*) FROM (SELECT source, key FROM environment WHERE run_id=? "
                    "GROUP BY source, key HAVING COUNT(*) > 1) x",
                    (r["id"],),
                ).fetchone()[0]
                self.assertEqual(dup, 0)
            con.close()
            # compare reads a run back: the same as the device's unsharded files
            ids = {int(r["run_key"][-1]): r["id"] for r in runs}
            c = fx.run_script("compare", str(ids[3]), os.path.join(work, "d3"), "--db", target, "--json")
            self.assertEqual(c.returncode, 0, c.stderr + c.stdout[-2000:])
            res = json.loads(c.stdout)
            self.assertEqual(
                (res["tests"]["flips"], res["tests"]["only_base"], res["tests"]["only_cand"]), ([], [], [])
            )
            self.assertEqual(len(res["bench"]["benchmarks"]), len(expect[3][1]))
            self.assertEqual((res["bench"]["only_base"], res["bench"]["only_cand"]), ([], []))
            # ... and board7's benchmarks are 7 % slower than board0's
            c = fx.run_script("compare", str(ids[0]), str(ids[7]), "--db", target, "--json")
            self.assertIn(c.returncode, (0, 1), c.stderr)
            changes = [b["change"] for b in json.loads(c.stdout)["bench"]["benchmarks"]]
            self.assertTrue(changes and all(abs(x - 0.07) < 1e-6 for x in changes), changes[:5])
            out = os.path.join(work, "dash")
            d = fx.run_script("dashboard", "--db", target, "--out", out)
            self.assertEqual(d.returncode, 0, d.stderr)
            with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
                page = f.read()
            for dev in range(DEVICES):
                self.assertIn("<td>#%d</td>" % ids[dev], page)
                self.assertIn("<td>board%d</td>" % dev, page)
            from collections import Counter

            c = Counter(t["outcome"] for t in expect[0][0]["runs"])
            cell = "<td>%s</td>" % ", ".join("%d %s" % (c[o], o) for o in sorted(c, key=data.severity))
            self.assertEqual(page.count(cell), DEVICES, cell)  # every run's outcome counts, none doubled
            counts = history.connect(target).execute("SELECT outcome, COUNT(*) FROM tests GROUP BY outcome").fetchall()
            self.assertEqual(sum(x[1] for x in counts), ntests)

    def test_nightly_and_driver_diff(self):
        from ..dashboard import dashboard_test
        from ..nightly import nightly

        with tempfile.TemporaryDirectory() as t:
            dashboard_test.write_fake_harness(t)
            target = self.target if db.is_url(self.target) else os.path.join(t, "h.sqlite")
            con = history.connect(target)
            before = con.execute("SELECT COALESCE(MAX(id), 0) FROM runs").fetchone()[0]
            args = [
                "--bin",
                t,
                "--db",
                target,
                "--out",
                os.path.join(t, "out"),
                "--dashboard",
                os.path.join(t, "dash"),
                "--label",
                "nightly-test",
            ]
            self.assertEqual(nightly.main(args), 2)  # its stand-in benchmarks crash after the cpu profile
            self.assertEqual(nightly.main(args), 2)
            runs = con.execute(
                "SELECT id, status, note FROM runs WHERE id > ? AND label='nightly-test' ORDER BY id", (before,)
            ).fetchall()
            self.assertEqual([r[1] for r in runs], ["failed", "failed"])
            for r in runs:
                self.assertEqual(con.execute("SELECT COUNT(*) FROM tests WHERE run_id=?", (r[0],)).fetchone()[0], 20)
            self.assertTrue(os.path.exists(os.path.join(t, "dash", "index.html")))
            d = fx.run_script(
                "driver-diff", str(runs[0][0]), str(runs[1][0]), "--db", target, "--out", os.path.join(t, "dd")
            )
            self.assertEqual(d.returncode, 0, d.stderr + d.stdout)
            self.assertIn("SAFE", d.stdout)
            con.close()

    def test_integer_beyond_int64(self):
        """A results or bench file with an integer above 2^63 is one line naming the file and the field, exit 2,
        and adds no run (none left 'running'): SQLite cannot bind it; PostgreSQL would store it rounded."""
        with tempfile.TemporaryDirectory() as work:
            res, bench = copy.deepcopy(fx.load("pocl", "results.json")), copy.deepcopy(fx.load("pocl", "bench.json"))
            res["runs"][2]["duration_ms"] = 2**64
            bench["benchmarks"][3]["pixels_per_second"] = 2**63
            r, b = (
                fx.write(os.path.join(work, "big-results.json"), res),
                fx.write(os.path.join(work, "big-bench.json"), bench),
            )
            target = self.target if db.is_url(self.target) else os.path.join(work, "h.sqlite")
            before = history.connect(target).execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            for flag, path, field in (
                ("--results", r, r"runs\[2\]\.duration_ms"),
                ("--bench", b, r"benchmarks\[3\]\.pixels_per_second"),
            ):
                c = fx.run_script("history", "ingest", "--db", target, flag, path)
                self.assertEqual(c.returncode, 2, c.stderr)
                self.assertEqual(len(c.stderr.strip().splitlines()), 1, c.stderr)
                self.assertRegex(
                    c.stderr,
                    r"^history: .*%s: %s: is \d+, an integer beyond 2\^63"
                    % (os.path.basename(path).replace(".", r"\."), field),
                )
            con = history.connect(target)
            self.assertEqual(con.execute("SELECT COUNT(*) FROM runs").fetchone()[0], before)
            self.assertEqual(con.execute("SELECT COUNT(*) FROM runs WHERE status='running'").fetchone()[0], 0)
            con.close()

    def test_migrate_sqlite(self):
        with tempfile.TemporaryDirectory() as work:
            src = os.path.join(work, "old.sqlite")
            fx.build_history(src, work)
            dst = self.target if db.is_url(self.target) else os.path.join(work, "new.sqlite")
            before = history.connect(dst).execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            self.assertEqual(history.migrate(src, dst), (5, 0))
            self.assertEqual(history.migrate(src, dst), (0, 5))  # nothing twice
            s, d = history.connect(src), history.connect(dst)
            new_ids = [r[0] for r in d.execute("SELECT id FROM runs ORDER BY id").fetchall()][before:]
            self.assertEqual(len(new_ids), 5)
            for old, new in zip([1, 2, 3, 4, 5], new_ids):
                a, b = sides.run_side(src, str(old)), sides.run_side(dst, str(new))
                self.assertEqual(a["tests"], b["tests"])
                self.assertEqual(a["bench"], b["bench"])
                for table, q in (
                    ("environment", "SELECT source, key, value FROM environment WHERE run_id=?"),
                    (
                        "metrics",
                        "SELECT t.pipeline, t.profile, t.case_name, m.name, m.value FROM metrics m"
                        " JOIN tests t ON t.id=m.test_id WHERE t.run_id=?",
                    ),
                ):
                    self.assertEqual(
                        sorted(map(tuple, s.execute(q, (old,)).fetchall())),
                        sorted(map(tuple, d.execute(q, (new,)).fetchall())),
                        table,
                    )

    def test_old_sqlite_history_gains_run_key(self):
        with tempfile.TemporaryDirectory() as work:
            p = os.path.join(work, "old.sqlite")
            con = sqlite3.connect(p)
            con.executescript(
                "CREATE TABLE runs(id INTEGER PRIMARY KEY, started TEXT, finished TEXT, git_commit TEXT,"
                " host TEXT, label TEXT, status TEXT, note TEXT);"
                "CREATE TABLE environment(run_id INTEGER, source TEXT, key TEXT, value TEXT);"
                "INSERT INTO runs(id, status) VALUES(1, 'complete');"
                "INSERT INTO environment VALUES(1, 'results', 'k', 'v'), (1, 'results', 'k', 'v');"
            )
            con.commit()
            con.close()
            h = history.connect(p)
            self.assertIn("run_key", [r[1] for r in h.execute("PRAGMA table_info(runs)")])
            self.assertEqual(h.execute("SELECT COUNT(*) FROM environment").fetchone()[0], 1)
            self.assertEqual(history.create_run(h, run_key="k1"), history.create_run(h, run_key="k1"))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        return worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    which = sys.argv[1:] or ["postgresql", "sqlite"]
    rc = 0
    for kind in which:
        if kind == "postgresql":
            why = pgserver.available()
            if why:
                print("SKIP postgresql: " + why, file=sys.stderr)
                if which == ["postgresql"]:
                    return 77
                continue
            with pgserver.Server() as url:
                SharedHistory.target = url
                ok = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful()
        else:
            SharedHistory.target = "sqlite"
            ok = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful()
        rc = rc or (0 if ok else 1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
