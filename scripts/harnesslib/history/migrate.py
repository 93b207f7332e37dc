"""The copy behind `scripts/history migrate --from SRC --db DST` (history.migrate): every run of one history into another, e.g. the SQLite file
of one runner into the shared PostgreSQL history (or back). Rows get new ids in DST; each copied run is given
the run_key 'migrated:<source>:<id>' unless it has one, so a second migrate of the same source copies nothing
twice. Each run is one transaction: an interrupted migrate keeps the runs it finished.
"""

import os

from . import db, ingest

RUN_COLS = ("started", "finished", "git_commit", "host", "label", "status", "note")
TEST_COLS = ingest.TEST_COLS[1:]  # all but the first, run_id
BENCH_COLS = ("name", "pipeline", "profile", "case_name", "mode", "label", "driver", "error")
SAMPLE_COLS = ("rep", "real_time_ms", "cpu_time_ms", "iterations", "pixels_per_second", "bytes_per_second")


def source_name(target):
    return db.redact(target) if db.is_url(target) else os.path.realpath(target)


def copy_run(src, dst, run, key):
    """Copies run `run` (a row of src) into dst as one transaction; returns the new id, or None if dst
    already has a run of that key."""
    sid = run["id"]
    with dst:
        rid = dst.insert(
            "INSERT INTO runs(%s, run_key) VALUES(%s) ON CONFLICT DO NOTHING"
            % (", ".join(RUN_COLS), ",".join("?" * (len(RUN_COLS) + 1))),
            [run[c] for c in RUN_COLS] + [key],
        )
        if rid is None:
            return None
        dst.executemany(
            "INSERT INTO environment VALUES(?,?,?,?) ON CONFLICT DO NOTHING",
            [
                (rid, r[0], r[1], r[2])
                for r in src.execute("SELECT source, key, value FROM environment WHERE run_id=?", (sid,))
            ],
        )
        metrics = []
        for t in src.execute(
            "SELECT id, %s FROM tests WHERE run_id=? ORDER BY id" % ", ".join(TEST_COLS), (sid,)
        ).fetchall():
            tid = dst.insert(
                "INSERT INTO tests(run_id, %s) VALUES(?,%s) ON CONFLICT DO NOTHING"
                % (", ".join(TEST_COLS), ",".join("?" * len(TEST_COLS))),
                [rid] + [t[c] for c in TEST_COLS],
            )
            if tid is not None:
                metrics += [
                    (tid, m[0], m[1])
                    for m in src.execute("SELECT name, value FROM metrics WHERE test_id=?", (t["id"],))
                ]
        dst.executemany("INSERT INTO metrics VALUES(?,?,?)", metrics)
        samples = []
        for b in src.execute(
            "SELECT id, %s FROM benchmarks WHERE run_id=? ORDER BY id" % ", ".join(BENCH_COLS), (sid,)
        ).fetchall():
            bid = dst.insert(
                "INSERT INTO benchmarks(run_id, %s) VALUES(?,%s) ON CONFLICT DO NOTHING"
                % (", ".join(BENCH_COLS), ",".join("?" * len(BENCH_COLS))),
                [rid] + [b[c] for c in BENCH_COLS],
            )
            if bid is not None:
                samples += [
                    (bid,) + tuple(s)
                    for s in src.execute(
                        "SELECT %s FROM samples WHERE benchmark_id=? ORDER BY rep" % ", ".join(SAMPLE_COLS), (b["id"],)
                    )
                ]
        dst.executemany("INSERT INTO samples VALUES(?,?,?,?,?,?,?)", samples)
        dst.executemany(
            "INSERT INTO ingested VALUES(?,?,?,?)",
            [
                (rid, r[0], r[1], r[2])
                for r in src.execute("SELECT kind, path, time FROM ingested WHERE run_id=?", (sid,))
            ],
        )
    return rid


def copy_all(src, dst, name, log=None):
    """Copies every run of connection `src` into `dst` (both with the history's schema: history.connect);
    `name` identifies the source in the run keys. Returns (copied, already there)."""
    copied = skipped = 0
    for run in src.execute("SELECT * FROM runs ORDER BY id").fetchall():
        key = run["run_key"] or "migrated:%s:%d" % (name, run["id"])
        rid = copy_run(src, dst, run, key)
        if rid is None:
            skipped += 1
        else:
            copied += 1
            if log:
                log("run %d -> %d" % (run["id"], rid))
    return copied, skipped
