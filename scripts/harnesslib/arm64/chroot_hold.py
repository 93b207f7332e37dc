"""What running a foreign-architecture root file system needs from the host, held while someone uses it and
undone when the last user is gone: the binfmt_misc entry of Debian's qemu-user-static (qemu-aarch64, flag F:
the kernel opens the emulator when the entry is registered, so it works inside a chroot that has no emulator),
and the root's mounts (/proc, /sys and /dev, which PoCL's hwloc and the drivers read, plus directories of this
machine bound at the same path inside).

binfmt_misc is one per kernel, not per container, and the mounts are seen by every process: so every user
registers itself as a holder (a pid and that process's start time, so that a reused pid is not taken for it),
under one lock, and each release undoes only what this module did and what no live holder still needs. A
holder killed with SIGKILL leaves its file behind; the next hold or release finds its process gone and drops
it. Every mount is made with a slave propagation, so that unmounting it never unmounts anything of the host.

State lives in $AOT_HARNESS_CHROOT_STATE (default /run/aot-harness-chroot): lock, holders/<pid>.json,
state.json {"binfmt_registered", "binfmt_fs_mounted", "mounts": {root: [mount point, ...]}}.
"""

import contextlib
import fcntl
import json
import os
import subprocess

from ..jsonio import InputError

BINFMT_DIR = "/proc/sys/fs/binfmt_misc"
BINFMT_CONF = "/usr/lib/binfmt.d/qemu-aarch64.conf"  # Debian's qemu-user-static: the registration line
BASE_MOUNTS = ("proc", "sys", "dev")


def state_dir():
    return os.environ.get("AOT_HARNESS_CHROOT_STATE") or "/run/aot-harness-chroot"


def _start_time(pid):
    """The process's start time in clock ticks (field 22 of /proc/PID/stat), or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return int(f.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise InputError("%s failed: %s" % (" ".join(cmd), " ".join((r.stderr or r.stdout).split())[:300]))


@contextlib.contextmanager
def _locked():
    d = state_dir()
    os.makedirs(os.path.join(d, "holders"), exist_ok=True)
    with open(os.path.join(d, "lock"), "a") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        yield d


def _read_state(d):
    try:
        with open(os.path.join(d, "state.json")) as f:
            s = json.load(f)
    except (OSError, ValueError):
        s = {}
    s.setdefault("binfmt_registered", False)
    s.setdefault("binfmt_fs_mounted", False)
    s.setdefault("mounts", {})
    return s


def _write_state(d, s):
    tmp = os.path.join(d, "state.json.tmp")
    with open(tmp, "w") as f:
        json.dump(s, f, indent=1)
    os.replace(tmp, os.path.join(d, "state.json"))


def live_holders(d):
    """{holder key: holder} of the named holders and those whose process still runs; the files of the others
    are removed."""
    live = {}
    hdir = os.path.join(d, "holders")
    for name in os.listdir(hdir):
        path = os.path.join(hdir, name)
        try:
            with open(path) as f:
                h = json.load(f)
            alive = bool(h.get("name")) or _start_time(int(h["pid"])) == h["start"]
        except (OSError, ValueError, KeyError, TypeError):
            alive = False
        if alive:
            live[name[: -len(".json")]] = h
        else:
            with contextlib.suppress(OSError):
                os.remove(path)
    return live


# --- binfmt_misc ---------------------------------------------------------------------------------------------


def _registration_line():
    try:
        with open(BINFMT_CONF) as f:
            line = next((l.strip() for l in f if l.startswith(":qemu-aarch64:")), "")
    except OSError:
        line = ""
    if not line:
        raise InputError(
            "%s is missing: the arm64 emulator is not installed; run scripts/setup --arm64-root "
            "(Debian's qemu-user-static)" % BINFMT_CONF
        )
    interp = line.split(":")[-2]
    if not os.path.exists(interp):
        raise InputError(
            "the emulator %s named by %s is missing; reinstall qemu-user-static (scripts/setup "
            "--arm64-root)" % (interp, BINFMT_CONF)
        )
    if "F" not in line.split(":")[-1]:
        line += "F"  # the emulator opened at registration: usable inside a chroot without a copy of it
    return line


def _ensure_binfmt(s):
    if not os.path.exists(os.path.join(BINFMT_DIR, "register")):
        _run(["mount", "-t", "binfmt_misc", "binfmt_misc", BINFMT_DIR])
        s["binfmt_fs_mounted"] = True
    entry = os.path.join(BINFMT_DIR, "qemu-aarch64")
    if os.path.exists(entry):
        with open(entry) as f:
            text = f.read()
        flags = next((l.split(":", 1)[1].strip() for l in text.splitlines() if l.startswith("flags:")), "")
        if not s["binfmt_registered"] and "F" not in flags:
            raise InputError(
                "binfmt_misc already has a qemu-aarch64 entry without flag F (flags '%s'), which "
                "cannot run arm64 programs inside a chroot; remove it (echo -1 > %s) and try again" % (flags, entry)
            )
        if not text.startswith("enabled"):
            raise InputError("the binfmt_misc entry %s is disabled; enable it (echo 1 > %s)" % (entry, entry))
        return
    line = _registration_line()
    with open(os.path.join(BINFMT_DIR, "register"), "w") as f:
        f.write(line)
    s["binfmt_registered"] = True


def _undo_binfmt(s):
    entry = os.path.join(BINFMT_DIR, "qemu-aarch64")
    if s["binfmt_registered"] and os.path.exists(entry):
        with open(entry, "w") as f:
            f.write("-1")
    s["binfmt_registered"] = False
    if s["binfmt_fs_mounted"] and is_mount(BINFMT_DIR):
        others = [n for n in os.listdir(BINFMT_DIR) if n not in ("register", "status")]
        if not others:  # someone else's entries keep it mounted
            _run(["umount", BINFMT_DIR])
            s["binfmt_fs_mounted"] = False


# --- mounts --------------------------------------------------------------------------------------------------


def mount_points():
    """Every mount point of this process's namespace (/proc/self/mountinfo; os.path.ismount misses a bind
    mount from the same file system)."""
    with open("/proc/self/mountinfo") as f:
        return {l.split()[4].encode().decode("unicode_escape") for l in f}


def is_mount(path):
    return os.path.realpath(path) in mount_points()


def _inside(root, path):
    return os.path.join(root, path.lstrip("/"))


def _needed(root, binds):
    """Mount points inside `root` (in mounting order) and what each mounts."""
    want = [
        (_inside(root, "proc"), ["-t", "proc", "proc"]),
        (_inside(root, "sys"), ["--rbind", "/sys"]),
        (_inside(root, "dev"), ["--rbind", "/dev"]),
    ]
    for b in binds:
        want.append((_inside(root, b), ["--bind", b]))
    return want


def _ensure_mounts(s, root, binds):
    mine = s["mounts"].setdefault(root, [])
    for mp, how in _needed(root, binds):
        if is_mount(mp):
            continue  # ours already, or someone else's: used as it is, never unmounted here
        os.makedirs(mp, exist_ok=True)
        _run(["mount"] + how + [mp])
        mine.append(mp)
        if how[0] != "-t":
            _run(["mount", "--make-rslave", mp])  # an unmount here never propagates to the host's mounts


def _unmount(mp):
    r = subprocess.run(["umount", "-R", mp], capture_output=True, text=True)
    if r.returncode != 0 and is_mount(mp):
        _run(["umount", "-R", "-l", mp])  # busy (a process still has a file open there): detach it now


def _reconcile(s, live):
    """Unmounts what this module mounted and no live holder needs; the binfmt entry when nobody holds."""
    for root, mps in list(s["mounts"].items()):
        needed = set()
        for h in live.values():
            if h.get("root") == root:
                needed |= {mp for mp, _ in _needed(root, h.get("binds", []))}
        for mp in reversed(mps):  # binds before /dev, /sys and /proc: the reverse of mounting
            if mp not in needed and is_mount(mp):
                _unmount(mp)
        kept = [mp for mp in mps if mp in needed]
        if kept:
            s["mounts"][root] = kept
        else:
            del s["mounts"][root]
    if not any(h.get("binfmt", True) for h in live.values()):
        _undo_binfmt(s)


# --- the interface -------------------------------------------------------------------------------------------


def _key(pid, name):
    return "name-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in name) if name else str(pid)


def hold(pid, root=None, binds=(), binfmt=True, name=None):
    """While process `pid` lives (or until release(pid)), or, given a `name`, until release(name=name): the
    binfmt entry (unless `binfmt` is False: a root of this machine's architecture), and `root`'s mounts with
    `binds` (absolute directories of this machine, bound at the same path inside)."""
    if os.geteuid() != 0:
        raise InputError("running a chroot needs root (mount, chroot, binfmt_misc); run as root")
    start = _start_time(pid)
    if start is None:
        raise InputError("process %d does not exist; pass the pid of a running process" % pid)
    binds = [os.path.abspath(b) for b in binds]
    for b in binds:
        if not os.path.isdir(b):
            raise InputError("cannot bind %s into the root: not a directory; pass an existing directory" % b)
    with _locked() as d:
        s = _read_state(d)
        try:
            live = live_holders(d)
            if binfmt:
                _ensure_binfmt(s)
            if root:
                _ensure_mounts(s, os.path.abspath(root), binds)
            h = {
                "pid": pid,
                "start": start,
                "root": os.path.abspath(root) if root else None,
                "binds": binds,
                "binfmt": binfmt,
                "name": name,
            }
            with open(os.path.join(d, "holders", _key(pid, name) + ".json"), "w") as f:
                json.dump(h, f)
        except BaseException:
            _reconcile(s, live)  # nothing half made stays behind
            _write_state(d, s)
            raise
        _write_state(d, s)


def release(pid=None, name=None):
    with _locked() as d:
        with contextlib.suppress(OSError):
            os.remove(os.path.join(d, "holders", _key(pid, name) + ".json"))
        s = _read_state(d)
        _reconcile(s, live_holders(d))
        _write_state(d, s)


def down(force=False):
    """Undoes everything this module made; with live holders only when `force` (their processes are named)."""
    with _locked() as d:
        live = live_holders(d)
        if live and not force:
            raise InputError(
                "still in use by %s; stop them first, or pass --force"
                % ", ".join(h.get("name") or "process %s" % h.get("pid") for h in live.values())
            )
        for key in live:
            with contextlib.suppress(OSError):
                os.remove(os.path.join(d, "holders", key + ".json"))
        s = _read_state(d)
        _reconcile(s, {})
        _write_state(d, s)


def processes_in(root):
    """Pids of the processes whose root directory is `root` (left running in a chroot)."""
    root = os.path.realpath(root)
    pids = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            with contextlib.suppress(OSError):
                if os.readlink("/proc/%s/root" % p) == root:
                    pids.append(int(p))
    return pids


def status():
    with _locked() as d:
        s = _read_state(d)
        return {
            "state_dir": d,
            "holders": live_holders(d),
            "binfmt_registered_here": s["binfmt_registered"],
            "binfmt_entry": os.path.exists(os.path.join(BINFMT_DIR, "qemu-aarch64")),
            "mounts": s["mounts"],
        }
