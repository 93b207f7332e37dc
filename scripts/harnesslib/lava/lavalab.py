"""scripts/lava-lab: a throwaway LAVA (lava-server, lava-scheduler, lava-worker, PostgreSQL) in a root file system
of its own, built from Debian packages only, with qemu devices that boot the arm64 root (arm64root.py). Nothing
is installed on this machine: lava-server's packages configure PostgreSQL and a web server, so they live in the
root; PostgreSQL listens on its unix socket only and lava-server (gunicorn) on 127.0.0.1.

  scripts/lava-lab build [--dir DIR]        # mmdebstrap the LAVA root (cached: a second call does nothing)
  scripts/lava-lab boot-files [--dir DIR]   # Image, initrd.gz, rootfs.ext4 of the arm64 root (lavaboot.py)
  scripts/lava-lab up [--dir DIR] [--port N]
      # start PostgreSQL, lava-server on 127.0.0.1:N (default: a free port), the scheduler and a worker;
      # register an admin and its API token, the worker, device type qemu and devices qemu01 (the arm64
      # root on qemu-system-aarch64) and qemu-broken (tag "broken": a device whose qemu cannot start, for
      # testing what an infrastructure failure does; in Maintenance until asked for); prints URL and token file
  scripts/lava-lab manage [--dir DIR] -- ARGS   # `lava-server manage ARGS` inside
  scripts/lava-lab down [--dir DIR]         # stop everything `up` started, unmount
  scripts/lava-lab status [--dir DIR]

DIR defaults to $AOT_HARNESS_LAVA_ROOT, else .deps-arm64/lava in this checkout. The state of a running lab is
DIR/run/aot-harness-lab.json (url, token file, pids). Files the devices download are under DIR/srv/aot-harness
(file:///srv/aot-harness/... in job definitions: the dispatcher runs in the root).
"""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

from . import lavaboot, lavalabroot
from ..arm64 import arm64root, chroot_hold
from .. import data, jsonio, paths, toolmain
from ..history import pgserver

STATE = "run/aot-harness-lab.json"
SRV = "srv/aot-harness"
ENV = ["/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LANG=C.UTF-8"]
DEVICE = """{%% extends 'qemu.jinja2' %%}
{%% set mac_addr = '52:54:00:12:34:%(mac)s' %%}
{%% set memory = 1024 %%}
{%% set netdevice = 'user' %%}
%(extra)s"""
# A device that fails the way broken hardware does: its qemu refuses to start (an unknown machine type), so
# every job on it ends Incomplete with LAVA's infrastructure error.
BROKEN_EXTRA = "{% set machine = 'no-such-board' %}\n"


def default_dir():
    return os.environ.get("AOT_HARNESS_LAVA_ROOT") or os.path.join(paths.project_dir(), ".deps-arm64", "lava")


def inside(root, *cmd, check=True, timeout=600):
    r = subprocess.run(["chroot", root] + ENV + list(cmd), capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise data.InputError(
            "in the LAVA root: %s failed (exit %d): %s"
            % (" ".join(cmd[:4]), r.returncode, " ".join((r.stderr or r.stdout).split())[-400:])
        )
    return r


def manage(root, *args, check=True):
    return inside(root, "lava-server", "manage", *args, check=check)


def read_state(root):
    return jsonio.load_or_none(os.path.join(root, STATE))


def wait_http(url, seconds):
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.time() > deadline:
            raise data.InputError(
                "lava-server did not answer %s within %d s; see the lab's "
                "var/log/lava-server/gunicorn.log" % (url, seconds)
            )
        time.sleep(1)


def _pid(root, name):
    """The pid in the lab's pid file, only while that process still runs with the lab's root as its / (a pid
    file left by a lab that died may name an unrelated process by now)."""
    try:
        with open(os.path.join(root, "run", name + ".pid")) as f:
            pid = int(f.read().split()[0])
        return pid if os.path.realpath("/proc/%d/root" % pid) == os.path.realpath(root) else None
    except (OSError, ValueError, IndexError):
        return None


def up(root, port):
    lavalabroot.check(root)
    st = read_state(root)
    if st and _pid(root, "lava-gunicorn") and chroot_hold._start_time(_pid(root, "lava-gunicorn")):
        return st
    # the root's mounts for as long as the lab runs (a named holder: `down` releases it)
    chroot_hold.hold(os.getpid(), root, binfmt=False, name="lava-lab:" + root)
    t0 = time.time()
    pgv = sorted(os.listdir(os.path.join(root, "etc", "postgresql")))[-1]
    inside(root, "pg_ctlcluster", pgv, "main", "start", check=False)
    inside(root, "sh", "-c", "for i in $(seq 60); do pg_isready -q && exit 0; sleep 1; done; exit 1")
    port = port or pgserver.free_port()
    url = "http://127.0.0.1:%d/" % port
    os.makedirs(os.path.join(root, "var", "log", "lava-server"), exist_ok=True)
    inside(
        root,
        "sh",
        "-c",
        "cd / && gunicorn3 lava_server.wsgi -u lavaserver -g lavaserver --workers 2 "
        "--worker-class eventlet --bind 127.0.0.1:%d --log-file /var/log/lava-server/gunicorn.log --daemon "
        "--pid /run/lava-gunicorn.pid" % port,
    )
    inside(
        root,
        "sh",
        "-c",
        "nohup lava-server manage lava-scheduler --level INFO --log-file "
        "/var/log/lava-server/lava-scheduler.log >/dev/null 2>&1 & echo $! > /run/lava-scheduler.pid",
    )
    wait_http(url + "api/v0.2/", 300)
    token_file, worker_token = register(root)
    fail_stale_jobs(root, url, token_file)
    inside(
        root,
        "sh",
        "-c",
        "mkdir -p /var/log/lava-dispatcher && nohup lava-worker --level INFO --url %s --token %s "
        "--name aoth-worker --log-file /var/log/lava-dispatcher/lava-worker.log >/dev/null 2>&1 & "
        "echo $! > /run/lava-worker.pid" % (url, worker_token),
    )
    st = {
        "url": url,
        "token_file": token_file,
        "port": port,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "seconds_to_start": round(time.time() - t0, 1),
    }
    wait_worker(url, token_file, 120)
    with open(os.path.join(root, STATE), "w") as f:
        json.dump(st, f, indent=1)
    return st


def register(root):
    """The admin, its API token (DIR/srv/aot-harness/admin.token), the worker, device type and devices; each
    only once. Returns (token file on this machine, worker token)."""
    srv = os.path.join(root, SRV)
    os.makedirs(srv, exist_ok=True)
    manage(root, "users", "add", "--superuser", "--staff", "--passwd", "throwaway", "admin", check=False)
    token_file = os.path.join(srv, "admin.token")
    if not os.path.exists(token_file):
        tok = manage(root, "tokens", "add", "--user", "admin").stdout.strip().splitlines()[-1].strip()
        with open(token_file, "w") as f:
            f.write(tok + "\n")
        os.chmod(token_file, 0o600)
    wtok_file = os.path.join(srv, "worker.token")
    if not os.path.exists(wtok_file):
        out = manage(root, "workers", "add", "--description", "aot-harness lab", "aoth-worker").stdout
        wtok = [l.split(":", 1)[1].strip() for l in out.splitlines() if l.startswith("Token:")]
        if not wtok:
            raise data.InputError("lava-server printed no worker token: %s" % " ".join(out.split())[:200])
        with open(wtok_file, "w") as f:
            f.write(wtok[0] + "\n")
        os.chmod(wtok_file, 0o600)
    with open(wtok_file) as f:
        worker_token = f.read().strip()
    manage(root, "device-types", "add", "qemu", check=False)
    manage(root, "device-tags", "add", "broken", check=False)
    ddir = os.path.join(root, "etc", "lava-server", "dispatcher-config", "devices")
    os.makedirs(ddir, exist_ok=True)
    for name, mac, extra in (("qemu01", "59", ""), ("qemu-broken", "5a", BROKEN_EXTRA)):
        with open(os.path.join(ddir, name + ".jinja2"), "w") as f:
            f.write(DEVICE % {"mac": mac, "extra": extra})
        os.chmod(os.path.join(ddir, name + ".jinja2"), 0o644)
        tags = ["--tags", "broken"] if name == "qemu-broken" else []
        manage(root, "devices", "add", "--device-type", "qemu", "--worker", "aoth-worker", name, *tags, check=False)
    manage(root, "devices", "update", "--health", "GOOD", "qemu01", check=False)
    manage(root, "devices", "update", "--health", "MAINTENANCE", "qemu-broken", check=False)
    return token_file, worker_token


def fail_stale_jobs(root, url, token_file):
    """Jobs a previous lab left unfinished (it stopped mid-job: no lava-run is left for them) are marked
    Incomplete; otherwise one stays Running on its device for ever and every new job waits behind it."""
    with open(token_file) as f:
        token = f.read().strip()
    req = urllib.request.Request(
        url + "api/v0.2/jobs/?ordering=-id&limit=200", headers={"Authorization": "Token " + token}
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        stale = [j["id"] for j in json.load(r).get("results", []) if j.get("state") != "Finished"]
    for job in stale:
        manage(root, "jobs", "fail", str(job), check=False)
    return stale


def wait_worker(url, token_file, seconds):
    with open(token_file) as f:
        token = f.read().strip()
    deadline = time.time() + seconds
    while time.time() < deadline:
        req = urllib.request.Request(url + "api/v0.2/workers/aoth-worker/", headers={"Authorization": "Token " + token})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                if json.load(r).get("state") == "Online":
                    return
        except (OSError, ValueError):
            pass
        time.sleep(2)
    raise data.InputError(
        "the LAVA worker did not come online within %d s; see the lab's "
        "var/log/lava-dispatcher/lava-worker.log" % seconds
    )


def down(root):
    """Stops what `up` started (worker, scheduler, gunicorn, PostgreSQL, any qemu of a job), unmounts."""
    stopped = []
    for name in ("lava-worker", "lava-scheduler", "lava-gunicorn"):
        pid = _pid(root, name)
        if pid and chroot_hold._start_time(pid):
            os.kill(pid, 15)
            stopped.append(name)
            for _ in range(100):
                if not chroot_hold._start_time(pid):
                    break
                time.sleep(0.1)
            else:
                os.kill(pid, 9)
        with_pidfile = os.path.join(root, "run", name + ".pid")
        if os.path.exists(with_pidfile):
            os.remove(with_pidfile)
    if os.path.isdir(os.path.join(root, "etc", "postgresql")) and chroot_hold.is_mount(os.path.join(root, "proc")):
        pgv = sorted(os.listdir(os.path.join(root, "etc", "postgresql")))[-1]
        if inside(root, "pg_ctlcluster", pgv, "main", "stop", check=False).returncode == 0:
            stopped.append("postgresql")
    left = chroot_hold.processes_in(root)
    for pid in left:  # a job's qemu, a gunicorn worker: anything still running with the root as its /
        os.kill(pid, 9)
    chroot_hold.release(name="lava-lab:" + root)
    if os.path.exists(os.path.join(root, STATE)):
        os.remove(os.path.join(root, STATE))
    return "stopped %s%s; unmounted" % (
        ", ".join(stopped) or "nothing",
        "; killed %d left over" % len(left) if left else "",
    )


def main(argv=None):
    ap = data.arg_parser("lava-lab", __doc__)
    ap.add_argument("command", choices=("build", "boot-files", "up", "down", "manage", "status"))
    ap.add_argument("--dir", default=None, help="the LAVA root (default %s)" % default_dir())
    ap.add_argument(
        "--arm64-root", default=None, help="boot-files: the arm64 root (default %s)" % arm64root.default_root()
    )
    ap.add_argument("--port", type=toolmain.whole(1024, 65535), default=None, help="up: lava-server's port")
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)  # manage: lava-server manage's arguments after "--"
    a = ap.parse_args(argv[:cut])
    a.args = argv[cut + 1 :]
    toolmain.handle_signals()
    root = os.path.abspath(a.dir or default_dir())
    if a.command == "build":
        print("lava-lab: " + lavalabroot.build(root))
    elif a.command == "boot-files":
        print(
            "lava-lab: "
            + lavaboot.make(
                root, os.path.abspath(a.arm64_root or arm64root.default_root()), os.path.join(root, SRV, "arm64")
            )
        )
    elif a.command == "up":
        st = up(root, a.port)
        print(
            "lava-lab: lava-server at %s (API token in %s); device qemu01 (arm64), qemu-broken (tag broken)"
            % (st["url"], st["token_file"])
        )
    elif a.command == "down":
        print("lava-lab: " + down(root))
    elif a.command == "manage":
        lavalabroot.check(root)
        r = manage(root, *a.args, check=False)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        return r.returncode
    else:
        print(
            json.dumps(
                {
                    "dir": root,
                    "state": read_state(root),
                    "stamp": lavalabroot.read_stamp(root),
                    "free": shutil.disk_usage(os.path.dirname(root)).free,
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(toolmain.run("lava-lab", main))
