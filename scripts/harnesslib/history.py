"""SQLite history of nightly runs: what ran, on which commit, host and drivers, with every test outcome,
its metrics and every benchmark repetition.

Tables:
  runs(id, started, finished, git_commit, host, label, status, note)
  environment(run_id, source, key, value)         flattened environment (results and bench context);
                                                  OpenCL driver versions under opencl.platforms.N.devices.M.driver_version
  tests(id, run_id, pipeline, profile, case_name, mode, outcome, result_outcome, message, duration_ms,
        target, driver, record_json)              one row per test record (the full record as JSON)
  metrics(test_id, name, value)                   numeric metrics flattened, e.g. outputs.output.max_abs_error
  benchmarks(id, run_id, name, pipeline, profile, case_name, mode, label, driver, error)
  samples(benchmark_id, rep, real_time_ms, cpu_time_ms, iterations, pixels_per_second, bytes_per_second)
  ingested(run_id, kind, path, time)              which artifacts went in, when
Each ingest is one transaction, so a run that stops midway keeps everything ingested before.
"""
import datetime
import json
import os
import socket
import sqlite3
import subprocess

from . import data

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, started TEXT, finished TEXT, git_commit TEXT,
  host TEXT, label TEXT, status TEXT, note TEXT);
CREATE TABLE IF NOT EXISTS environment(run_id INTEGER REFERENCES runs(id), source TEXT, key TEXT, value TEXT);
CREATE TABLE IF NOT EXISTS tests(id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id), pipeline TEXT,
  profile TEXT, case_name TEXT, mode TEXT, outcome TEXT, result_outcome TEXT, message TEXT, duration_ms REAL,
  target TEXT, driver TEXT, record_json TEXT);
CREATE TABLE IF NOT EXISTS metrics(test_id INTEGER REFERENCES tests(id), name TEXT, value REAL);
CREATE TABLE IF NOT EXISTS benchmarks(id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id), name TEXT,
  pipeline TEXT, profile TEXT, case_name TEXT, mode TEXT, label TEXT, driver TEXT, error TEXT);
CREATE TABLE IF NOT EXISTS samples(benchmark_id INTEGER REFERENCES benchmarks(id), rep INTEGER,
  real_time_ms REAL, cpu_time_ms REAL, iterations INTEGER, pixels_per_second REAL, bytes_per_second REAL);
CREATE TABLE IF NOT EXISTS ingested(run_id INTEGER REFERENCES runs(id), kind TEXT, path TEXT, time TEXT);
CREATE INDEX IF NOT EXISTS tests_run ON tests(run_id);
CREATE INDEX IF NOT EXISTS bench_run ON benchmarks(run_id);
CREATE INDEX IF NOT EXISTS samples_bench ON samples(benchmark_id);
CREATE INDEX IF NOT EXISTS metrics_test ON metrics(test_id);
"""


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def connect(path):
    """Opens (creating if needed) the history database at `path`."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    con.executescript(SCHEMA)
    return con


def git_commit(root):
    try:
        out = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out.stdout.strip() + ("-dirty" if dirty else "") if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def create_run(con, started=None, commit="", host=None, label="", status="running"):
    """Adds a run row and returns its id."""
    with con:
        cur = con.execute("INSERT INTO runs(started, git_commit, host, label, status) VALUES(?,?,?,?,?)",
                          (started or now(), commit, host or socket.gethostname(), label, status))
    return cur.lastrowid


def finish_run(con, run_id, status, note=""):
    with con:
        con.execute("UPDATE runs SET finished=?, status=?, note=? WHERE id=?", (now(), status, note, run_id))


def flatten(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(v, prefix + "." + str(k) if prefix else str(k), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, "%s.%d" % (prefix, i), out)
    else:
        out.append((prefix, value))
    return out


def _env_rows(run_id, source, env):
    rows = []
    for k, v in flatten(env, "", []):
        if isinstance(v, str) and v[:1] in "{[" and source == "bench":
            try:  # bench context holds JSON strings (device.<profile>)
                rows += [(run_id, source, k + "." + k2, str(v2)) for k2, v2 in flatten(json.loads(v), "", [])]
                continue
            except ValueError:
                pass
        rows.append((run_id, source, k, "" if v is None else str(v)))
    return rows


def ingest_results(con, run_id, doc, path=""):
    """Stores a parsed results.json into run `run_id` (one transaction). Returns the number of tests."""
    with con:
        con.executemany("INSERT INTO environment VALUES(?,?,?,?)",
                        _env_rows(run_id, "results", doc.get("environment") or {}))
        for rec in doc.get("runs", []):
            cur = con.execute(
                "INSERT INTO tests(run_id, pipeline, profile, case_name, mode, outcome, result_outcome, message,"
                " duration_ms, target, driver, record_json) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                (run_id, rec.get("pipeline"), rec.get("profile"), rec.get("case"), rec.get("mode", "host"),
                 rec.get("outcome"), rec.get("result_outcome", ""), rec.get("message", ""),
                 rec.get("duration_ms"), rec.get("target", ""), data.test_driver(rec), json.dumps(rec)))
            nums = [(cur.lastrowid, k, float(v)) for k, v in flatten(rec.get("metrics") or {}, "", [])
                    if isinstance(v, (int, float)) and not isinstance(v, bool)]
            con.executemany("INSERT INTO metrics VALUES(?,?,?)", nums)
        con.execute("INSERT INTO ingested VALUES(?,?,?,?)", (run_id, "results", path, now()))
    return len(doc.get("runs", []))


def ingest_bench(con, run_id, doc, path=""):
    """Stores a parsed Google Benchmark JSON into run `run_id` (one transaction). Returns the benchmark count."""
    nb = data.normalise_bench(doc)
    with con:
        con.executemany("INSERT INTO environment VALUES(?,?,?,?)", _env_rows(run_id, "bench", nb["context"]))
        for name, b in nb["bench"].items():
            cur = con.execute("INSERT INTO benchmarks(run_id, name, pipeline, profile, case_name, mode, label,"
                              " driver, error) VALUES(?,?,?,?,?,?,?,?,?)",
                              (run_id, name, b["pipeline"], b["profile"], b["case"], b["mode"], b["label"],
                               b["driver"], b["error"]))
            con.executemany("INSERT INTO samples VALUES(?,?,?,?,?,?,?)",
                            [(cur.lastrowid, s["rep"], s["real_time_ms"], s["cpu_time_ms"], s["iterations"],
                              s["pixels_per_second"], s["bytes_per_second"]) for s in b["samples"]])
        con.execute("INSERT INTO ingested VALUES(?,?,?,?)", (run_id, "bench", path, now()))
    return len(nb["bench"])


def document_time(path):
    """When the run that wrote `path` happened, ISO 8601 UTC: the results' environment.started (written by
    `aot-harness run`), else a Google Benchmark context's "date", else the file's modification time (when the run wrote it)."""
    doc = data.read_json(path)
    stamp = None
    if isinstance(doc, dict):
        stamp = doc.get("started") or (doc.get("environment") or {}).get("started")
    if not stamp and isinstance(doc, dict) and isinstance(doc.get("context"), dict):
        stamp = doc["context"].get("date")
    if stamp:
        try:
            t = datetime.datetime.fromisoformat(str(stamp).replace("Z", "+00:00"))
            if t.tzinfo is None:
                t = t.astimezone()  # Google Benchmark writes local time without an offset on some versions
            return t.astimezone(datetime.timezone.utc).replace(microsecond=0).isoformat()
        except ValueError:
            pass
    return datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc).replace(
        microsecond=0).isoformat()


def ingest_file(con, run_id, path):
    """Ingests a results or bench JSON file, whichever it is. Returns (kind, count)."""
    doc = data.read_json(path)
    kind = data.kind_of(doc)
    if kind == "results":
        return kind, ingest_results(con, run_id, doc, path)
    if kind == "bench":
        return kind, ingest_bench(con, run_id, doc, path)
    raise data.InputError("%s is neither a results file nor a Google Benchmark JSON" % path)


def resolve_run(con, spec):
    """Run id from '17', 'latest' or 'latest~N' (N runs before the latest); InputError if there is none."""
    ids = [r[0] for r in con.execute("SELECT id FROM runs ORDER BY id DESC")]
    if spec.isdigit():
        if int(spec) not in ids:
            raise data.InputError("run %s is not in the history (runs: %s)" % (spec, ", ".join(map(str, ids[:10])) or "none"))
        return int(spec)
    back = int(spec.split("~", 1)[1]) if "~" in spec else 0
    if back >= len(ids):
        raise data.InputError("the history has only %d runs; '%s' does not exist" % (len(ids), spec))
    return ids[back]


def load_side(db_path, spec):
    """A comparison side (see data.py) from run `spec` of the history at `db_path`."""
    if not os.path.exists(db_path):
        raise data.InputError("no history at %s; run scripts/nightly or scripts/history ingest first" % db_path)
    con = connect(db_path)
    run_id = resolve_run(con, spec)
    run = con.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
    side = data.empty_side("run %d (%s, %s)" % (run_id, (run["git_commit"] or "?")[:10], run["started"]))
    side["run"] = dict(run)
    for row in con.execute("SELECT record_json FROM tests WHERE run_id=? ORDER BY id", (run_id,)):
        rec = json.loads(row[0])
        side["tests"][data.test_key(rec)] = rec
        side["has_results"] = True
    for b in con.execute("SELECT * FROM benchmarks WHERE run_id=? ORDER BY id", (run_id,)).fetchall():
        side["has_bench"] = True
        side["bench"][b["name"]] = {
            "pipeline": b["pipeline"], "profile": b["profile"], "case": b["case_name"], "mode": b["mode"],
            "label": b["label"], "driver": b["driver"], "error": b["error"],
            "samples": [dict(s) for s in con.execute(
                "SELECT rep, real_time_ms, cpu_time_ms, iterations, pixels_per_second, bytes_per_second"
                " FROM samples WHERE benchmark_id=? ORDER BY rep", (b["id"],))]}
    con.close()
    return side


def main(argv=None):
    import argparse
    import sys
    ap = argparse.ArgumentParser(prog="history", description="The SQLite history of runs (default out/history.sqlite).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ing = sub.add_parser("ingest", help="store a results.json and/or a bench.json as a run; prints the run id",
                         description="Stores results and/or benchmark JSON files in the history, each file in "
                                     "its own transaction, as a new run (or into --run ID). Prints the run id.")
    ing.add_argument("--results", action="append", default=[], help="aot-harness results JSON (repeatable)")
    ing.add_argument("--bench", action="append", default=[], help="Google Benchmark JSON (repeatable)")
    ing.add_argument("--run", type=int, help="add to this existing run instead of creating one")
    ing.add_argument("--label", default="", help="free text shown with the run, e.g. 'nightly' or 'oclgrind'")
    ing.add_argument("--commit", help="git commit (default: HEAD of this checkout)")
    ing.add_argument("--time", help="run time, ISO 8601 (default: the earliest time the files record: the "
                                    "results' start, the benchmarks' date, else the file's modification time)")
    ing.add_argument("--host", help="host name (default: this machine's)")
    ing.add_argument("--status", default="complete", help="status of a new run (default complete)")
    lst = sub.add_parser("list", help="list the runs")
    for p in (ing, lst):
        p.add_argument("--db", default=default_db_path(), help="history database (default %(default)s)")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "list":
            if not os.path.exists(args.db):
                raise data.InputError("no history at %s" % args.db)
            con = connect(args.db)
            for r in con.execute("SELECT r.*, (SELECT COUNT(*) FROM tests t WHERE t.run_id=r.id) nt,"
                                 " (SELECT COUNT(*) FROM benchmarks b WHERE b.run_id=r.id) nb FROM runs r ORDER BY id"):
                print("%4d  %-25s  %-12s  %-10s  %-10s  %3d tests  %3d benchmarks  %s" % (
                    r["id"], r["started"], (r["git_commit"] or "")[:12], r["status"], r["label"], r["nt"], r["nb"],
                    r["note"] or ""))
            return 0
        if not args.results and not args.bench:
            raise data.InputError("nothing to ingest: pass --results FILE and/or --bench FILE")
        for p in args.results + args.bench:  # fail before creating a run if a file is unreadable
            data.read_json(p)
        con = connect(args.db)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        when = args.time or min(document_time(p) for p in args.results + args.bench)
        run_id = args.run or create_run(con, when, args.commit if args.commit is not None else git_commit(root),
                                        args.host, args.label, "running")
        for p in args.results + args.bench:
            kind, n = ingest_file(con, run_id, p)
            print("history: run %d: %d %s from %s" % (run_id, n, "tests" if kind == "results" else "benchmarks", p),
                  file=sys.stderr)
        if not args.run:
            finish_run(con, run_id, args.status)
        print(run_id)
        return 0
    except data.InputError as e:
        print("history: %s" % e, file=sys.stderr)
        return 2


def default_db_path():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "out", "history.sqlite")


if __name__ == "__main__":
    import sys
    sys.exit(main())
