"""The nine classes of bad input of issue 29, tried on one build: probe_classes.py HARNESS SCRIPTS_DIR [GOLDEN]
(HARNESS: an aot-harness binary; SCRIPTS_DIR: a scripts/ directory of the same commit; GOLDEN: golden/).
Prints one row per probe: class, probe, exit status (or signal), stderr lines, whether a Python traceback
showed, what was left behind, and the first stderr line. Needs root for the full-disk tmpfs and the
read-only mount (the rows say "no root" otherwise) and scripts/pg-scratch for the PostgreSQL row.
This is the evidence of the before/after table in before-after.txt; the precommit corpus is
scripts/harnesslib/badinput_test.py (cases of its own)."""
import base64
import glob
import gzip
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time

HARNESS, SCRIPTS = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
GOLDEN = os.path.abspath(sys.argv[3] if len(sys.argv) > 3 else os.path.join(SCRIPTS, "..", "golden"))
FIX = os.path.join(SCRIPTS, "fixtures")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
DEEP = 300000
rows = []


def deep(prefix, suffix):
    return prefix + "[" * DEEP + "]" * DEEP + suffix


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w" if isinstance(text, str) else "wb") as f:
        f.write(text)
    return path


def tmpfs(path, size="48k", ro=False):
    os.makedirs(path, exist_ok=True)
    opts = "size=%s%s" % (size, ",ro" if ro else "")
    return subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", path], capture_output=True).returncode == 0


def fill_up(path):
    """Leave the file system of `path` (a small tmpfs) with a few bytes free."""
    try:
        with open(os.path.join(path, ".filler"), "wb", buffering=0) as f:
            while True:
                f.write(b"x" * 1024)
    except OSError:
        pass


def files_below(d):
    return sorted(os.path.relpath(os.path.join(r, n), d) for r, _, ns in os.walk(d) for n in ns)


def probe(cls, name, cmd, cwd, env=None, watch=(), expect_left=(), timeout=300, stdin=None):
    """Runs cmd; `watch`: directories whose new files count as left behind (minus expect_left)."""
    before = {d: set(files_below(d)) for d in watch}
    e = dict(os.environ, PYTHONPATH=SCRIPTS, **(env or {}))
    try:
        p = subprocess.run(cmd, cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout, stdin=stdin)
        status = "exit %d" % p.returncode if p.returncode >= 0 else "signal %s" % signal.Signals(-p.returncode).name
        err = p.stderr
    except subprocess.TimeoutExpired:
        status, err = "timeout %ds" % timeout, ""
    left = []
    for d in watch:
        left += [os.path.join(os.path.basename(d), f) for f in sorted(set(files_below(d)) - before[d])
                 if not any(f.startswith(x) for x in expect_left)]
    lines = [l for l in err.splitlines() if l.strip()]
    rows.append((cls, name, status, len(lines), "yes" if "Traceback" in err else "", ", ".join(left)[:60],
                 (lines[0] if lines else "")[:150]))


def tar_bundle(path, tests):
    pipes = {}
    for t in tests:
        p, prof, case = t.split("/")
        e = pipes.setdefault(p, {"name": p, "profiles": [], "cases": []})
        if {"name": prof} not in e["profiles"]:
            e["profiles"].append({"name": prof})
        if {"name": case} not in e["cases"]:
            e["cases"].append({"name": case})
    raw = json.dumps({"pipelines": list(pipes.values())}).encode()
    with tarfile.open(path, "w:gz") as tf:
        info = tarfile.TarInfo("out/list.json")
        info.size = len(raw)
        tf.addfile(info, io.BytesIO(raw))


def lava_log(path, job, results, recs, finished, printed=None):
    """A LAVA log: `printed` (what the job's echo steps print; by default only AOTH-JOB), the records, the
    lava-test-case results, and LAVA's job result when `finished`."""
    lines = ["- " + json.dumps({"dt": "t", "lvl": "target", "msg": m}) for m in printed or ["AOTH-JOB " + job]]
    for name, rec in recs.items():
        b = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
        lines.append("- " + json.dumps({"dt": "t", "lvl": "target", "msg": "AOTH-REC %s gz %s" % (name, b)}))
    for name, result, meas in results:
        lines.append("- " + json.dumps({"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness",
                                        "case": name, "result": result, "measurement": meas, "units": "seconds"}}))
    if finished:
        lines.append("- " + json.dumps({"dt": "t", "lvl": "results", "msg": {"definition": "lava", "case": "job",
                                                                             "result": "pass"}}))
    write(path, "\n".join(lines) + "\n")


def record(p, prof, case, outcome="PASS"):
    return {"environment": {}, "runs": [{"pipeline": p, "profile": prof, "case": case, "mode": "host",
                                         "outcome": outcome, "message": "m"}]}


def main():
    root = os.path.realpath(tempfile.mkdtemp(prefix="probe-classes."))
    mounts = []
    is_root = os.geteuid() == 0
    try:
        w = os.path.join(root, "w")
        os.makedirs(w)
        g = os.path.join(w, "golden")
        shutil.copytree(GOLDEN, g)
        run1 = [HARNESS, "run", "--pipeline", "brighten", "--profile", "cpu", "--case", "small", "--golden-dir", g]
        # 1. deep JSON
        m = json.load(open(os.path.join(g, "MANIFEST.json")))
        text = json.dumps(m)
        shutil.copytree(g, os.path.join(w, "gdeep"))
        write(os.path.join(w, "gdeep", "MANIFEST.json"),
              text.replace('"goldens": [{', '"goldens": [{"reference_check": {"x": %s}, ' % deep("", ""), 1))
        probe(1, "golden verify, deep MANIFEST.json", [HARNESS, "golden", "verify", "--golden-dir",
                                                        os.path.join(w, "gdeep")], w)
        write(os.path.join(w, "x.json"), '{"xfail": [{"reason": "r", "outcomes": [%s]}]}' % deep("", ""))
        probe(1, "run --xfail, deep", run1 + ["--xfail", os.path.join(w, "x.json")], w)
        write(os.path.join(w, "b.json"), '{"format": "aot-harness-baseline", "version": 1, "failures": %s}'
              % deep("", ""))
        probe(1, "run --baseline, deep", run1 + ["--baseline", os.path.join(w, "b.json")], w)
        write(os.path.join(w, "r.json"), '{"environment": {"a": %s}, "runs": []}' % deep("", ""))
        probe(1, "report --results, deep", [HARNESS, "report", "--results", os.path.join(w, "r.json"), "--out",
                                            os.path.join(w, "rep")], w, watch=[w])
        # 2. type errors
        write(os.path.join(w, "b2.json"), '{"format": 7, "version": 1}')
        probe(2, "run --baseline, format is a number", run1 + ["--baseline", os.path.join(w, "b2.json")], w)
        write(os.path.join(w, "b3.json"), '{"format": "aot-harness-baseline", "version": "1"}')
        probe(2, "run --baseline, version is a string", run1 + ["--baseline", os.path.join(w, "b3.json")], w)
        write(os.path.join(w, "x2.json"), '{"xfail": [{"reason": "r", "platfrom": "x"}]}')
        probe(2, "run --xfail, unknown key", run1 + ["--xfail", os.path.join(w, "x2.json")], w)
        # 3. missing --xfail, --golden-dir a file
        probe(3, "run --xfail missing.json", run1 + ["--xfail", os.path.join(w, "missing.json")], w)
        probe(3, "run --golden-dir FILE", run1[:-1] + [os.path.join(w, "x.json")], w)
        # 4. TMPDIR, signals
        t = os.path.join(w, "tmpdir")
        os.makedirs(t)
        spy = write(os.path.join(w, "spy.sh"), '#!/bin/sh\necho "$@" >> %s/child-args.txt\nexec "$@"\n' % w)
        os.chmod(spy, 0o755)
        probe(4, "run with TMPDIR=w/tmpdir: where is the temp dir?", run1, w,
              env={"TMPDIR": t, "HARNESS_EXEC_WRAPPER": spy})
        args = open(os.path.join(w, "child-args.txt")).read().split()
        rec_path = args[args.index("--record") + 1]
        rows[-1] = rows[-1][:5] + ("in TMPDIR" if rec_path.startswith(t + "/") else "NOT in TMPDIR: " +
                                   os.path.dirname(rec_path),) + rows[-1][6:]
        hang = write(os.path.join(w, "hang.sh"), "#!/bin/sh\nwhile :; do sleep 1; done\n")
        os.chmod(hang, 0o755)
        t2 = os.path.join(w, "tmpdir2")
        os.makedirs(t2)
        before_tmp = set(glob.glob("/tmp/aot-harness.*"))
        p = subprocess.Popen([HARNESS, "run", "--pipeline", "blur3x3", "--profile", "cpu", "--jobs", "2", "--golden-dir",
                              g], env=dict(os.environ, HARNESS_EXEC_WRAPPER=hang, TMPDIR=t2), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        time.sleep(3)
        p.send_signal(signal.SIGTERM)
        p.wait()
        time.sleep(0.5)
        left = sorted(set(glob.glob("/tmp/aot-harness.*")) - before_tmp) + [os.path.join("tmpdir2", x) for x in
                                                                            os.listdir(t2)]
        rows.append((4, "run --jobs 2, SIGTERM", "signal %s" % signal.Signals(-p.returncode).name
                     if p.returncode < 0 else "exit %d" % p.returncode, 0, "", ", ".join(left)[:60], ""))
        for d in left:
            shutil.rmtree(d if d.startswith("/") else os.path.join(w, d), ignore_errors=True)
        # 5. numbers
        for opt, val in (("--jobs", "2.5"), ("--repeats", "2.9"), ("--jobs", "0x10"), ("--timeout", "0x10")):
            probe(5, "run %s %s" % (opt, val), run1 + [opt, val], w)
        # 6. Python tools, history
        hist = [PY, "-m", "harnesslib.history"]
        write(os.path.join(w, "schema.json"), '{"runs": [1, 2]}')
        db = os.path.join(w, "h.sqlite")
        probe(6, "history ingest, runs are numbers", hist + ["ingest", "--db", db, "--results",
                                                             os.path.join(w, "schema.json")], w)
        out = subprocess.run(hist + ["list", "--db", db], env=dict(os.environ, PYTHONPATH=SCRIPTS), capture_output=True,
                             text=True).stdout
        rows.append((6, "  ... history list afterwards", "", 0, "", "", " | ".join(out.splitlines())[:150]))
        write(os.path.join(w, "corrupt.sqlite"), b"SQLite format 3\x00" + os.urandom(4096))
        probe(6, "history list, corrupt SQLite", hist + ["list", "--db", os.path.join(w, "corrupt.sqlite")], w)
        locked = os.path.join(w, "locked.sqlite")
        subprocess.run(hist + ["ingest", "--db", locked, "--results", os.path.join(FIX, "pocl", "results.json")],
                       env=dict(os.environ, PYTHONPATH=SCRIPTS), capture_output=True)
        holder = subprocess.Popen([PY, "-c", "import sqlite3,time,sys; c=sqlite3.connect(sys.argv[1]); "
                                   "c.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(60)", locked],
                                  stdout=subprocess.PIPE, text=True)
        holder.stdout.readline()
        probe(6, "history ingest, locked SQLite (timeout 2 s)", hist + ["ingest", "--db", locked, "--results",
                                                                        os.path.join(FIX, "pocl", "results.json")], w,
              env={"HARNESS_DB_LOCK_TIMEOUT": "2"}, timeout=200)
        holder.kill()
        holder.wait()
        big = json.load(open(os.path.join(FIX, "pocl", "bench.json")))
        big["benchmarks"][0]["iterations"] = 10 ** 30
        write(os.path.join(w, "overflow.json"), json.dumps(big))
        db2 = os.path.join(w, "h2.sqlite")
        probe(6, "history ingest, iterations 10^30", hist + ["ingest", "--db", db2, "--results",
                                                             os.path.join(FIX, "pocl", "results.json"), "--bench",
                                                             os.path.join(w, "overflow.json")], w)
        out = subprocess.run(hist + ["list", "--db", db2], env=dict(os.environ, PYTHONPATH=SCRIPTS),
                             capture_output=True, text=True).stdout
        rows.append((6, "  ... history list afterwards", "", 0, "", "", " | ".join(out.splitlines())[:150]))
        probe(6, "nightly --db bad URL", [PY, "-m", "harnesslib.nightly", "--db", "postgresql://nobody@127.0.0.1:1/x",
                                          "--bin", w, "--out", os.path.join(w, "n"), "--dashboard", ""], w)
        probe(6, "nightly --db postgres://[bad", [PY, "-m", "harnesslib.nightly", "--db", "postgresql://[bad",
                                                  "--bin", w, "--out", os.path.join(w, "n"), "--dashboard", ""], w)
        if is_root:
            ro = os.path.join(root, "ro")
            if tmpfs(ro, "8m"):
                mounts.append(ro)
                shutil.copy(locked, os.path.join(ro, "h.sqlite"))
                subprocess.run(["mount", "-o", "remount,ro", ro])
                probe(6, "history ingest, SQLite on a read-only mount", hist + [
                    "ingest", "--db", os.path.join(ro, "h.sqlite"), "--results", os.path.join(FIX, "pocl", "results.json")], w)
            full = os.path.join(root, "full")
            if tmpfs(full, "4m"):
                mounts.append(full)
                shutil.copy(locked, os.path.join(full, "h.sqlite"))
                fill_up(full)
                probe(6, "history ingest, disk full", hist + ["ingest", "--db", os.path.join(full, "h.sqlite"),
                                                              "--bench", os.path.join(FIX, "pocl", "bench.json")], w)
                os.remove(os.path.join(full, ".filler"))
        else:
            rows.append((6, "read-only / full SQLite", "no root", 0, "", "", ""))
        pg = subprocess.run([os.path.join(SCRIPTS, "pg-scratch"), "start"], capture_output=True, text=True)
        if pg.returncode == 0:
            env = dict(l.split("=", 1) for l in pg.stdout.split() if "=" in l)
            url = env.get("PGURL", "")
            import psycopg2
            c = psycopg2.connect(url)
            c.autocommit = True
            c.cursor().execute("CREATE ROLE nopriv LOGIN")
            c.cursor().execute("REVOKE ALL ON SCHEMA public FROM PUBLIC")
            c.close()
            probe(6, "history ingest, PostgreSQL user without privileges", hist + [
                "ingest", "--db", url.replace("postgres@", "nopriv@"), "--results",
                os.path.join(FIX, "pocl", "results.json")], w)
            subprocess.run([os.path.join(SCRIPTS, "pg-scratch"), "stop", env.get("PGSCRATCH", "")],
                           capture_output=True)
        else:
            rows.append((6, "PostgreSQL without privileges", "no server: " + pg.stderr.strip()[:40], 0, "", "", ""))
        # 7. merge
        merge = [PY, "-m", "harnesslib.merge"]
        res = json.load(open(os.path.join(FIX, "pocl", "results.json")))
        parts = []
        for i, shard in enumerate(("1/2", "2/2", "3/2")):
            d = {"environment": dict(res["environment"], shard=shard, harness_git_commit="c0ffee"),
                 "runs": res["runs"][i::3]}
            parts.append(write(os.path.join(w, "s%d.json" % i), json.dumps(d)))
        probe(7, "merge shards 1/2 2/2 3/2", merge + parts + ["--out", os.path.join(w, "m.json")], w)
        d = json.load(open(parts[1]))
        d["environment"]["harness_git_commit"] = "deadbeef"
        write(parts[1], json.dumps(d))
        probe(7, "merge shards of two commits", merge + parts[:2] + ["--out", os.path.join(w, "m.json")], w)
        if is_root:
            full = os.path.join(root, "full2")
            if tmpfs(full, "24k"):
                mounts.append(full)
                d["environment"]["harness_git_commit"] = "c0ffee"
                write(parts[1], json.dumps(d))
                fill_up(full)
                os.remove(os.path.join(full, ".filler"))
                write(os.path.join(full, ".filler"), b"x" * (20 * 1024))
                probe(7, "merge, disk full", merge + parts[:2] + ["--out", os.path.join(full, "m.json")], w,
                      watch=[full], expect_left=(".filler",))
        # 8. driver-diff
        dd = [PY, "-m", "harnesslib.driverdiff"]
        probe(8, "driver-diff, deep JSON", dd + [os.path.join(FIX, "pocl", "results.json"), os.path.join(w, "r.json")], w)
        if is_root:
            full = os.path.join(root, "full3")
            if tmpfs(full, "24k"):
                mounts.append(full)
                write(os.path.join(full, ".filler"), b"x" * (20 * 1024))
                probe(8, "driver-diff --out on a full disk", dd + [os.path.join(FIX, "pocl"), os.path.join(FIX, "oclgrind"),
                                                                   "--out", full, "--ignore-perf"], w, watch=[full],
                      expect_left=(".filler",))
        # 9. lava-job
        lava = [PY, "-m", "harnesslib.lavajob"]
        bundle = os.path.join(w, "bundle.tar.gz")
        tests = ["p/cpu/small", "p/cpu/odd", "p/cpu/large"]
        tar_bundle(bundle, tests)
        base = lava + ["--bundle", bundle, "--bundle-url", "https://x/b.tar.gz"]
        write(os.path.join(w, "types.json"), json.dumps({"board": {"bundle": "fetch", "path": "/tmp/a",
                                                                   "deploy": "ssh", "boot": {"method": "ssh"}}}))
        probe(9, "lava-job, device type with deploy a string", base + ["--device-types", os.path.join(w, "types.json"),
                                                                       "--device-type", "board", "--out",
                                                                       os.path.join(w, "l1")], w)
        probe(9, "lava-job --out FILE", base + ["--device-type", "ssh", "--out", os.path.join(w, "x.json")], w)
        write(os.path.join(w, "notar.tar.gz"), "not a tar file\n")
        probe(9, "lava-job, bundle not a tar", lava + ["--bundle", os.path.join(w, "notar.tar.gz"), "--bundle-url", "u",
                                                       "--device-type", "ssh", "--out", os.path.join(w, "l2")], w)
        probe(9, "lava-job --shards 5 (3 tests)", base + ["--device-type", "ssh", "--shards", "5", "--out",
                                                          os.path.join(w, "l3")], w, watch=[w])
        lava_log(os.path.join(w, "logs1", "job.yaml"), "j1", [("p.cpu.small", "pass", "abc")],
                 {"p.cpu.small": record("p", "cpu", "small")}, True)
        probe(9, "lava-job --fetch, measurement 'abc'", lava + ["--fetch", os.path.join(w, "logs1", "job.yaml"), "--out",
                                                                os.path.join(w, "f1")], w)
        lava_log(os.path.join(w, "logs2", "job.yaml"), "j2", [("p.cpu.small", "pass", "1")], {"p.cpu.small": [1, 2]}, True)
        probe(9, "lava-job --fetch, record is a list", lava + ["--fetch", os.path.join(w, "logs2", "job.yaml"), "--out",
                                                               os.path.join(w, "f2")], w)
        subprocess.run(base + ["--device-type", "ssh", "--out", os.path.join(w, "l4")], capture_output=True,
                       env=dict(os.environ, PYTHONPATH=SCRIPTS))
        # the job as this lava-job writes it (its echo steps' output), the log cut after the first of three
        # tests, no jobs.json beside it
        import yaml
        job = yaml.safe_load(open(os.path.join(w, "l4", "ssh-shard-1-of-1.yaml")))
        steps = job["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
        printed = [x[len("echo "):] for x in steps if x.startswith("echo AOTH-")]
        lava_log(os.path.join(w, "logs3", "job.yaml"), "aot-harness-ssh-shard-1-of-1", [("p.cpu.small", "pass", "1")],
                 {"p.cpu.small": record("p", "cpu", "small")}, False, printed)
        probe(9, "lava-job --fetch, log cut after 1 of 3 tests", lava + ["--fetch", os.path.join(w, "logs3", "job.yaml"),
                                                                        "--out", os.path.join(w, "f3")], w)
        f3 = os.path.join(w, "f3", "results.json")
        if os.path.exists(f3):
            got = json.load(open(f3))
            rows.append((9, "  ... results.json", "", 0, "", "", "%d runs: %s" % (
                len(got.get("runs", [])), ", ".join("%s %s" % (r.get("case"), r.get("outcome")) for r in got["runs"]))))
    finally:
        for mnt in reversed(mounts):
            subprocess.run(["umount", mnt])
        shutil.rmtree(root, ignore_errors=True)
    print("%-5s %-52s %-14s %-5s %-9s %-22s %s" % ("class", "probe", "status", "lines", "traceback", "left behind",
                                                   "first stderr line"))
    for r in rows:
        print("%-5s %-52s %-14s %-5s %-9s %-22s %s" % r)


if __name__ == "__main__":
    main()
