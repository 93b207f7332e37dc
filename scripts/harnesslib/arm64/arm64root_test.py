"""Tests of scripts/arm64-root (arm64root.py, chroot_hold.py).

python3 -m harnesslib.arm64.arm64root_test              the holders: mounts made for the first holder, kept while
                                                  any holder needs them, undone by the last (also after a
                                                  holder was killed), never unmounting the host's /dev/pts;
                                                  the current directory's place inside; the environment
                                                  inside (root only, else SKIP 77; ~2 s)
python3 -m harnesslib.arm64.arm64root_test nightly --build BUILD_AARCH64
                                                  the real root (built if missing, cached): `aot-harness env`
                                                  inside names the emulated CPU; device-ctest --sysroot runs
                                                  brighten and blur3x3 (planted wrong golden) on cpu,
                                                  opencl-mali, opencl, vulkan-mali and vulkan: blur3x3 FAIL,
                                                  brighten PASS; afterwards no mount is left in the root and
                                                  binfmt_misc is as it was
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

from . import arm64root, chroot_hold
from ..testing import fixtures as fx

SKIP = 77


def mounted(path):
    return chroot_hold.is_mount(path)


def sleeper():
    return subprocess.Popen(["sleep", "600"])


class Holders(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="arm64root-test-")
        os.environ["AOT_HARNESS_CHROOT_STATE"] = os.path.join(self.tmp, "state")
        self.root = os.path.join(self.tmp, "root")
        for d in ("proc", "sys", "dev"):
            os.makedirs(os.path.join(self.root, d))
        self.bind = os.path.join(self.tmp, "project")
        os.makedirs(self.bind)
        self.kids = []

    def tearDown(self):
        for k in self.kids:
            if k.poll() is None:
                k.kill()
                k.wait()
        chroot_hold.down(force=True)
        del os.environ["AOT_HARNESS_CHROOT_STATE"]
        left = [mp for mp in self.mounts_below()]
        shutil.rmtree(self.tmp, ignore_errors=not left)
        self.assertEqual(left, [], "mounts left behind")

    def mounts_below(self):
        with open("/proc/self/mountinfo") as f:
            return [l.split()[4] for l in f if l.split()[4].startswith(self.tmp + "/")]

    def kid(self):
        k = sleeper()
        self.kids.append(k)
        return k

    def test_last_holder_undoes_and_a_killed_holder_is_dropped(self):
        host_pts = mounted("/dev/pts")
        a, b = self.kid(), self.kid()
        chroot_hold.hold(a.pid, self.root, [self.bind], binfmt=False)
        inner_bind = os.path.join(self.root, self.bind.lstrip("/"))
        for d in ("proc", "sys", "dev"):
            self.assertTrue(mounted(os.path.join(self.root, d)), d)
        self.assertTrue(mounted(inner_bind))
        self.assertTrue(os.path.exists(os.path.join(self.root, "dev", "null")))
        chroot_hold.hold(b.pid, self.root, binfmt=False)
        chroot_hold.release(a.pid)  # b needs the base mounts, nobody the bind
        self.assertFalse(mounted(inner_bind))
        self.assertTrue(mounted(os.path.join(self.root, "proc")))
        b.kill()
        b.wait()  # killed without releasing: its file stays until the next hold or release looks
        self.assertTrue(mounted(os.path.join(self.root, "proc")))
        chroot_hold.release(999999999)
        self.assertEqual(self.mounts_below(), [])
        self.assertEqual(mounted("/dev/pts"), host_pts, "unmounting the root's /dev touched the host's /dev/pts")

    def test_named_holder_outlives_its_process_and_down_refuses_while_held(self):
        k = self.kid()
        chroot_hold.hold(k.pid, self.root, binfmt=False, name="lab")
        k.kill()
        k.wait()
        chroot_hold.release(999999999)
        self.assertTrue(mounted(os.path.join(self.root, "proc")))
        with self.assertRaises(arm64root.data.InputError) as e:
            chroot_hold.down()
        self.assertIn("lab", str(e.exception))
        chroot_hold.release(name="lab")
        self.assertEqual(self.mounts_below(), [])

    def test_bad_holds_are_refused_and_leave_nothing(self):
        with self.assertRaises(arm64root.data.InputError):
            chroot_hold.hold(999999999, self.root, binfmt=False)  # no such process
        k = self.kid()
        with self.assertRaises(arm64root.data.InputError):
            chroot_hold.hold(k.pid, self.root, [os.path.join(self.tmp, "missing")], binfmt=False)
        self.assertEqual(self.mounts_below(), [])


class Pure(unittest.TestCase):
    def test_inner_cwd(self):
        self.assertEqual(arm64root.inner_cwd("/r", [], "/r/tmp/x"), "/tmp/x")
        self.assertEqual(arm64root.inner_cwd("/r", [], "/r"), "/")
        self.assertEqual(arm64root.inner_cwd("/r", ["/src"], "/src/build/t"), "/src/build/t")
        self.assertIsNone(arm64root.inner_cwd("/r", ["/src"], "/rx"))
        self.assertIsNone(arm64root.inner_cwd("/r", ["/src"], "/srcx"))

    def test_inner_env(self):
        saved = dict(os.environ)
        try:
            os.environ.update(
                {
                    "HARNESS_EXEC_WRAPPER": "sh x",
                    "POCL_DEBUG": "1",
                    "LD_LIBRARY_PATH": "/host/lib",
                    "AOT_HARNESS_SHAPE_CACHE": "/b/s",
                    "HOME": "/home/me",
                }
            )
            env = arm64root.inner_env()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.assertNotIn("HARNESS_EXEC_WRAPPER", env)  # binfmt starts the arm64 children
        self.assertNotIn("LD_LIBRARY_PATH", env)
        self.assertEqual((env["POCL_DEBUG"], env["AOT_HARNESS_SHAPE_CACHE"], env["HOME"]), ("1", "/b/s", "/root"))


def binfmt_entry():
    return os.path.exists(os.path.join(chroot_hold.BINFMT_DIR, "qemu-aarch64"))


def nightly(build):
    """See the module's docstring. 0 pass, 1 fail, 77 skip."""
    from ..testing import device_checks as dt

    if os.geteuid() != 0 or not os.path.exists(chroot_hold.BINFMT_CONF):
        print("SKIP: needs root and qemu-user-static (scripts/setup --arm64-root)")
        return SKIP
    if not os.path.exists(os.path.join(build, "bin", "aot-harness")):
        print("SKIP: no aarch64 build in %s (cmake --preset aarch64-linux && cmake --build build-aarch64)" % build)
        return SKIP
    root = arm64root.default_root()
    t0 = time.time()
    print(arm64root.build(root), "(%.0f s)" % (time.time() - t0), flush=True)
    before = binfmt_entry()
    problems = []
    tmp = tempfile.mkdtemp(prefix="arm64root-nightly-")
    try:
        stage = tempfile.mkdtemp(dir=os.path.join(root, "tmp"))
        shutil.copy(os.path.join(build, "bin", "aot-harness"), stage)
        r = subprocess.run(
            [fx.script("arm64-root"), "exec", "--root", root, "--", "./aot-harness", "env", "--json"],
            cwd=stage,
            capture_output=True,
            text=True,
            timeout=600,
        )
        shutil.rmtree(stage)
        try:
            env = json.loads(r.stdout)
            cpu = env["host_cpu"]
            if not cpu.get("emulated") or "emulated" not in cpu.get("model", "") or not cpu.get("emulated_on"):
                problems.append("env does not name the emulated CPU: %s" % cpu)
            print("env inside: os %s, host_cpu %s" % (env.get("os"), json.dumps(cpu)))
        except (ValueError, KeyError) as e:
            problems.append("aot-harness env inside the root: %s (exit %d, %s)" % (e, r.returncode, r.stderr[-300:]))
        golden = os.path.join(tmp, "golden")
        dt.plant_wrong_golden(fx.GOLDEN, golden)
        profiles = ("cpu", "opencl-mali", "opencl", "vulkan-mali", "vulkan")
        out = os.path.join(tmp, "out")
        t0 = time.time()
        r = subprocess.run(
            [
                fx.script("device-ctest"),
                "--runner",
                "qemu",
                "--sysroot",
                root,
                "--build",
                build,
                "--golden",
                golden,
                "--out",
                out,
                "--",
                "-R",
                "^(brighten|blur3x3)/(%s)/small$" % "|".join(profiles),
                "-j2",
            ],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        print(r.stdout[-3000:] + r.stderr[-2000:])
        print("device-ctest --sysroot: exit %d, %.0f s" % (r.returncode, time.time() - t0))
        res = os.path.join(out, "device-qemu")
        cases = {c.get("name"): c for c in ET.parse(os.path.join(res, "junit.xml")).getroot().iter("testcase")}
        for p in ("brighten", "blur3x3"):
            for prof in profiles:
                c = cases.get("%s/%s/small" % (p, prof))
                failed = c is not None and c.find("failure") is not None
                skipped = c is not None and c.find("skipped") is not None
                if c is None or skipped or failed != (p == "blur3x3"):
                    problems.append(
                        "%s/%s/small: %s"
                        % (
                            p,
                            prof,
                            "missing" if c is None else "skipped" if skipped else "failed" if failed else "passed",
                        )
                    )
        if r.returncode != 1:
            problems.append("device-ctest exit %d, want 1 (the planted failure)" % r.returncode)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    with open("/proc/self/mountinfo") as f:
        left = [l.split()[4] for l in f if l.split()[4].startswith(root + "/")]
    if left:
        problems.append("mounts left in the root: %s" % left)
    if binfmt_entry() != before:
        problems.append("binfmt_misc's qemu-aarch64 entry %s" % ("left behind" if not before else "removed"))
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print("PASS: the arm64 root runs cpu and the four GPU profiles on arm64 PoCL and lavapipe, and cleans up")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "nightly":
        return nightly(os.path.abspath(sys.argv[sys.argv.index("--build") + 1]))
    if os.geteuid() != 0:
        print("SKIP: the holders' mounts need root")
        return SKIP
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    return 0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
