"""Storing a run's artifacts in the history (history.py): a results.json (its tests and their numeric
metrics) or a Google Benchmark JSON (its benchmarks and their repetitions), each in one transaction, with the
environment flattened into key/value rows; and when the run that wrote a file happened."""

import datetime
import json
import os

from .. import data, jsonio

TEST_COLS = (
    "run_id",
    "pipeline",
    "profile",
    "case_name",
    "mode",
    "outcome",
    "result_outcome",
    "message",
    "duration_ms",
    "target",
    "driver",
    "record_json",
)


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


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
        if source == "bench" and k.startswith("machine.") and k.count(".") == 1:
            rows.append((run_id, source, k, str(v)))  # one JSON text per block, read back whole (sides.run_side)
            continue
        if isinstance(v, str) and v[:1] in "{[" and source == "bench":
            try:  # bench context holds JSON strings (device.<profile>)
                rows += [(run_id, source, k + "." + k2, str(v2)) for k2, v2 in flatten(jsonio.loads(v, k, ""), "", [])]
                continue
            except data.InputError:
                pass
        rows.append((run_id, source, k, "" if v is None else str(v)))
    return rows


def ingest_results(con, run_id, doc, path=""):
    """Stores a parsed results.json into run `run_id` (one transaction). Returns the number of tests added
    (records already in the run, by pipeline/profile/case/mode, are left as they are)."""
    with con:
        con.executemany(
            "INSERT INTO environment VALUES(?,?,?,?) ON CONFLICT DO NOTHING",
            _env_rows(run_id, "results", doc.get("environment") or {}),
        )
        recs = doc.get("runs", [])
        rows = [
            (
                run_id,
                rec.get("pipeline"),
                rec.get("profile"),
                rec.get("case"),
                rec.get("mode", "host"),
                rec.get("outcome"),
                rec.get("result_outcome", ""),
                rec.get("message", ""),
                rec.get("duration_ms"),
                rec.get("target", ""),
                data.test_driver(rec),
                json.dumps(rec),
            )
            for rec in recs
        ]
        # records already in this run (a shard ingested twice) conflict and are left out
        got = con.insert_many("tests", TEST_COLS, rows, ("id", "pipeline", "profile", "case_name", "mode"))
        added = {tuple(x[1:]): x[0] for x in got}
        nums = []
        for rec, row in zip(recs, rows):
            tid = added.pop(tuple(row[1:5]), None)
            if tid is not None:
                nums += [
                    (tid, k, float(v))
                    for k, v in flatten(rec.get("metrics") or {}, "", [])
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                ]
        con.executemany("INSERT INTO metrics VALUES(?,?,?)", nums)
        con.execute("INSERT INTO ingested VALUES(?,?,?,?)", (run_id, "results", path, now()))
    return len(got)


def ingest_bench(con, run_id, doc, path=""):
    """Stores a parsed Google Benchmark JSON into run `run_id` (one transaction). Returns the number of
    benchmarks added (names already in the run are left as they are)."""
    nb = data.normalise_bench(doc)
    with con:
        con.executemany(
            "INSERT INTO environment VALUES(?,?,?,?) ON CONFLICT DO NOTHING", _env_rows(run_id, "bench", nb["context"])
        )
        got = con.insert_many(
            "benchmarks",
            ("run_id", "name", "pipeline", "profile", "case_name", "mode", "label", "driver", "error"),
            [
                (run_id, name, b["pipeline"], b["profile"], b["case"], b["mode"], b["label"], b["driver"], b["error"])
                for name, b in nb["bench"].items()
            ],
            ("id", "name"),
        )
        rows = []
        for bid, name in got:  # names already in this run conflict and are left out
            rows += [
                (
                    bid,
                    s["rep"],
                    s["real_time_ms"],
                    s["cpu_time_ms"],
                    s["iterations"],
                    s["pixels_per_second"],
                    s["bytes_per_second"],
                )
                for s in nb["bench"][name]["samples"]
            ]
        con.executemany("INSERT INTO samples VALUES(?,?,?,?,?,?,?)", rows)
        con.execute("INSERT INTO ingested VALUES(?,?,?,?)", (run_id, "bench", path, now()))
    return len(got)


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
    return (
        datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
        .replace(microsecond=0)
        .isoformat()
    )
