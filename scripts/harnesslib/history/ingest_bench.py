"""Ingest rate of the history: DEVICES devices' nightly results (RECORDS tests each, built from the PoCL
fixture, plus its benchmarks) ingested by 1 process and by PROCS processes at once, into SQLite and into a
throwaway PostgreSQL server. Prints tests/s and rows/s (tests + metrics + environment + samples).
A measurement, not a test: python3 -m harnesslib.history.ingest_bench [--devices 8] [--records 600] [--procs 8]"""

import copy
import os
import subprocess
import sys
import tempfile
import time

from . import history, pgserver
from ..testing import fixtures as fx
from .. import toolmain


def device_doc(dev, records):
    base = fx.load("pocl", "results.json")
    res = copy.deepcopy(base)
    res["runs"] = []
    i = 0
    while len(res["runs"]) < records:
        for r in base["runs"]:
            x = copy.deepcopy(r)
            x["case"] = "%s-%d" % (r["case"], i)
            x["duration_ms"] = dev * 1000.0 + len(res["runs"])
            res["runs"].append(x)
        i += 1
    res["runs"] = res["runs"][:records]
    return res


def rows_of(target):
    con = history.connect(target)
    n = sum(
        con.execute("SELECT COUNT(*) FROM %s" % t).fetchone()[0]
        for t in ("tests", "metrics", "environment", "samples", "benchmarks")
    )
    tests = con.execute("SELECT COUNT(*) FROM tests").fetchone()[0]
    con.close()
    return tests, n


def ingest(target, files, procs):
    env = dict(os.environ, PYTHONPATH=fx.SCRIPTS, PYTHONDONTWRITEBYTECODE="1")
    t0 = time.time()
    chunks = [files[i::procs] for i in range(procs)]
    ps = []
    for c in chunks:
        cmd = "; ".join(
            "%s -m harnesslib.history.history ingest --db '%s' --run-key '%s' --results '%s' --bench '%s' >/dev/null"
            % (sys.executable, target, key, r, b)
            for key, r, b in c
        )
        ps.append(subprocess.Popen(["sh", "-ec", cmd], env=env))
    for p in ps:
        if p.wait() != 0:
            raise SystemExit("ingest failed")
    return time.time() - t0


def main():
    ap = toolmain.ArgumentParser(prog="ingest_bench")
    ap.add_argument("--devices", type=toolmain.whole(1, 1000), default=8)
    ap.add_argument("--records", type=toolmain.whole(1, 10000000), default=600)
    ap.add_argument("--procs", type=toolmain.whole(1, 1000), default=8)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        bench = fx.fixture("pocl", "bench.json")
        files = []
        for d in range(a.devices):
            p = fx.write(os.path.join(work, "d%d.json" % d), device_doc(d, a.records))
            files.append(("night-d%d" % d, p, bench))
        targets = [("sqlite", lambda: os.path.join(tempfile.mkdtemp(dir=work), "h.sqlite"))]
        server = None
        if not pgserver.available():
            server = pgserver.Server()
            url = server.__enter__()
            n = [0]

            def fresh_pg():
                n[0] += 1
                con = history.db.open_db(url)
                con.execute("CREATE DATABASE h%d" % n[0])
                con.close()
                return url.rsplit("/", 1)[0] + "/h%d" % n[0]

            targets.append(("postgresql", fresh_pg))
        try:
            for name, fresh in targets:
                for procs in (1, a.procs):
                    t = fresh()
                    history.connect(t).close()
                    secs = ingest(t, files, procs)
                    tests, rows = rows_of(t)
                    print(
                        "%-10s %d process(es): %d devices x %d tests in %.1f s: %.0f tests/s, %.0f rows/s (%d rows)"
                        % (name, procs, a.devices, a.records, secs, tests / secs, rows / secs, rows),
                        flush=True,
                    )
        finally:
            if server:
                server.__exit__(None, None, None)


if __name__ == "__main__":
    sys.exit(toolmain.run("ingest_bench", lambda argv: main() or 0))
