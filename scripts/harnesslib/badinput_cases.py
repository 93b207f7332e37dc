"""The bad-input corpus: each case is a tool, its arguments and the input files it gets; every one
must end with exit 2, exactly one line on stderr matching `expect`, no traceback, and nothing changed or
left behind (badinput_test.py runs them). Inputs are made here, not copied from bug reports.

Arguments and file contents may hold {w} (the case's own directory), {g} (a copy of golden/ shared by the
aot-harness cases) and {fx} (scripts/fixtures/)."""
import base64
import gzip
import io
import json
import os
import tarfile

from . import fixtures as fx


class Case:
    def __init__(self, tool, args, expect, files=None, env=None, code=2, fsize=None, readonly=None, needs=None,
                 changes=None, progress=None, lock=None):
        self.tool, self.args, self.expect, self.files, self.lock = tool, args, expect, files or {}, lock
        self.env, self.code, self.fsize, self.readonly, self.needs = env or {}, code, fsize, readonly, needs
        self.changes = changes    # callable(w) -> problem or "": the case may change files, checked by it
        self.progress = progress  # regex of stderr lines printed before the failure (not the error line)
        # lock: a SQLite file another process holds an exclusive lock on while the case runs


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


def bundle(tests=("edge/cpu/small", "edge/cpu/odd", "edge/host/small", "tone/cpu/small"), list_json=None,
           name="out/list.json"):
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
        lines.append({"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness", "case": name,
                                                           "result": result, "measurement": secs}})
    lines.append({"dt": "t", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "pass"}})
    return "\n".join(json.dumps(l) for l in lines) + "\n"


def ok_record():
    return {"environment": {}, "runs": [{"pipeline": "edge", "profile": "cpu", "case": "small", "outcome": "PASS",
                                         "message": "ok"}]}


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


XF = '{"xfail": [%s]}'
BL = '{"format": "aot-harness-baseline", "version": 1, %s}'
RUN = ["run", "--pipeline", "brighten", "--profile", "cpu", "--case", "small", "--golden-dir", "{g}"]
TYPES = "--device-types"
LAVA = ["--bundle", "{w}/b.tar.gz", "--bundle-url", "https://farm.example/b.tar.gz", "--out", "{w}/jobs"]

CASES = [
    # --- aot-harness: JSON readers (xfail, baseline, results, manifest), numbers, paths, TMPDIR
    Case("aot-harness", RUN + ["--xfail", "{w}/x.json"], r"x\.json: line 1, column \d+: arrays and objects nested deeper",
         {"x.json": XF % ('{"reason": "r", "device": %s}' % deep(200000, '{"k":', "}").replace('{"k":}', '{"k":1}'))}),
    Case("aot-harness", RUN + ["--baseline", "{w}/b.json"], r"b\.json: .*nested deeper than 64 levels",
         {"b.json": BL % ('"flakes": %s' % deep(250000))}),
    Case("aot-harness", ["report", "--results", "{w}/r.json", "--out", "{w}/rep"], r"r\.json: .*nested deeper",
         {"r.json": '{"runs": [{"metrics": %s}]}' % deep(150000)}),
    Case("aot-harness", ["golden", "verify", "--golden-dir", "{w}/g"], r"MANIFEST\.json: .*nested deeper",
         {"g/MANIFEST.json": '{"goldens": %s}' % deep(100000)}),
    Case("aot-harness", ["golden", "verify", "--golden-dir", "{w}/g"],
         r"MANIFEST\.json: goldens\[0\]\.file: is null, not a string; restore it",
         {"g/MANIFEST.json": '{"goldens": [{"file": null, "pipeline": "p", "case": "c", "output": "o", "dtype": "u8", '
                             '"shape": [], "sha256": "0"}]}'}),
    Case("aot-harness", RUN + ["--baseline", "{w}/b.json"], r"b\.json: version: is true, not an integer from 1 to 1",
         {"b.json": '{"format": "aot-harness-baseline", "version": true}'}),
    Case("aot-harness", RUN + ["--baseline", "{w}/b.json"], r"b\.json: failures\.edge/cpu/small/host: is 3, not a string",
         {"b.json": BL % '"failures": {"edge/cpu/small/host": 3}'}),
    Case("aot-harness", RUN + ["--baseline", "{w}/b.json"], r"b\.json: flakes\[1\]: 'edge/cpu' is not pipeline/profile",
         {"b.json": BL % '"flakes": ["edge/cpu/small/host", "edge/cpu"]'}),
    Case("aot-harness", RUN + ["--baseline", "{w}/b.json"], r"b\.json: \(top level\): not a baseline",
         {"b.json": '{"format": 1}'}),
    Case("aot-harness", RUN + ["--xfail", "{w}/x.json"],
         r"x\.json: xfail\[0\]\.plattform: unknown key; use one of: pipeline, profile, case, mode, platform",
         {"x.json": XF % '{"reason": "r", "plattform": "PoCL"}'}),
    Case("aot-harness", RUN + ["--xfail", "{w}/x.json"], r"x\.json: xfail\[0\]\.outcomes: is \"CRASH\", not a list",
         {"x.json": XF % '{"reason": "r", "outcomes": "CRASH"}'}),
    Case("aot-harness", RUN + ["--xfail", "{w}/x.json"], r"x\.json: xfail\[1\]\.reason: is 7, not a string",
         {"x.json": XF % '{"reason": "r"}, {"reason": 7}'}),
    Case("aot-harness", RUN + ["--xfail", "{w}/x.json"], r"x\.json: xfail\[0\]\.outcomes\[0\]: 'SKIP' is not a failure",
         {"x.json": XF % '{"reason": "r", "outcomes": ["SKIP"]}'}),
    Case("aot-harness", RUN + ["--xfail", "{w}/nope.json"], r"--xfail .*nope\.json does not exist"),
    Case("aot-harness", RUN + ["--xfail", "{w}"], r"cannot read .*Is a directory"),
    Case("aot-harness", ["run", "--golden-dir", "{w}/f.txt"], r"golden dir .*f\.txt is not a directory", {"f.txt": "x"}),
    Case("aot-harness", ["bless", "--pipeline", "brighten", "--golden-dir", "{w}/f.txt"], r"f\.txt is not a directory",
         {"f.txt": "x"}),
    Case("aot-harness", ["golden", "verify", "--golden-dir", "{w}/f.txt"], r"f\.txt is not a directory", {"f.txt": "x"}),
    Case("aot-harness", RUN + ["--jobs", "3.5"], r"--jobs '3\.5' is not a whole number from 1 to 1024"),
    Case("aot-harness", RUN + ["--repeats", "1.9"], r"--repeats '1\.9' is not a whole number from 1 to 100"),
    Case("aot-harness", RUN + ["--gpu-jobs", "0x2"], r"--gpu-jobs '0x2' is not a whole number"),
    Case("aot-harness", RUN + ["--flake-retries", "1e1"], r"--flake-retries '1e1' is not a whole number from 0 to 10"),
    Case("aot-harness", RUN + ["--jobs", "99999999999999999999"], r"--jobs '9+' is not a whole number"),
    Case("aot-harness", RUN + ["--timeout", "0x20"], r"--timeout '0x20' is not a number from 1 to 86400"),
    Case("aot-harness", RUN + ["--timeout", "nan"], r"--timeout 'nan' is not a number"),
    Case("aot-harness", ["bless", "--all", "--wait", "inf", "--golden-dir", "{g}"], r"--wait 'inf' is not a number"),
    Case("aot-harness", ["report", "--results", "{w}/r.json", "--out", "{w}/rep"], r"r\.json: not valid JSON",
         {"r.json": results()[:-40]}),
    Case("aot-harness", ["report", "--results", "{w}/r.json", "--out", "{w}/rep"],
         r"r\.json: runs\[0\]: .*unknown outcome \"GREAT\"", {"r.json": results(outcome="GREAT")}),
    Case("aot-harness", ["report", "--results", "{w}/r.json", "--out", "{w}/rep"], r"r\.json: runs: is \{\}, not a list",
         {"r.json": '{"environment": {}, "runs": {}}'}),
    Case("aot-harness", ["report", "--results", "{w}/r.json", "--out", "{w}/rep"],
         r"r\.json: environment: is \[\], not an object", {"r.json": '{"environment": [], "runs": []}'}),
    Case("aot-harness", RUN, r"cannot create a temporary directory in .*/gone: No such file.*set TMPDIR",
         env={"TMPDIR": "{w}/gone"}),
    Case("aot-harness", ["bench", "--repetitions", "2.5", "--golden-dir", "{g}"],
         r"--repetitions '2\.5' is not a whole number from 1 to 1000"),
    Case("aot-harness", ["bench", "--profile", "cpu", "--pipeline", "brighten", "--case", "small", "--quick",
                         "--golden-dir", "{g}"], r"cannot create a temporary directory in .*/gone", env={"TMPDIR": "{w}/gone"}),
    # --- history
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"], r"r\.json: .*nested deeper",
         {"r.json": '{"runs": [], "environment": {"opencl": %s}}' % deep(120000, '{"p":', "}").replace('{"p":}', "{}")}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"], r"r\.json: runs\[0\]\.outcome: missing",
         {"r.json": results(outcome=None)}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"],
         r"r\.json: runs\[0\]\.duration_ms: is \"slow\", not a finite number", {"r.json": results(duration_ms="slow")}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"],
         r"r\.json: runs\[0\]\.metrics\.rows: is a number too large", {"r.json": results(metrics={"rows": 10 ** 400})}),
    # an integer SQLite cannot bind (above 2^63) is refused before a run is made, not half-ingested
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"],
         r"r\.json: runs\[0\]\.duration_ms: is 18446744073709551616, an integer beyond 2\^63",
         {"r.json": results(duration_ms=2 ** 64)}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--bench", "{w}/b.json"],
         r"b\.json: benchmarks\[1\]\.bytes_per_second: is 18446744073709551616, an integer beyond 2\^63",
         {"b.json": bench(bytes_per_second=2 ** 64)}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/r.json"], r"r\.json: runs\[1\]: is 5, not an object",
         {"r.json": '{"runs": [%s, 5]}' % json.dumps(ok_record()["runs"][0])}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--bench", "{w}/b.json"],
         r"b\.json: benchmarks\[1\]\.iterations: is 1000000000000000000000000, not a whole number",
         {"b.json": bench(iterations=10 ** 24)}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--bench", "{w}/b.json"], r"b\.json: benchmarks\[1\]\.time_unit: 'min'",
         {"b.json": bench(time_unit="min")}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{fx}/pocl/bench.json"],
         r"bench\.json: \(top level\): not a results file"),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{w}/none.json"], r"cannot read .*none\.json: No such file"),
    Case("history", ["ingest", "--db", "{w}", "--results", "{fx}/pocl/results.json"], r"history .* is a directory"),
    Case("history", ["list", "--db", "{w}/h.sqlite"], r"is not a SQLite database or is damaged",
         {"h.sqlite": b"SQLite format 3\x00" + bytes(range(256)) * 20}),
    Case("history", ["list", "--db", "{w}/h.sqlite"], r"is not a SQLite database or is damaged",
         {"h.sqlite": "runs,tests\n1,2\n" * 200}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{fx}/pocl/results.json"],
         r"h\.sqlite is not a history of this harness: its table runs has no column started, finished",
         {"h.sqlite": lambda w: other_program_db(w)}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--run", "2.5", "--results", "{fx}/pocl/results.json"],
         r"argument --run: '2\.5' is not a whole number"),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--time", "yesterday", "--results", "{fx}/pocl/results.json"],
         r"--time 'yesterday' is not an ISO 8601 time"),
    Case("history", ["list", "--db", "{w}/nothing.sqlite"], r"no history at .*nothing\.sqlite"),
    Case("history", ["migrate", "--from", "{w}/nothing.sqlite", "--db", "{w}/h.sqlite"], r"no history at .*to migrate"),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{fx}/pocl/results.json"],
         r"HARNESS_DB_LOCK_TIMEOUT='soon' is not a number", env={"HARNESS_DB_LOCK_TIMEOUT": "soon"}),
    Case("history", ["ingest", "--db", "postgresql://[bad", "--results", "{fx}/pocl/results.json"], r"cannot connect to"),
    Case("history", ["ingest", "--db", "postgresql://nobody@127.0.0.1:9/x", "--results", "{fx}/pocl/results.json"],
         r"cannot connect to postgresql://nobody@127\.0\.0\.1:9/x"),
    Case("history", ["ingest", "--db", "{w}/ro/h.sqlite", "--results", "{fx}/pocl/results.json"],
         r"the history .*ro/h\.sqlite is read-only; make the file and its directory writable", readonly="ro",
         files={"ro/h.sqlite": lambda w: open(fx_history(w), "rb").read()}),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{fx}/pocl/results.json"],
         r"the history .*h\.sqlite is locked by another process; wait for it to finish",
         {"h.sqlite": lambda w: open(fx_history(w), "rb").read()}, env={"HARNESS_DB_LOCK_TIMEOUT": "1"}, lock="h.sqlite"),
    Case("history", ["ingest", "--db", "{w}/h.sqlite", "--results", "{fx}/pocl/results.json", "--bench",
                     "{fx}/pocl/bench.json"], r"history: run 1: .*bench\.json: the (disk holding the )?history .*(is full|disk I/O error; check the disk)",
         fsize=100 * 1024,
         changes=history_status("failed"), progress=r"^history: run 1: \d+ tests from "),
    Case("history", ["ingest", "--db", "postgresql://readonly@{pghost}/harness", "--results", "{fx}/pocl/results.json"],
         r"the user may use no schema .*GRANT USAGE, CREATE ON SCHEMA public", needs="postgresql"),
    Case("history", ["ingest", "--db", "postgresql://usageonly@{pghost}/harness", "--results", "{fx}/pocl/results.json"],
         r"the user lacks a privilege \(permission denied for schema public.*GRANT CREATE", needs="postgresql"),
    # --- merge
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/m.json"], r"b\.json: environment\.shard: '4/3' is not a shard",
         {"a.json": shard("1/3"), "b.json": shard("4/3", runs=slice(3, 5))}),
    Case("merge", ["{w}/a.json", "--out", "{w}/m.json"], r"a\.json: environment\.shard: '0/2' is not a shard",
         {"a.json": shard("0/2")}),
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/m.json"],
         r"a\.json is of harness commit 4a1b2c3, .*b\.json of 9f8e7d6: merge the shards of one build",
         {"a.json": shard("1/2"), "b.json": shard("2/2", "9f8e7d6", slice(3, 6))}),
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/m.json"],
         r"a\.json is shard 1/2, .*b\.json is shard 2/3: merge the files of one --shard i/n split",
         {"a.json": shard("1/2"), "b.json": shard("2/3", runs=slice(3, 6))}),
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/m.json"], r"a\.json says it is shard 1/2, .*b\.json says no shard",
         {"a.json": shard("1/2"), "b.json": shard(None, runs=slice(5, 8))}),
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/m.json"], r"shards of 3: missing 3/3; pass each shard once",
         {"a.json": shard("1/3"), "b.json": shard("2/3", runs=slice(3, 6))}),
    Case("merge", ["{w}/a.json", "--out", "{w}/m.json"], r"a\.json: runs\[0\]\.pipeline: is \[\], not a string",
         {"a.json": results(pipeline=[])}),
    Case("merge", ["{w}/a.json", "{w}/b.json", "--out", "{w}/out/m.json"], r"cannot write .*m\.json .*File too large",
         {"a.json": shard("1/2"), "b.json": shard("2/2", runs=slice(3, 20))}, fsize=4096),
    Case("merge", ["{w}/a.json", "--out", "{w}"], r"cannot write .*is a directory",
         {"a.json": shard("1/1")}),
    Case("merge", ["{w}/a.json", "--out", "{w}/m.json", "--frobnicate"], r"unrecognized arguments: --frobnicate; see merge --help",
         {"a.json": shard("1/1")}),
    # --- compare and driver-diff
    Case("compare", ["{w}/a.json", "{fx}/pocl/results.json"], r"a\.json: .*nested deeper",
         {"a.json": '{"runs": %s}' % deep(300000)}),
    Case("compare", ["{w}/a.json", "{fx}/pocl/bench.json"], r"a\.json: benchmarks\[1\]\.real_time: is \"fast\"",
         {"a.json": bench(real_time="fast")}),
    Case("compare", ["{w}/a.json", "{fx}/pocl/bench.json"], r"a\.json: bench context machine\.host: not JSON",
         {"a.json": json.dumps(dict(json.loads(bench()), context={"machine.host": "{cut short"}))}),
    Case("compare", ["{fx}/pocl", "{fx}/oclgrind", "--alpha", "1.5"], r"argument --alpha: '1\.5' is not a number from 0 to 1"),
    Case("compare", ["{fx}/pocl", "{fx}/oclgrind", "--min-effect", "0x1"], r"argument --min-effect: '0x1' is not a number"),
    Case("compare", ["latest~x", "latest", "--db", "{w}/h.sqlite"], r"'latest~x' names no run",
         {"h.sqlite": lambda w: open(fx_history(w), "rb").read()}),
    Case("compare", ["{w}", "{fx}/pocl"], r"directory .* has neither results\.json nor bench\.json"),
    Case("compare", ["7", "8", "--db", "{w}/none.sqlite"], r"no history at .*none\.sqlite"),
    Case("driver-diff", ["{fx}/pocl", "{w}/new.json"], r"new\.json: .*nested deeper",
         {"new.json": '{"environment": %s, "runs": []}' % deep(200000, '{"e":', "}").replace('{"e":}', "{}")}),
    Case("driver-diff", ["{fx}/pocl", "{fx}/oclgrind", "--out", "{w}/f.txt", "--ignore-perf"],
         r"cannot create the directory .*f\.txt: .*f\.txt is a file, not a directory", {"f.txt": "x"}),
    Case("driver-diff", ["{fx}/pocl", "{fx}/oclgrind", "--out", "{w}/rep", "--ignore-perf"],
         r"cannot write .*driver-diff\.(md|html) .*File too large", fsize=1024),
    Case("driver-diff", ["{w}/old.json", "{fx}/pocl/bench.json"], r"old\.json: benchmarks: is \{\}, not a list",
         {"old.json": '{"context": {}, "benchmarks": {}}'}),
    Case("driver-diff", ["latest~1", "latest", "--db", "{w}/h.sqlite"], r"the history has only 0 runs; 'latest~1' does not exist",
         {"h.sqlite": lambda w: open(empty_history(w), "rb").read()}),
    Case("driver-diff", ["{fx}/pocl", "{fx}/oclgrind", "--correction", "bonferroni"],
         r"argument --correction: invalid choice: 'bonferroni'"),
    # --- nightly and dashboard
    Case("nightly", ["--db", "postgresql://nobody@127.0.0.1:9/x", "--bin", "{w}", "--out", "{w}/n", "--dashboard", ""],
         r"cannot connect to postgresql://nobody@127\.0\.0\.1:9/x"),
    Case("nightly", ["--db", "{w}/h.sqlite", "--repetitions", "9.5", "--bin", "{w}"],
         r"argument --repetitions: '9\.5' is not a whole number from 9 to 10000"),
    Case("nightly", ["--db", "{w}/h.sqlite", "--bin", "{w}/bin", "--out", "{w}/n", "--dashboard", ""],
         r"nightly: run 1 failed: aot-harness list --json: arrays and objects nested deeper", {
             "bin/aot-harness": "#!/bin/sh\necho '%s'\n" % deep(5000)}, changes=history_status("failed")),
    Case("nightly", ["--db", "{w}/h.sqlite", "--min-time", "0x1", "--bin", "{w}"], r"argument --min-time: '0x1' is not"),
    Case("nightly", ["--db", "{w}/h.sqlite", "--build-status", "300", "--bin", "{w}"],
         r"argument --build-status: '300' is not a whole number from 0 to 255"),
    Case("dashboard", ["--db", "{w}/h.sqlite", "--out", "{w}/f.txt"], r"cannot write the dashboard to .*f\.txt: it is a file",
         {"f.txt": "x", "h.sqlite": lambda w: open(fx_history(w), "rb").read()}),
    Case("dashboard", ["--db", "{w}/h.sqlite", "--out", "{w}/d"], r"is not a SQLite database or is damaged",
         {"h.sqlite": b"\x00" * 4096}),
    Case("dashboard", ["--db", "{w}/h.sqlite", "--runs", "0"], r"argument --runs: '0' is not a whole number from 1"),
    Case("dashboard", ["--db", "{w}/h.sqlite", "--out", "{w}/d"],
         r"h\.sqlite: test \d+ of run \d+: not valid JSON .*ingest that run again",
         {"h.sqlite": lambda w: open(fx_history(w, damage=True), "rb").read()}),
    # --- lava-job: device types, bundles, shards, --fetch
    Case("lava-job", LAVA + [TYPES, "{w}/t.json", "--device-type", "rig"], r"t\.json: rig\.bundle: 'push' is neither overlay",
         {"b.tar.gz": bundle(), "t.json": '{"rig": {"bundle": "push", "path": "/opt/a", "deploy": {}, "boot": {}}}'}),
    Case("lava-job", LAVA + [TYPES, "{w}/t.json", "--device-type", "rig"], r"t\.json: rig\.deploy: is \[\], not an object",
         {"b.tar.gz": bundle(), "t.json": '{"rig": {"bundle": "fetch", "path": "/opt/a", "deploy": [], "boot": {}}}'}),
    Case("lava-job", LAVA + [TYPES, "{w}/t.json", "--device-type", "rig"], r"t\.json: rig\.boots: unknown key; use one of",
         {"b.tar.gz": bundle(), "t.json": '{"rig": {"bundle": "fetch", "path": "/a", "deploy": {}, "boots": {}}}'}),
    Case("lava-job", LAVA + [TYPES, "{w}/t.json", "--device-type", "ssh"], r"t\.json: .*nested deeper",
         {"b.tar.gz": bundle(), "t.json": '{"rig": %s}' % deep(100000)}),
    Case("lava-job", LAVA[:4] + ["--out", "{w}/f.txt", "--device-type", "ssh"], r"cannot create the directory .*f\.txt: .*is a file",
         {"b.tar.gz": bundle(), "f.txt": "x"}),
    Case("lava-job", LAVA + ["--device-type", "ssh"], r"the bundle .*b\.tar\.gz is not a tar archive",
         {"b.tar.gz": os.urandom(300)}),
    Case("lava-job", LAVA + ["--device-type", "ssh"], r"b\.tar\.gz has no out/list\.json",
         {"b.tar.gz": bundle(name="list.json")}),
    Case("lava-job", LAVA + ["--device-type", "ssh"], r"b\.tar\.gz:out/list\.json: pipelines\[0\]\.cases: is \"all\", not a list",
         {"b.tar.gz": bundle(list_json='{"pipelines": [{"name": "p", "profiles": [{"name": "cpu"}], "cases": "all"}]}')}),
    Case("lava-job", LAVA + ["--device-type", "ssh", "--shards", "7"],
         r"--shards 7, but the bundle lists only 5 precommit test\(s\); pass --shards from 1 to 5", {"b.tar.gz": bundle()}),
    Case("lava-job", LAVA + ["--device-type", "ssh", "--shards", "2.0"], r"argument --shards: '2\.0' is not a whole number",
         {"b.tar.gz": bundle()}),
    Case("lava-job", LAVA + ["--device-type", "ssh", "--timeout-minutes", "5"],
         r"argument --timeout-minutes: '5' is not a whole number from 10 to 1440", {"b.tar.gz": bundle()}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"log\.yaml: test edge\.cpu\.small: measurement \"n/a\"",
         {"log.yaml": lava_log([("edge.cpu.small", "pass", "n/a")])}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"],
         r"log\.yaml: the record of edge\.cpu\.small: \(top level\): is \"x\", not an object",
         {"log.yaml": lava_log(records={"edge.cpu.small": "x"})}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"the record of edge\.cpu\.small is damaged",
         {"log.yaml": lava_log(raw_records={"edge.cpu.small": "QUJD"})}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"],
         r"the record of edge\.cpu\.small: runs\[0\]\.case: missing",
         {"log.yaml": lava_log(records={"edge.cpu.small": {"runs": [{"pipeline": "edge", "profile": "cpu",
                                                                      "outcome": "PASS"}]}})}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"log\.yaml is not a LAVA job log",
         {"log.yaml": "job finished\n"}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"log\.yaml: .*nested deeper",
         {"log.yaml": "- {\"lvl\": %s}\n" % deep(70000)}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"jobs\.json: jobs\[0\]\.tests: is 5, not a list",
         {"log.yaml": lava_log(job="j1"), "jobs.json": '{"jobs": [{"name": "j1", "tests": 5}]}'}),
    Case("lava-job", ["--fetch", "{w}/log.yaml", "--out", "{w}/res"], r"cannot write .*File too large",
         {"log.yaml": lava_log(records={"edge.cpu.small": ok_record()})}, fsize=300),
    # --- verdict-diff
    Case("verdict-diff", ["{w}/a.json", "{fx}/pocl/results.json"], r"a\.json: runs\[0\]\.case: missing",
         {"a.json": results(case=None)}),
    Case("verdict-diff", ["{w}/a.json", "{fx}/pocl/results.json"], r"a\.json: .*nested deeper",
         {"a.json": '{"runs": [], "environment": {"x": %s}}' % deep(90000)}),
    Case("verdict-diff", ["{fx}/pocl/results.json"], r"pass two results files, A\.json B\.json"),
    # --- genfuzz
    Case("genfuzz", ["generate", "--seed", "1x", "--count", "3", "--out", "{w}/g"],
         r"argument --seed: '1x' is not a whole number from 0"),
    Case("genfuzz", ["check", "{w}", "--planted", "{w}/p.json"], r"p\.json: not valid JSON", {"p.json": '{"fz1_000": '}),
    Case("genfuzz", ["check", "{w}", "--planted", "{w}/p.json"], r"has no list\.json; run the harness on the generators",
         {"p.json": "{}"}),
    Case("genfuzz", ["generate", "--seed", "1", "--count", "2", "--out", "{w}/f.txt"],
         r"cannot (write|create).*f\.txt", {"f.txt": "x"}),
    # --- explore (before it makes a work dir or builds anything)
    Case("explore", ["--seed", "1x", "--count", "3", "--profile", "opencl"], r"argument --seed: '1x' is not a whole number"),
    Case("explore", ["--seed", "1", "--count", "3", "--profile", "openlc", "--work", "{w}/x"],
         r"--profile openlc: unknown openlc; profiles: cpu, cuda, host"),
    Case("explore", ["--seed", "1", "--count", "3", "--profile", "cpu", "--work", "{w}/x"],
         r"names no profile but cpu \(the oracle\)"),
    Case("explore", ["--seed", "1", "--count", "3", "--profile", "opencl", "--second-driver", "mesa25", "--work", "{w}/x"],
         r"--second-driver mesa25: write NAME=WRAPPER"),
    Case("explore", ["--seed", "1", "--count", "3", "--profile", "opencl", "--known", "{w}/k.json", "--work", "{w}/x"],
         r"k\.json: findings\[0\]\.message: is not a regular expression", {"k.json": json.dumps({"findings": [
             {"runtime": "opencl", "class": "runtime-error", "message": "(", "blame": "halide", "evidence": "x"}]})}),
    Case("explore", ["--seed", "1", "--count", "3", "--profile", "opencl", "--generate-only"],
         r"--generate-only needs --work DIR"),
    # --- flake-check, device-ctest's data side
    Case("flake-check", ["3.5", "--no-build", "--out", "{w}/fc"], r"argument runs: '3\.5' is not a whole number from 1"),
    Case("devicectest", ["junit", "--plan", "{w}/plan.json", "--dir", "{w}"], r"plan\.json: not valid JSON",
         {"plan.json": '{"tests": ['}),
    Case("devicectest", ["junit", "--plan", "{w}/plan.json", "--dir", "{w}"], r"plan\.json: tests: is \{\}, not a list",
         {"plan.json": '{"tests": {}}'}),
]


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
    from . import history
    path = os.path.join(w, ".empty.sqlite")
    history.connect(path).close()
    return path


def fx_history(w, damage=False):
    """A history with the PoCL fixture ingested as two runs (one record's JSON damaged with `damage`); its path."""
    import sqlite3
    from . import history
    path = os.path.join(w, ".src.sqlite")
    con = history.connect(path)
    for _ in range(2):
        rid = history.create_run(con, commit="c", label="t")
        history.ingest_results(con, rid, pocl("results"))
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
