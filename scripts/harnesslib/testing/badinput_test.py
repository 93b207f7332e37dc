"""The bad-input corpus (badinput_cases.py) against every tool: each case must exit 2 with exactly one line on
stderr that matches its expected problem, no Python traceback, and leave every file as it was (its own
directory, a shared copy of golden/, and its own TMPDIR, which must end empty). A full disk is RLIMIT_FSIZE
(`ulimit -f`, SIGXFSZ ignored); a read-only directory is chmod 555, or as root (who writes anyway) a
read-only tmpfs; cases that need what this machine lacks (root's mount, a PostgreSQL server) are counted as
skipped, never as passed. Prints the count of cases per tool.

  python3 -m harnesslib.testing.badinput_test --harness build/bin/aot-harness [--postgresql] [-k REGEX] [-v]
"""

import argparse
import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import badinput_cases as bc, fixtures as fx

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
# The tools run as modules rather than through their scripts/ entry points.
MODULES = {"devicectest": "harnesslib.devices.devicectest", "nightly": "harnesslib.nightly.nightly"}


def snapshot(*dirs):
    """{path: (kind, digest)} of every file and directory below `dirs`."""
    out = {}
    for d in dirs:
        for root, ds, fs in os.walk(d):
            for n in ds:
                out[os.path.join(root, n)] = ("dir", "")
            for n in fs:
                p = os.path.join(root, n)
                with open(p, "rb") as f:
                    out[p] = ("file", hashlib.sha256(f.read()).hexdigest())
    return out


def diff(before, after):
    return (
        ["new " + p for p in sorted(set(after) - set(before))]
        + ["gone " + p for p in sorted(set(before) - set(after))]
        + ["changed " + p for p in sorted(set(before) & set(after)) if before[p] != after[p]]
    )


class ReadOnly:
    """A read-only directory holding `files`: chmod 555, or as root a tmpfs mounted read-only."""

    def __init__(self, path, files):
        self.path, self.mounted = path, False
        os.makedirs(path, exist_ok=True)
        if os.geteuid() == 0:
            if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", path], capture_output=True).returncode:
                raise OSError("cannot mount a tmpfs (root without CAP_SYS_ADMIN)")
            self.mounted = True
        for rel, raw in files.items():
            with open(os.path.join(path, rel), "wb") as f:
                f.write(raw)
        if self.mounted:
            if subprocess.run(["mount", "-o", "remount,ro", path], capture_output=True).returncode:
                raise OSError("cannot remount the tmpfs read-only")
        else:
            os.chmod(path, 0o555)
            for rel in files:
                os.chmod(os.path.join(path, rel), 0o444)

    def close(self):
        if self.mounted:
            subprocess.run(["umount", self.path], capture_output=True)
        else:
            os.chmod(self.path, 0o755)


def command(case, harness):
    if case.tool == "aot-harness":
        return [harness]
    if case.tool in MODULES:  # scripts/nightly would build first
        return [PY, "-m", MODULES[case.tool]]
    return [os.path.join(fx.SCRIPTS, case.tool)]


def run_case(i, case, harness, root, golden, pg):
    """'' when the case is clean, 'SKIP: why' when it cannot run here, else what went wrong."""
    if case.needs == "postgresql" and not pg:
        return "SKIP: needs a PostgreSQL server (--postgresql, scripts/pg-scratch)"
    w, tmp = os.path.join(root, "case%d" % i), os.path.join(root, "case%d.tmp" % i)
    os.makedirs(w)
    os.makedirs(tmp)
    sub = lambda s: s.format(w=w, g=golden, fx=fx.FIXTURES, pghost=pg or "")
    ro_files, ro = {}, None
    try:
        for rel, content in case.files.items():
            raw = content(w) if callable(content) else content
            raw = raw.encode() if isinstance(raw, str) else raw
            if case.readonly and rel.startswith(case.readonly + "/"):
                ro_files[rel[len(case.readonly) + 1 :]] = raw
                continue
            path = os.path.join(w, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(raw)
            if rel.startswith("bin/"):
                os.chmod(path, 0o755)
        if case.readonly:
            try:
                ro = ReadOnly(os.path.join(w, case.readonly), ro_files)
            except OSError as e:
                return "SKIP: no read-only directory here (%s)" % e
        watched = [w, tmp] + ([golden] if case.tool == "aot-harness" else [])
        before = snapshot(*watched)
        env = dict(
            os.environ, TMPDIR=tmp, PYTHONDONTWRITEBYTECODE="1", HARNESS_DB_LOCK_TIMEOUT="5", PYTHONPATH=fx.SCRIPTS
        )
        env.pop("HARNESS_TRACEBACK", None)
        env.update({k: sub(v) for k, v in case.env.items()})

        def limits():
            if case.fsize:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
                resource.setrlimit(resource.RLIMIT_FSIZE, (case.fsize, case.fsize))

        holder = None
        if case.lock:  # another process holds the database: BEGIN EXCLUSIVE, until the case is over
            holder = subprocess.Popen(
                [
                    PY,
                    "-c",
                    "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1]); "
                    "c.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(120)",
                    os.path.join(w, case.lock),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            holder.stdout.readline()
        p = subprocess.Popen(
            command(case, harness) + [sub(a) for a in case.args],
            cwd=w,
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            errors="replace",
            preexec_fn=limits,
            start_new_session=True,
        )
        try:
            p.stderr_text = p.communicate(timeout=60)[1]
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return "still running after 60 s (killed): the bad input was not refused"
        finally:
            if holder:
                holder.kill()
                holder.wait()
        p.stderr = p.stderr_text
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        errors = [l for l in lines if not (case.progress and re.search(case.progress, l))]
        problems = []
        if p.returncode != case.code:
            problems.append("exit %d, want %d" % (p.returncode, case.code))
        if "Traceback" in p.stderr:
            problems.append("a Python traceback")
        if len(errors) != 1:
            problems.append("%d lines on stderr, want 1" % len(errors))
        elif not re.search(case.expect, errors[0]):
            problems.append("the line does not match /%s/" % case.expect)
        changed = diff(before, snapshot(*watched))
        if ro:
            ro.close()
            ro = None
        if case.changes:  # the case changes its history on purpose (a run marked failed): checked by it
            changed = [c for c in changed if not c.startswith(("new " + w, "changed " + w)) or ".tmp" in c]
            why = case.changes(w)
            if why:
                problems.append(why)
        if changed:
            problems.append("left behind or changed: " + ", ".join(x.replace(root + "/", "") for x in changed[:5]))
        if problems:
            return "; ".join(problems) + "\n      stderr: " + "\n      ".join(lines[:4] or ["(none)"])
        return ""
    finally:
        if ro:
            ro.close()


def nightly_sigterm(root):
    """SIGTERM to a nightly while its harness runs: exit 128+15, one line, the run marked interrupted (not left
    'running'), the harness child gone, TMPDIR empty. '' or what went wrong."""
    import sqlite3

    w, tmp = os.path.join(root, "sigterm"), os.path.join(root, "sigterm.tmp")
    os.makedirs(os.path.join(w, "bin"))
    os.makedirs(tmp)
    fake = os.path.join(w, "bin", "aot-harness")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho $$ > %s/harness.pid\nexec sleep 60\n" % w)
    os.chmod(fake, 0o755)
    env = dict(os.environ, TMPDIR=tmp, PYTHONPATH=fx.SCRIPTS, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.Popen(
        [
            PY,
            "-m",
            "harnesslib.nightly.nightly",
            "--db",
            os.path.join(w, "h.sqlite"),
            "--bin",
            os.path.join(w, "bin"),
            "--out",
            os.path.join(w, "n"),
            "--dashboard",
            "",
        ],
        cwd=w,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    for _ in range(300):
        if os.path.exists(os.path.join(w, "harness.pid")):
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=60)[1]
    problems = []
    if p.returncode != 128 + signal.SIGTERM:
        problems.append("exit %d, want %d" % (p.returncode, 128 + signal.SIGTERM))
    lines = [l for l in err.splitlines() if l.strip()]
    if lines != ["nightly: interrupted by signal 15"]:
        problems.append("stderr %r" % lines)
    rows = sqlite3.connect(os.path.join(w, "h.sqlite")).execute("SELECT status, note FROM runs").fetchall()
    if rows != [("interrupted", "signal 15")]:
        problems.append("runs %r, want one interrupted by signal 15" % rows)
    try:
        with open(os.path.join(w, "harness.pid")) as f:
            os.kill(int(f.read()), 0)
        problems.append("the harness child is still running")
    except (OSError, ValueError):
        pass
    if os.listdir(tmp):
        problems.append("TMPDIR holds %s" % os.listdir(tmp))
    return "; ".join(problems)


def start_postgresql():
    """(host:port, stop) of a throwaway server with roles that may connect but create nothing: `readonly` (no
    schema at all) and `usageonly` (USAGE but not CREATE on public)."""
    r = subprocess.run([os.path.join(fx.SCRIPTS, "pg-scratch"), "start"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, None
    env = dict(l.split("=", 1) for l in r.stdout.split() if "=" in l)
    import psycopg2

    con = psycopg2.connect(env["PGURL"])
    con.autocommit = True
    for sql in (
        "CREATE ROLE readonly LOGIN",
        "CREATE ROLE usageonly LOGIN",
        "REVOKE ALL ON SCHEMA public FROM PUBLIC",
        "GRANT USAGE ON SCHEMA public TO usageonly",
    ):
        con.cursor().execute(sql)
    con.close()
    host = env["PGURL"].split("@", 1)[1].split("/", 1)[0]
    return host, lambda: subprocess.run(
        [os.path.join(fx.SCRIPTS, "pg-scratch"), "stop", env["PGSCRATCH"]], capture_output=True
    )


def main(argv=None):
    ap = argparse.ArgumentParser(prog="badinput_test", description=__doc__.split("\n\n")[0])
    ap.add_argument("--harness", required=True, help="the aot-harness binary")
    ap.add_argument("--postgresql", action="store_true", help="also the cases that need a throwaway PostgreSQL")
    ap.add_argument("-k", default="", help="only the cases whose tool or expected line matches this regex")
    ap.add_argument("-v", action="store_true", help="print every case")
    args = ap.parse_args(argv)
    root = os.path.realpath(tempfile.mkdtemp(prefix="badinput."))
    pg, stop_pg = start_postgresql() if args.postgresql else (None, None)
    counts, failed, t0 = {}, 0, time.time()
    try:
        golden = os.path.join(root, "golden")
        shutil.copytree(fx.GOLDEN, golden)
        for i, case in enumerate(bc.CASES):
            if args.k and not re.search(args.k, case.tool + " " + case.expect + " " + " ".join(case.args)):
                continue
            why = run_case(i, case, os.path.abspath(args.harness), root, golden, pg)
            c = counts.setdefault(case.tool, {"clean": 0, "failed": 0, "skipped": 0})
            if why.startswith("SKIP"):
                c["skipped"] += 1
            else:
                c["clean" if not why else "failed"] += 1
                failed += bool(why)
            if why or args.v:
                print(
                    "%-4s %s %s: %s"
                    % (
                        "ok" if not why else ("SKIP" if why.startswith("SKIP") else "FAIL"),
                        case.tool,
                        " ".join(case.args)[:90],
                        why or case.expect,
                    )
                )
        if not args.k or re.search(args.k, "nightly SIGTERM"):
            why = nightly_sigterm(root)
            c = counts.setdefault("nightly", {"clean": 0, "failed": 0, "skipped": 0})
            c["clean" if not why else "failed"] += 1
            failed += bool(why)
            if why or args.v:
                print(
                    "%-4s nightly, SIGTERM while the harness runs: %s"
                    % ("ok" if not why else "FAIL", why or "interrupted, recorded")
                )
    finally:
        if stop_pg:
            stop_pg()
        shutil.rmtree(root, ignore_errors=True)
    print("\n%-12s %6s %7s %7s" % ("tool", "clean", "failed", "skipped"))
    for tool, c in counts.items():
        print("%-12s %6d %7d %7d" % (tool, c["clean"], c["failed"], c["skipped"]))
    total = {k: sum(c[k] for c in counts.values()) for k in ("clean", "failed", "skipped")}
    print("%-12s %6d %7d %7d   (%.1f s)" % ("all", total["clean"], total["failed"], total["skipped"], time.time() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
