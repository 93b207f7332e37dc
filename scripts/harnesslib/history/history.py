"""The history of nightly runs (a SQLite file or a PostgreSQL URL, same schema; see db.py): what ran, on which
commit, host and drivers, with every test outcome, its metrics and every benchmark repetition.

Tables:
  runs(id, started, finished, git_commit, host, label, status, note, run_key)  run_key: unique, set by
                                                  shards of one run ingested by several processes
  environment(run_id, source, key, value)         flattened environment (results and bench context);
                                                  OpenCL driver versions under opencl.platforms.N.devices.M.driver_version;
                                                  a bench context's machine.<block> kept whole, as JSON text
  tests(id, run_id, pipeline, profile, case_name, mode, outcome, result_outcome, message, duration_ms,
        target, driver, record_json)              one row per test record (the full record as JSON)
  metrics(test_id, name, value)                   numeric metrics flattened, e.g. outputs.output.max_abs_error
  benchmarks(id, run_id, name, pipeline, profile, case_name, mode, label, driver, error)
  samples(benchmark_id, rep, real_time_ms, cpu_time_ms, iterations, pixels_per_second, bytes_per_second)
  ingested(run_id, kind, path, time)              which artifacts went in, when
Each ingest (ingest.py) is one transaction, so a run that stops midway keeps everything ingested before.
"""

import datetime
import re
import socket
import subprocess
import sys

from . import db, ingest
from .. import data, formats, jsonio, toolmain

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs(id {id}, started TEXT, finished TEXT, git_commit TEXT,
  host TEXT, label TEXT, status TEXT, note TEXT, run_key TEXT);
CREATE TABLE IF NOT EXISTS environment(run_id {ref} REFERENCES runs(id), source TEXT, key TEXT, value TEXT);
CREATE TABLE IF NOT EXISTS tests(id {id}, run_id {ref} REFERENCES runs(id), pipeline TEXT,
  profile TEXT, case_name TEXT, mode TEXT, outcome TEXT, result_outcome TEXT, message TEXT, duration_ms {real},
  target TEXT, driver TEXT, record_json TEXT);
CREATE TABLE IF NOT EXISTS metrics(test_id {ref} REFERENCES tests(id), name TEXT, value {real});
CREATE TABLE IF NOT EXISTS benchmarks(id {id}, run_id {ref} REFERENCES runs(id), name TEXT,
  pipeline TEXT, profile TEXT, case_name TEXT, mode TEXT, label TEXT, driver TEXT, error TEXT);
CREATE TABLE IF NOT EXISTS samples(benchmark_id {ref} REFERENCES benchmarks(id), rep {int},
  real_time_ms {real}, cpu_time_ms {real}, iterations {int}, pixels_per_second {real}, bytes_per_second {real});
CREATE TABLE IF NOT EXISTS ingested(run_id {ref} REFERENCES runs(id), kind TEXT, path TEXT, time TEXT);
CREATE INDEX IF NOT EXISTS tests_run ON tests(run_id);
CREATE INDEX IF NOT EXISTS bench_run ON benchmarks(run_id);
CREATE INDEX IF NOT EXISTS samples_bench ON samples(benchmark_id);
CREATE INDEX IF NOT EXISTS metrics_test ON metrics(test_id);
CREATE INDEX IF NOT EXISTS tests_history ON tests(pipeline, profile, case_name, mode, run_id);
CREATE INDEX IF NOT EXISTS runs_host ON runs(host, label, id);
"""
# What makes an ingest idempotent: one run per run_key, one test per key, one benchmark per name and one
# environment value per key in a run. A second ingest of the same shard (a retry) adds nothing.
UNIQUE = [
    ("runs_key", "runs(run_key)"),
    ("environment_key", "environment(run_id, source, key)"),
    ("tests_key", "tests(run_id, pipeline, profile, case_name, mode)"),
    ("bench_key", "benchmarks(run_id, name)"),
]


def check_schema(con, target):
    """InputError when the database has tables of these names without this history's columns (another
    program's database): checked before anything is written to it."""
    for table, cols in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)\((.*?)\);", SCHEMA, re.S):
        want = [c.split()[0] for c in cols.replace("\n", " ").split(",") if c.strip()]
        if con.kind == "sqlite":
            have = {r[1] for r in con.execute("PRAGMA table_info(%s)" % table)}
        else:
            have = {
                r[0]
                for r in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name=? "
                    "AND table_schema=current_schema()",
                    (table,),
                )
            }
        if not have:
            continue  # not there yet: made with the schema
        missing = [c for c in want if c not in have and c != "run_key"]  # run_key: added to older histories
        if missing:
            raise data.InputError(
                "%s is not a history of this harness: its table %s has no column %s; pass another "
                "--db (a new file is made for you)" % (db.redact(target), table, ", ".join(missing))
            )


def connect(target):
    """Opens the history at `target` (a SQLite path, created if needed, or a postgresql:// URL) and makes sure
    its schema is there (a history written before run_key and the unique keys gets them)."""
    con = db.open_db(target)
    if con.kind == "postgresql":
        names = re.findall(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)", SCHEMA) + [n for n, _ in UNIQUE]
        # pg_class read with the statement's snapshot (to_regclass could answer from a stale cache)
        complete = lambda: (
            con.execute(
                "SELECT COUNT(DISTINCT relname) FROM pg_class WHERE relname = ANY(?) AND "
                "relnamespace = current_schema()::regnamespace",
                (names,),
            ).fetchone()[0]
            == len(names)
        )
        # CREATE ... IF NOT EXISTS still locks the tables it checks, which deadlocks with running ingests:
        # only a history without its schema gets DDL, one process at a time.
        if complete():
            return con
        with con:
            con.execute("SELECT pg_advisory_xact_lock(7310001)")
            if complete():  # made by another process while this one waited
                return con
            for stmt in SCHEMA.format(**db.SCHEMA_TYPES["postgresql"]).split(";"):
                if stmt.strip():
                    con.execute(stmt)
            check_schema(con, target)
            for name, cols in UNIQUE:
                con.execute("CREATE UNIQUE INDEX IF NOT EXISTS %s ON %s" % (name, cols))
        return con
    check_schema(con, target)  # before anything is added to a database that is not a history
    con.raw.executescript(SCHEMA.format(**db.SCHEMA_TYPES["sqlite"]))
    if "run_key" not in [r[1] for r in con.execute("PRAGMA table_info(runs)")]:
        with con:
            con.execute("ALTER TABLE runs ADD COLUMN run_key TEXT")
    have = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    for name, cols in UNIQUE:
        if name in have:
            continue
        with con:
            if name == "environment_key":  # older nightlies stored the same environment once per profile
                con.execute(
                    "DELETE FROM environment WHERE rowid NOT IN (SELECT MIN(rowid) FROM environment"
                    " GROUP BY run_id, source, key)"
                )
            try:
                con.execute("CREATE UNIQUE INDEX %s ON %s" % (name, cols))
            except Exception as e:  # a history with duplicate tests keeps working, without the retry guard
                print("history: %s: no unique index %s (%s)" % (target, name, e), file=sys.stderr)
    return con


def exists(target):
    return db.exists(target)


def git_commit(root):
    try:
        out = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(
            ["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        return out.stdout.strip() + ("-dirty" if dirty else "") if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def create_run(con, started=None, commit="", host=None, label="", status="running", run_key=None):
    """Adds a run row and returns its id. With `run_key`, the run of that key if it exists (so that several
    processes ingesting shards of one run, at once, end up in one run)."""
    with con:
        rid = con.insert(
            "INSERT INTO runs(started, git_commit, host, label, status, run_key) VALUES(?,?,?,?,?,?)"
            " ON CONFLICT DO NOTHING",
            (started or ingest.now(), commit, host or socket.gethostname(), label, status, run_key),
        )
        if rid is None:
            rid = con.execute("SELECT id FROM runs WHERE run_key=?", (run_key,)).fetchone()[0]
    return rid


def finish_run(con, run_id, status, note=""):
    with con:
        con.execute("UPDATE runs SET finished=?, status=?, note=? WHERE id=?", (ingest.now(), status, note, run_id))


def mark_unfinished(con, run_id, err):
    """Records why run `run_id` did not finish: status 'interrupted' (a signal, Ctrl-C) or 'failed', with the
    one-line reason. Returns "" or, when even that cannot be written (the disk that failed), why not."""
    if isinstance(err, toolmain.Interrupted):
        status, note = "interrupted", "signal %d" % err.signum
    elif isinstance(err, KeyboardInterrupt):
        status, note = "interrupted", "interrupted (Ctrl-C)"
    else:
        status, note = "failed", toolmain.describe(err)
    try:
        finish_run(con, run_id, status, note)
        return ""
    except Exception as e:  # noqa: BLE001 - the first failure is the one to report
        return "; run %d could not be marked %s either (%s)" % (run_id, status, toolmain.describe(e))


def resolve_run(con, spec):
    """Run id from '17', 'latest' or 'latest~N' (N runs before the latest); InputError if there is none."""
    ids = [r[0] for r in con.execute("SELECT id FROM runs ORDER BY id DESC")]
    if not re.fullmatch(r"[0-9]+|latest(~[0-9]+)?", spec):
        raise data.InputError("'%s' names no run; pass a run id, latest or latest~N" % spec)
    if spec.isdigit():
        if int(spec) not in ids:
            raise data.InputError(
                "run %s is not in the history (runs: %s)" % (spec, ", ".join(map(str, ids[:10])) or "none")
            )
        return int(spec)
    back = int(spec.split("~", 1)[1]) if "~" in spec else 0
    if back >= len(ids):
        raise data.InputError("the history has only %d runs; '%s' does not exist" % (len(ids), spec))
    return ids[back]


def record_of(db_path, run_id, test_id, text):
    """The record a tests row keeps (record_json), read and checked like a results file's."""
    where = "%s: test %s of run %s" % (db.redact(db_path), test_id, run_id)
    fix = "the history is damaged: ingest that run again"
    rec = jsonio.loads(text or "", where, fix)
    formats.check_record(jsonio.At(rec, where, fix))
    return rec


def migrate(src_target, dst_target, log=None):
    """Copies every run of the history at src_target into the one at dst_target (migrate.py). Returns
    (copied, already there)."""
    from . import migrate as copier

    if not exists(src_target):
        raise data.InputError("no history at %s to migrate from" % src_target)
    src, dst = connect(src_target), connect(dst_target)
    try:
        return copier.copy_all(src, dst, copier.source_name(src_target), log)
    finally:
        src.close()
        dst.close()


def main(argv=None):
    ap = toolmain.ArgumentParser(
        prog="history",
        description="The history of runs: a SQLite file (default out/history.sqlite) or, "
        "with --db postgresql://..., a PostgreSQL database.",
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    ing = sub.add_parser(
        "ingest",
        help="store a results.json and/or a bench.json as a run; prints the run id",
        description="Stores results and/or benchmark JSON files in the history, each file in "
        "its own transaction, as a new run (or into --run ID). Prints the run id. "
        "A run that does not finish is marked failed or interrupted, with the reason.",
    )
    ing.add_argument("--results", action="append", default=[], help="aot-harness results JSON (repeatable)")
    ing.add_argument("--bench", action="append", default=[], help="Google Benchmark JSON (repeatable)")
    ing.add_argument(
        "--run", type=toolmain.whole(1, 2**63 - 1), help="add to this existing run instead of creating one"
    )
    ing.add_argument("--label", default="", help="free text shown with the run, e.g. 'nightly' or 'oclgrind'")
    ing.add_argument("--commit", help="git commit (default: HEAD of this checkout)")
    ing.add_argument(
        "--time",
        help="run time, ISO 8601 (default: the earliest time the files record: the "
        "results' start, the benchmarks' date, else the file's modification time)",
    )
    ing.add_argument("--host", help="host name (default: this machine's)")
    ing.add_argument("--status", default="complete", help="status of a new run (default complete)")
    ing.add_argument(
        "--run-key",
        help="add to the run of this key, creating it if needed: shards of one run "
        "ingested by several processes, e.g. nightly-2026-11-24-board7 (a retried "
        "ingest adds nothing twice)",
    )
    lst = sub.add_parser("list", help="list the runs")
    mig = sub.add_parser(
        "migrate",
        help="copy every run of a history (e.g. SQLite) into --db (e.g. PostgreSQL)",
        description="Copies every run of --from into --db with new ids; a run copied before "
        "(same source and id) is not copied again. Prints the number of runs copied.",
    )
    mig.add_argument("--from", dest="source", required=True, help="history to copy from (SQLite path or URL)")
    for p in (ing, lst, mig):
        data.add_history_argument(p)
    args = ap.parse_args(argv)
    toolmain.handle_signals()
    if args.cmd == "migrate":
        copied, skipped = migrate(args.source, args.db, lambda m: print("history: migrate: " + m, file=sys.stderr))
        print("history: migrate: %d run(s) copied, %d already there" % (copied, skipped), file=sys.stderr)
        print(copied)
        return 0
    if args.cmd == "list":
        if not exists(args.db):
            raise data.InputError("no history at %s; run scripts/nightly or scripts/history ingest first" % args.db)
        con = connect(args.db)
        for r in con.execute(
            "SELECT r.*, (SELECT COUNT(*) FROM tests t WHERE t.run_id=r.id) nt,"
            " (SELECT COUNT(*) FROM benchmarks b WHERE b.run_id=r.id) nb FROM runs r ORDER BY id"
        ):
            print(
                "%4d  %-25s  %-12s  %-10s  %-10s  %3d tests  %3d benchmarks  %s"
                % (
                    r["id"],
                    r["started"],
                    (r["git_commit"] or "")[:12],
                    r["status"],
                    r["label"],
                    r["nt"],
                    r["nb"],
                    r["note"] or "",
                )
            )
        return 0
    if not args.results and not args.bench:
        raise data.InputError("nothing to ingest: pass --results FILE and/or --bench FILE")
    if args.time:
        try:
            datetime.datetime.fromisoformat(args.time.replace("Z", "+00:00"))
        except ValueError:
            raise data.InputError(
                "--time '%s' is not an ISO 8601 time; write e.g. 2026-11-24T02:00:00+00:00" % args.time
            )
    # Every file is read and checked before the history is touched: a bad file makes no run at all.
    docs = [(p, formats.load_checked(p, ("results",))[1]) for p in args.results]
    docs += [(p, formats.load_checked(p, ("bench",))[1]) for p in args.bench]
    con = connect(args.db)
    root = data.REPO_ROOT
    when = args.time or min(ingest.document_time(p) for p, _ in docs)
    if args.run and con.execute("SELECT id FROM runs WHERE id=?", (args.run,)).fetchone() is None:
        raise data.InputError("--run %d is not in the history %s; see scripts/history list" % (args.run, args.db))
    run_id = args.run or create_run(
        con,
        when,
        args.commit if args.commit is not None else git_commit(root),
        args.host,
        args.label,
        args.status if args.run_key else "running",
        args.run_key,
    )
    p = ""
    try:
        for p, doc in docs:
            if "benchmarks" in doc:
                kind, n = "bench", ingest.ingest_bench(con, run_id, doc, p)
            else:
                kind, n = "results", ingest.ingest_results(con, run_id, doc, p)
            print(
                "history: run %d: %d %s from %s" % (run_id, n, "tests" if kind == "results" else "benchmarks", p),
                file=sys.stderr,
            )
        if args.run_key:
            with con:
                con.execute("UPDATE runs SET finished=? WHERE id=?", (ingest.now(), run_id))
        elif not args.run:
            finish_run(con, run_id, args.status)
    except BaseException as e:
        also = mark_unfinished(con, run_id, e)
        if isinstance(e, (toolmain.Interrupted, KeyboardInterrupt)):
            raise
        raise data.InputError("run %d: %s%s%s" % (run_id, p + ": " if p else "", toolmain.describe(e), also))
    print(run_id)
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("history", main))
