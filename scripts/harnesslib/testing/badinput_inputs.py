"""The inputs of the bad-input corpus (badinput_cases.py): documents nested too deeply, results, bench and
shard files with one thing changed, bundles, LAVA logs and histories, each made here, not copied from bug
reports."""

import base64
import gzip
import io
import json
import os
import tarfile

from . import fixtures as fx


def deep(n, doc_open="[", doc_close="]"):
    return doc_open * n + doc_close * n


def pocl(kind):
    with open(fx.fixture("pocl", kind + ".json"), encoding="utf-8") as f:
        return json.load(f)


def results(**changes):
    """The PoCL results fixture with runs[0] changed (None deletes a key), as text."""
    doc = pocl("results")
    doc["runs"] = doc["runs"][:4]
    for k, v in changes.items():
        if v is None:
            doc["runs"][0].pop(k, None)
        else:
            doc["runs"][0][k] = v
    return json.dumps(doc)


def bench(**changes):
    """The PoCL bench fixture (first 12 entries) with benchmarks[1] changed, as text."""
    doc = pocl("bench")
    doc["benchmarks"] = doc["benchmarks"][:12]
    doc["benchmarks"][1].update(changes)
    return json.dumps(doc)


def shard(spec, commit="4a1b2c3", runs=slice(0, 3)):
    doc = pocl("results")
    doc["runs"] = doc["runs"][runs]
    doc["environment"].update(shard=spec, harness_git_commit=commit)
    return json.dumps(doc)


def bundle(
    tests=("edge/cpu/small", "edge/cpu/odd", "edge/host/small", "tone/cpu/small"), list_json=None, name="out/list.json"
):
    """A device-ctest bundle (tar.gz) whose out/list.json lists `tests`."""
    if list_json is None:
        pipes = {}
        for t in tests:
            p, prof, case = t.split("/")
            e = pipes.setdefault(p, {"name": p, "profiles": [], "cases": []})
            e["profiles"] += [{"name": prof}] if {"name": prof} not in e["profiles"] else []
            e["cases"] += [{"name": case, "nightly": False}] if case not in [c["name"] for c in e["cases"]] else []
        list_json = json.dumps({"pipelines": list(pipes.values())})
    raw, out = list_json.encode(), io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tf:
        info = tarfile.TarInfo(name)
        info.size = len(raw)
        tf.addfile(info, io.BytesIO(raw))
    return out.getvalue()


def lava_log(results=(("edge.cpu.small", "pass", "0.4"),), records=None, raw_records=None, job="aot-harness-x"):
    """A LAVA job log (lava-run's one mapping per line) with lava-test-case results and AOTH-REC records."""
    lines = [{"dt": "t", "lvl": "target", "msg": "AOTH-JOB " + job}]
    for name, doc in (records or {}).items():
        b = base64.b64encode(gzip.compress(json.dumps(doc).encode())).decode()
        lines.append({"dt": "t", "lvl": "target", "msg": "AOTH-REC %s gz %s" % (name, b)})
    for name, text in (raw_records or {}).items():
        lines.append({"dt": "t", "lvl": "target", "msg": "AOTH-REC %s gz %s" % (name, text)})
    for name, result, secs in results:
        lines.append(
            {
                "dt": "t",
                "lvl": "results",
                "msg": {"definition": "0_aot-harness", "case": name, "result": result, "measurement": secs},
            }
        )
    lines.append({"dt": "t", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "pass"}})
    return "\n".join(json.dumps(l) for l in lines) + "\n"


def ok_record():
    return {
        "environment": {},
        "runs": [{"pipeline": "edge", "profile": "cpu", "case": "small", "outcome": "PASS", "message": "ok"}],
    }


def history_status(want_status):
    """A `changes` check: the history h.sqlite holds exactly one run, with status `want_status` and a note."""

    def check(w):
        import sqlite3

        try:
            rows = sqlite3.connect(os.path.join(w, "h.sqlite")).execute("SELECT status, note FROM runs").fetchall()
        except sqlite3.Error as e:
            return "no runs table in the history (%s)" % e
        if len(rows) != 1 or rows[0][0] != want_status or not rows[0][1]:
            return "runs in the history: %s, want one run %s with its reason" % (rows, want_status)
        return ""

    return check


def other_program_db(w):
    """Another program's SQLite database that happens to have a table `runs`; its bytes."""
    import sqlite3

    path = os.path.join(w, ".other.sqlite")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE runs(id INTEGER PRIMARY KEY, athlete TEXT, km REAL)")
    con.execute("INSERT INTO runs(athlete, km) VALUES ('ada', 10.5)")
    con.commit()
    con.close()
    with open(path, "rb") as f:
        raw = f.read()
    os.remove(path)
    return raw


def empty_history(w):
    """A history with its tables and no run; its path."""
    from ..history import history

    path = os.path.join(w, ".empty.sqlite")
    history.connect(path).close()
    return path


def fx_history(w, damage=False):
    """A history with the PoCL fixture ingested as two runs (one record's JSON damaged with `damage`); its path."""
    import sqlite3
    from ..history import history, ingest

    path = os.path.join(w, ".src.sqlite")
    con = history.connect(path)
    for _ in range(2):
        rid = history.create_run(con, commit="c", label="t")
        ingest.ingest_results(con, rid, pocl("results"))
        history.finish_run(con, rid, "complete")
    con.close()
    if damage:
        raw = sqlite3.connect(path)
        raw.execute("UPDATE tests SET record_json = '{\"pipeline\": ' WHERE id = (SELECT MAX(id) FROM tests)")
        raw.commit()
        raw.close()
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    out = os.path.join(w, ".hist")
    with open(out, "wb") as f:
        f.write(data)
    return out
