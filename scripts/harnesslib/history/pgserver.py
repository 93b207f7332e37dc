"""A throwaway PostgreSQL server for tests and trials: initdb in a temporary directory, a free port on
127.0.0.1 only (and a socket in the directory), trust authentication, fsync off; removed on stop.
PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user (runuser).

  scripts/pg-scratch start [DIR]   prints PGURL=postgresql://postgres@127.0.0.1:PORT/harness and DIR
  scripts/pg-scratch stop DIR
In Python: `with pgserver.Server() as url: ...`. `available()` says why not when PostgreSQL is absent.
"""

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile


def bindir():
    """Directory of initdb/pg_ctl, newest installed PostgreSQL first; None if there is none."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return d
    w = shutil.which("initdb")
    return os.path.dirname(w) if w else None


def available():
    """None when a throwaway server can be started here, else why not (PostgreSQL or its driver absent)."""
    if not bindir():
        return "PostgreSQL is not installed (no initdb): apt-get install postgresql"
    try:
        import psycopg2  # noqa: F401
    except ImportError:
        return "python3-psycopg2 is not installed: apt-get install python3-psycopg2"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _as_server_user(cmd):
    return ["runuser", "-u", "postgres", "--"] + cmd if os.geteuid() == 0 else cmd


def start(base=None):
    """Starts a server in `base` (a new temporary directory if None); returns (url, base)."""
    why = available()
    if why:
        raise RuntimeError(why)
    b = bindir()
    base = base or tempfile.mkdtemp(prefix="harness-pg-")
    os.makedirs(base, exist_ok=True)
    if os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam("postgres")
        os.chown(base, pw.pw_uid, pw.pw_gid)
    datadir = os.path.join(base, "data")
    run = lambda cmd: subprocess.run(_as_server_user(cmd), capture_output=True, text=True, timeout=120, cwd=base)
    r = run([os.path.join(b, "initdb"), "-D", datadir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
    if r.returncode != 0:
        raise RuntimeError("initdb failed: " + (r.stderr or r.stdout).strip()[-500:])
    for _attempt in range(5):  # the port may be taken between choosing and binding it
        port = free_port()
        opts = (
            "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=100" % (port, base)
        )
        r = run(
            [
                os.path.join(b, "pg_ctl"),
                "-D",
                datadir,
                "-l",
                os.path.join(base, "server.log"),
                "-o",
                opts,
                "-w",
                "-t",
                "60",
                "start",
            ]
        )
        if r.returncode == 0:
            break
    else:
        log = (
            open(os.path.join(base, "server.log")).read()[-800:]
            if os.path.exists(os.path.join(base, "server.log"))
            else ""
        )
        raise RuntimeError("the server did not start: %s %s" % ((r.stderr or r.stdout).strip()[-300:], log))
    r = run([os.path.join(b, "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "harness"])
    if r.returncode != 0:
        stop(base)
        raise RuntimeError("createdb failed: " + r.stderr.strip()[-300:])
    with open(os.path.join(base, "url"), "w") as f:
        f.write("postgresql://postgres@127.0.0.1:%d/harness\n" % port)
    return "postgresql://postgres@127.0.0.1:%d/harness" % port, base


def stop(base):
    """Stops the server in `base` and removes the directory."""
    datadir = os.path.join(base, "data")
    if os.path.exists(os.path.join(datadir, "postmaster.pid")):
        subprocess.run(
            _as_server_user([os.path.join(bindir(), "pg_ctl"), "-D", datadir, "-m", "immediate", "-w", "stop"]),
            capture_output=True,
            timeout=120,
            cwd=base,
        )
    keep = os.environ.get("PG_SCRATCH_KEEP_LOG")  # for debugging: where to copy the server's log
    if keep and os.path.exists(os.path.join(base, "server.log")):
        shutil.copyfile(os.path.join(base, "server.log"), keep)
    shutil.rmtree(base, ignore_errors=True)


class Server:
    """`with Server() as url:` a running throwaway server, stopped and removed afterwards."""

    def __enter__(self):
        self.url, self.base = start()
        return self.url

    def __exit__(self, *exc):
        stop(self.base)
        return False


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("start", "stop") or (argv[0] == "stop" and len(argv) != 2):
        print("usage: scripts/pg-scratch start [DIR] | stop DIR", file=sys.stderr)
        return 2
    if argv[0] == "stop":
        if not os.path.exists(os.path.join(argv[1], "data")):
            print(
                "pg-scratch: %s holds no server (expected %s/data); nothing stopped" % (argv[1], argv[1]),
                file=sys.stderr,
            )
            return 2
        stop(argv[1])
        return 0
    why = available()
    if why:
        print("pg-scratch: " + why, file=sys.stderr)
        return 77
    try:
        url, base = start(argv[1] if len(argv) > 1 else None)
    except RuntimeError as e:
        print("pg-scratch: %s" % e, file=sys.stderr)
        return 1
    print("PGURL=%s\nPGSCRATCH=%s" % (url, base))
    return 0


if __name__ == "__main__":
    from .. import toolmain

    sys.exit(toolmain.run("pg-scratch", main))
