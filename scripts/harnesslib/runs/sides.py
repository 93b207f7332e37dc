"""One side of a comparison from a command-line spec: a run of the history or files (data.py's side dict).
data.py reads files and knows nothing of the history; history.py stores runs; this module is the only one that
knows both (no import cycle): it reads a run of the history back as a side."""

import os

from . import machine
from .. import data
from ..history import history


def load_side(spec, db=None):
    """A run id in the history `db` (digits, or 'latest', 'latest~N'), a directory holding results.json
    and/or bench.json, or files joined with ',' (each a results or bench JSON)."""
    if db is not None and (spec.isdigit() or spec.startswith("latest")) and not os.path.exists(spec):
        return run_side(db, spec)
    return data.load_files_side(spec)


def machine_blocks(con, run_id):
    """{block: what the machine did} of run `run_id` (its bench contexts' machine.<block>, machine.py)."""
    rows = con.execute(
        "SELECT key, value FROM environment WHERE run_id=? AND source='bench' AND key LIKE 'machine.%'", (run_id,)
    ).fetchall()
    try:
        return machine.blocks_of({r[0]: r[1] for r in rows})
    except data.InputError as e:
        raise data.InputError("run %d of the history: %s" % (run_id, e))


def run_side(db_path, spec):
    """A comparison side (see data.py) from run `spec` of the history at `db_path`."""
    if not history.exists(db_path):
        raise data.InputError("no history at %s; run scripts/nightly or scripts/history ingest first" % db_path)
    con = history.connect(db_path)
    run_id = history.resolve_run(con, spec)
    run = con.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
    side = data.empty_side("run %d (%s, %s)" % (run_id, (run["git_commit"] or "?")[:10], run["started"]))
    side["run"] = dict(run)
    for row in con.execute("SELECT id, record_json FROM tests WHERE run_id=? ORDER BY id", (run_id,)):
        rec = history.record_of(db_path, run_id, row[0], row[1])
        side["tests"][data.test_key(rec)] = rec
        side["has_results"] = True
    side["machine"] = machine_blocks(con, run_id)
    for b in con.execute("SELECT * FROM benchmarks WHERE run_id=? ORDER BY id", (run_id,)).fetchall():
        side["has_bench"] = True
        side["bench"][b["name"]] = {
            "pipeline": b["pipeline"],
            "profile": b["profile"],
            "case": b["case_name"],
            "mode": b["mode"],
            "label": b["label"],
            "driver": b["driver"],
            "error": b["error"],
            "samples": [
                dict(s)
                for s in con.execute(
                    "SELECT rep, real_time_ms, cpu_time_ms, iterations, pixels_per_second, bytes_per_second"
                    " FROM samples WHERE benchmark_id=? ORDER BY rep",
                    (b["id"],),
                )
            ],
        }
    con.close()
    return side
