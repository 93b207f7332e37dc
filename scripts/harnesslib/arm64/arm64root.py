"""scripts/arm64-root: an arm64 Debian root file system with real OpenCL and Vulkan drivers (Debian's arm64 PoCL
and Mesa lavapipe), run on this x86-64 machine through qemu-user (binfmt_misc), so that an aarch64 build of the
harness runs its GPU profiles on real drivers.

  scripts/arm64-root build [--root DIR]          # mmdebstrap --arch=arm64; a second call does nothing
  scripts/arm64-root exec [--root DIR] [--bind DIR]... -- CMD [ARG...]
  scripts/arm64-root hold --pid PID [--root DIR] [--bind DIR]...   # keep mounts + binfmt while PID runs
  scripts/arm64-root release --pid PID
  scripts/arm64-root down [--force]              # unmount and unregister what these commands set up
  scripts/arm64-root status

The root (default $AOT_HARNESS_ARM64_ROOT, else .deps-arm64/root in this checkout) is built once and kept:
its stamp (.aot-harness-root.json) records what it was built from, and a build that finds the same stamp does
nothing; a changed package list or suite rebuilds it beside the old one and swaps. `exec` runs CMD inside
(chroot; the emulator comes from binfmt_misc) in the current directory's place there: a directory under the
root is the same directory inside, one under a --bind DIR is DIR (bound at the same path). The environment
inside is clean (PATH, HOME=/root, so PoCL's kernel cache is the root's /root/.cache/pocl) plus the
harness's and the drivers' variables (AOT_HARNESS_*, HARNESS_* but HARNESS_EXEC_WRAPPER, HL_*, POCL_*,
VK_*, OCL_*, LP_*, MESA_*). While any `exec` or `hold` lasts, the binfmt entry and the root's mounts stay;
the last to leave undoes them (chroot_hold.py). Needs root, and the host packages mmdebstrap,
qemu-user-static and arch-test (scripts/setup --arm64-root installs them and builds the root).
"""

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from . import chroot_hold
from .. import data, jsonio, paths, toolmain

SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
# PoCL 3.1 (OpenCL on the CPU), Mesa's lavapipe (Vulkan on the CPU), their loaders and info tools, and a
# static busybox (mount and an init for booting the same root as a LAVA qemu device).
PACKAGES = [
    "pocl-opencl-icd",
    "ocl-icd-libopencl1",
    "clinfo",
    "mesa-vulkan-drivers",
    "libvulkan1",
    "vulkan-tools",
    "busybox-static",
]
STAMP = ".aot-harness-root.json"
PASS_PREFIXES = ("AOT_HARNESS_", "HARNESS_", "HL_", "POCL_", "VK_", "OCL_", "LP_", "MESA_")
FIX_BUILD = "build it with scripts/setup --arm64-root (or scripts/arm64-root build)"


def default_root():
    return os.environ.get("AOT_HARNESS_ARM64_ROOT") or os.path.join(paths.project_dir(), ".deps-arm64", "root")


def wanted_stamp():
    return {
        "format": 1,
        "arch": "arm64",
        "suite": SUITE,
        "variant": "apt",
        "mirror": os.environ.get("AOT_HARNESS_DEBIAN_MIRROR") or MIRROR,
        "packages": sorted(PACKAGES),
    }


def stamp_matches(stamp, want):
    """The stamp records what `want` asks for (it also holds when and how long the build took)."""
    return isinstance(stamp, dict) and all(stamp.get(k) == v for k, v in want.items())


def read_stamp(root):
    return jsonio.load_or_none(os.path.join(root, STAMP))


def check_root(root):
    """The root exists and was built by `build`; else InputError saying how to make it."""
    if read_stamp(root) is None:
        if os.path.isdir(root):
            raise data.InputError("%s is not a finished arm64 root (no %s); %s" % (root, STAMP, FIX_BUILD))
        raise data.InputError("no arm64 root at %s; %s" % (root, FIX_BUILD))


def host_tools():
    missing = [t for t in ("mmdebstrap", "arch-test", "qemu-aarch64-static") if shutil.which(t) is None]
    if missing:
        raise data.InputError(
            "%s not found: run scripts/setup --arm64-root (Debian packages mmdebstrap, "
            "arch-test, qemu-user-static)" % ", ".join(missing)
        )


def room_for(root, min_gb, needs, env):
    """Makes the directory a root is built in, and refuses (InputError: what the root `needs`, and the variable
    `env` that puts it elsewhere) where it has less than `min_gb` GB free."""
    parent = os.path.dirname(root)
    os.makedirs(parent, exist_ok=True)
    free = shutil.disk_usage(parent).free
    if free < min_gb * 1024**3:
        raise data.InputError("only %.1f GB free under %s; %s: free space or set %s" % (free / 1e9, parent, needs, env))


def build(root):
    """Builds the root unless its stamp says it is the one wanted. Returns what it did, one line."""
    root = os.path.abspath(root)
    want = wanted_stamp()
    if stamp_matches(read_stamp(root), want):
        return "up to date (%s)" % root
    if os.geteuid() != 0:
        raise data.InputError("building the arm64 root needs root (mmdebstrap, chroot); run as root")
    host_tools()
    room_for(root, 2, "the arm64 root needs about 0.8 GB and its build more", "AOT_HARNESS_ARM64_ROOT")
    with open(root + ".lock", "a") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)  # one build at a time; a second one finds the first's root
        if stamp_matches(read_stamp(root), want):
            return "up to date (%s)" % root
        new, old = root + ".new", root + ".old"
        for d in (new, old):
            if os.path.exists(d):
                _remove_tree(d, unmount=True)  # what an interrupted build left
        chroot_hold.hold(os.getpid())  # mmdebstrap runs arm64 maintainer scripts through binfmt
        t0 = time.time()
        try:
            cmd = [
                "mmdebstrap",
                "--arch=arm64",
                "--variant=apt",
                "--include=" + ",".join(PACKAGES),
                '--aptopt=APT::Install-Recommends "false"',
                want["suite"],
                new,
                want["mirror"],
            ]
            print("arm64-root: " + " ".join(cmd), flush=True)
            rc, err = run_group(cmd)
            if rc != 0:
                tail = " ".join(err.strip().splitlines()[-3:])[-400:]
                raise data.InputError(
                    "mmdebstrap failed (exit %d): %s; check the network and %s" % (rc, tail, want["mirror"])
                )
            for f in (
                "etc/OpenCL/vendors/pocl.icd",
                "usr/share/vulkan/icd.d/lvp_icd.aarch64.json",
                "usr/lib/aarch64-linux-gnu/libOpenCL.so.1",
                "bin/busybox",
            ):
                if not os.path.exists(os.path.join(new, f)):
                    raise data.InputError("the new root lacks /%s; the package list is wrong" % f)
            r = subprocess.run(["chroot", new, "/usr/bin/uname", "-m"], capture_output=True, text=True)
            if r.stdout.strip() != "aarch64":
                raise data.InputError(
                    "uname -m in the new root says '%s', not aarch64: the emulator does not run "
                    "it (%s)" % (r.stdout.strip(), r.stderr.strip()[:200])
                )
            with open(os.path.join(new, STAMP), "w") as f:
                json.dump(
                    dict(
                        want, built=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), seconds=round(time.time() - t0)
                    ),
                    f,
                    indent=1,
                )
        except BaseException:
            if os.path.exists(new):
                _remove_tree(new, unmount=True)  # mmdebstrap's own mounts too, if it was killed
            raise
        finally:
            chroot_hold.release(os.getpid())
        if os.path.exists(root):
            os.rename(root, old)
        os.rename(new, root)
        if os.path.exists(old):
            _remove_tree(old)
    du = subprocess.run(["du", "-sh", root], capture_output=True, text=True).stdout.split()[:1]
    return "built %s in %.0f s (%s)" % (root, time.time() - t0, du[0] if du else "?")


def run_group(cmd):
    """(exit status, stderr) of a long build step run in its own process group; interrupted, the whole group is
    stopped (TERM, then KILL) before the exception goes on, so that nothing writes into what is removed next."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = p.communicate()
        return p.returncode, err
    except BaseException:
        for sig, wait_s in ((signal.SIGTERM, 30), (signal.SIGKILL, 30)):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.time() + wait_s
            while time.time() < deadline:
                p.poll()  # reaps the leader, whose zombie would keep the group "alive"
                if not _group_alive(p.pid):
                    break
                time.sleep(0.2)
            if not _group_alive(p.pid):
                break
        p.wait()
        raise


def _group_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False


def _remove_tree(d, unmount=False):
    """Removes a root directory; never one with mounts in it, unless `unmount` (a half-built root of ours,
    whose mmdebstrap was killed before it unmounted): then those are unmounted first."""

    def below():
        return sorted((mp for mp in chroot_hold.mount_points() if mp == d or mp.startswith(d + "/")), reverse=True)

    if unmount:
        for mp in below():
            chroot_hold._unmount(mp)
    if below():
        raise data.InputError("%s still has mounts (%s); run scripts/arm64-root down first" % (d, below()[0]))
    shutil.rmtree(d)


def inner_cwd(root, binds, cwd):
    """Where `cwd` (a directory of this machine) is inside the root, or None."""
    if cwd == root or cwd.startswith(root + "/"):
        return cwd[len(root) :] or "/"
    for b in binds:
        if cwd == b or cwd.startswith(b.rstrip("/") + "/"):
            return cwd
    return None


def inner_env():
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
    }
    for k, v in os.environ.items():
        if k.startswith(PASS_PREFIXES) and k != "HARNESS_EXEC_WRAPPER":  # binfmt starts arm64 children
            env[k] = v
    return env


def run_inside(root, binds, cmd):
    """CMD inside the root, from the current directory's place there; its exit status (128 + signal)."""
    root = os.path.abspath(root)
    check_root(root)
    binds = [os.path.abspath(b) for b in binds]
    cwd = inner_cwd(root, binds, os.getcwd())
    if cwd is None:
        raise data.InputError(
            "the current directory %s is neither under the root %s nor under a --bind "
            "directory; cd there or pass --bind %s" % (os.getcwd(), root, os.getcwd())
        )
    chroot_hold.hold(os.getpid(), root, binds)
    try:

        def enter():
            os.chroot(root)
            os.chdir(cwd)

        try:
            p = subprocess.Popen(cmd, env=inner_env(), preexec_fn=enter)
        except OSError as e:
            raise data.InputError("cannot start %s inside %s: %s; check the command" % (cmd[0], root, e.strerror))
        forward = lambda sig, _f: p.send_signal(sig)  # noqa: E731 - ctest's timeout, ^C: to the command
        old = {s: signal.signal(s, forward) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
        try:
            rc = p.wait()
        finally:
            for s, h in old.items():
                signal.signal(s, h)
        return rc if rc >= 0 else 128 - rc
    finally:
        chroot_hold.release(os.getpid())


def main(argv=None):
    ap = data.arg_parser("arm64-root", __doc__)
    ap.add_argument("command", choices=("build", "exec", "hold", "release", "down", "status"))
    ap.add_argument("--root", default=None, help="the root's directory (default %s)" % default_root())
    ap.add_argument("--bind", action="append", default=[], help="a directory bound at the same path inside")
    ap.add_argument("--pid", type=toolmain.whole(1, 2**31), help="hold/release: the process that holds")
    ap.add_argument("--force", action="store_true", help="down: even while processes hold the root")
    argv = list(sys.argv[1:] if argv is None else argv)
    # everything after the first "--" is the command, given to argparse as nothing (it would mix the two)
    cut = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:cut])
    args.cmd = argv[cut + 1 :]
    toolmain.handle_signals()  # a killed build or exec still releases what it holds and removes what it half made
    root = os.path.abspath(args.root or default_root())
    if args.command != "exec" and args.cmd:
        raise data.InputError("unexpected arguments %s; see --help" % " ".join(args.cmd))
    if args.command == "build":
        print("arm64-root: " + build(root))
        return 0
    if args.command == "exec":
        if not args.cmd:
            raise data.InputError("exec needs a command: scripts/arm64-root exec -- CMD [ARG...]")
        return run_inside(root, args.bind, args.cmd)
    if args.command in ("hold", "release"):
        if args.pid is None:
            raise data.InputError("%s needs --pid PID" % args.command)
        if args.command == "hold":
            check_root(root)
            chroot_hold.hold(args.pid, root, args.bind)
        else:
            chroot_hold.release(args.pid)
        return 0
    if args.command == "down":
        chroot_hold.down(args.force)
        return 0
    st = chroot_hold.status()
    st["root"] = root
    st["stamp"] = read_stamp(root)
    print(json.dumps(st, indent=1))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(toolmain.run("arm64-root", main))
