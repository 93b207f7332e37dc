"""A real LAVA, end to end (nightly): python3 -m harnesslib.lava.lavalab_test --build BUILD_AARCH64

1. the arm64 root, the LAVA root and the arm64 boot files (each built if missing, else cached), `lava-lab up`:
   lava-server on 127.0.0.1, PostgreSQL on its unix socket, lava-worker, devices qemu01 and qemu-broken;
2. scripts/device-ctest --bundle of the aarch64 build (listed inside the arm64 root) with golden/ planted with
   one wrong golden (blur3x3/small), then scripts/lava-job --submit for the qemu-arm64 device type: brighten
   and blur3x3 small on cpu, opencl-mali and vulkan-mali, in two jobs, each booting the arm64 root under
   qemu-system-aarch64 and running the tests on its PoCL and lavapipe; blur3x3 must come back FAIL, brighten
   PASS, through the REST API only (submit, state, logs);
3. one job for a device whose qemu cannot start (tag broken; qemu01 in Maintenance meanwhile): Incomplete,
   submitted again, Incomplete again: its test is INFRA, a JUnit error, not a FAIL and not a PASS;
4. `lava-lab down`: no process left in the LAVA root, no mount left in it or in the arm64 root.
Prints each step's time and the REST transcripts. Exit 0 pass, 1 fail, 77 skip (not root, no mmdebstrap, no
aarch64 build).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from . import lavaboot, lavajob, lavalab, lavalabroot
from ..arm64 import arm64root, chroot_hold
from ..testing import fixtures as fx

SKIP = 77
SELECT = "^(brighten|blur3x3)/(cpu|opencl-mali|vulkan-mali)/small$"


def step(times, name, fn, *args):
    t0 = time.time()
    out = fn(*args)
    times[name] = round(time.time() - t0, 1)
    print("lava-lab e2e: %s: %s (%.0f s)" % (name, out if isinstance(out, str) else "done", times[name]), flush=True)
    return out


def lava_job(*args):
    """scripts/lava-job, its output shown as it comes (a LAVA job under TCG takes minutes; fixtures.run_script's
    300 s limit is for the quick tools): (exit code, output)."""
    p = subprocess.Popen(
        [fx.script("lava-job")] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines = []
    for line in p.stdout:
        print(line, end="", flush=True)
        lines.append(line)
    return p.wait(), "".join(lines)


def outcomes(res):
    doc = json.load(open(os.path.join(res, "results.json")))
    return {"%(pipeline)s/%(profile)s/%(case)s" % r: r["outcome"] for r in doc["runs"]}, doc


def check_main(res, rc, problems):
    got, doc = outcomes(res)
    want = {
        "%s/%s/small" % (p, prof): ("FAIL" if p == "blur3x3" else "PASS")
        for p in ("brighten", "blur3x3")
        for prof in ("cpu", "opencl-mali", "vulkan-mali")
    }
    if got != want:
        problems.append("outcomes %s, want %s" % (got, want))
    if rc != 1:
        problems.append("lava-job --submit exit %d with a planted FAIL, want 1" % rc)
    envs = [doc.get("environment") or {}]
    cpu = envs[0].get("host_cpu", {})
    print("lava-lab e2e: the VM's environment: os %s, cpu %s" % (envs[0].get("os"), cpu.get("model")))


def check_infra(res, rc, problems):
    got, doc = outcomes(res)
    if set(got.values()) != {"INFRA"} or not got:
        problems.append("the broken device's job gave %s, want INFRA" % got)
    attempts = json.load(open(os.path.join(res, "attempts.json")))
    healths = [a["health"] for j in attempts for a in j["attempts"]]
    if healths != ["Incomplete", "Incomplete"]:
        problems.append("the broken device's attempts ended %s, want Incomplete twice" % healths)
    cases = list(ET.parse(os.path.join(res, "junit.xml")).getroot().iter("testcase"))
    if any(c.find("error") is None or c.find("failure") is not None for c in cases):
        problems.append("junit.xml: the INFRA test is not a lone <error>")
    if rc != 1:
        problems.append("lava-job --submit exit %d for an infrastructure failure, want 1" % rc)
    print("lava-lab e2e: INFRA message: %s" % doc["runs"][0]["message"])


def e2e(build):
    from ..testing import device_checks as dt

    if os.geteuid() != 0 or not shutil.which("mmdebstrap") or not os.path.exists(chroot_hold.BINFMT_CONF):
        print("SKIP: needs root, mmdebstrap and qemu-user-static (scripts/setup --arm64-root)")
        return SKIP
    if not os.path.exists(os.path.join(build, "bin", "aot-harness")):
        print("SKIP: no aarch64 build in %s" % build)
        return SKIP
    times, problems = {}, []
    a64, lab = arm64root.default_root(), lavalab.default_dir()
    step(times, "arm64 root", arm64root.build, a64)
    step(times, "LAVA root", lavalabroot.build, lab)
    srv = os.path.join(lab, lavalab.SRV)
    step(times, "boot files", lavaboot.make, lab, a64, os.path.join(srv, "arm64"))
    tmp = tempfile.mkdtemp(prefix="lava-lab-e2e-")
    try:
        st = step(times, "lava-lab up", lavalab.up, lab, None)
        golden = os.path.join(tmp, "golden")
        dt.plant_wrong_golden(fx.GOLDEN, golden)
        bundle = os.path.join(srv, "bundle.tar.gz")
        r = step(
            times,
            "device-ctest --bundle",
            subprocess.run,
            [
                fx.script("device-ctest"),
                "--runner",
                "qemu",
                "--sysroot",
                a64,
                "--build",
                build,
                "--golden",
                golden,
                "--out",
                os.path.join(tmp, "dc"),
                "--bundle",
                bundle,
            ],
        )
        if r.returncode != 0:
            problems.append("device-ctest --bundle exit %d" % r.returncode)
            return report(problems, times)
        tests = [t for t in lavajob.bundle_tests(bundle, "precommit") if re.search(SELECT, t)]
        shards = 2 if all(any(lavajob.shard_of(t, 2) == i for t in tests) for i in (1, 2)) else 1
        common = [
            "--bundle",
            bundle,
            "--bundle-url",
            "file:///srv/aot-harness/bundle.tar.gz",
            "--rootfs-url",
            "file:///srv/aot-harness/arm64/rootfs.ext4",
            "--device-type",
            "qemu-arm64",
            "--timeout-minutes",
            "60",
            "--submit",
            st["url"],
            "--token-file",
            st["token_file"],
            "--poll-seconds",
            "5",
        ]
        res = os.path.join(tmp, "main")
        rc, _ = step(
            times,
            "lava-job --submit (%d tests, %d jobs)" % (len(tests), shards),
            lava_job,
            *common,
            "--select",
            SELECT,
            "--shards",
            str(shards),
            "--out",
            res,
        )
        if os.path.exists(os.path.join(res, "results.json")):
            check_main(res, rc, problems)
        else:
            problems.append("lava-job --submit wrote no results (exit %d)" % rc)
        lavalab.manage(lab, "devices", "update", "--health", "MAINTENANCE", "qemu01")
        lavalab.manage(lab, "devices", "update", "--health", "GOOD", "qemu-broken")
        res = os.path.join(tmp, "infra")
        rc, _ = step(
            times,
            "lava-job --submit to the broken device",
            lava_job,
            *common,
            "--select",
            "^brighten/cpu/small$",
            "--tag",
            "broken",
            "--out",
            res,
        )
        if os.path.exists(os.path.join(res, "results.json")):
            check_infra(res, rc, problems)
        else:
            problems.append("lava-job --submit to the broken device wrote no results (exit %d)" % rc)
        lavalab.manage(lab, "devices", "update", "--health", "MAINTENANCE", "qemu-broken")
        lavalab.manage(lab, "devices", "update", "--health", "GOOD", "qemu01")
    finally:
        step(times, "lava-lab down", lavalab.down, lab)
        if os.environ.get("LAVA_E2E_KEEP"):
            print("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    left = chroot_hold.processes_in(lab)
    if left:
        problems.append("processes left in the LAVA root: %s" % left)
    mounts = [m for m in chroot_hold.mount_points() if m.startswith(lab + "/") or m.startswith(a64 + "/")]
    if mounts:
        problems.append("mounts left: %s" % mounts)
    return report(problems, times)


def report(problems, times):
    print("lava-lab e2e: times (s): %s" % json.dumps(times))
    if problems:
        print("FAIL: " + "; ".join(problems))
        return 1
    print(
        "PASS: a real LAVA ran the arm64 jobs end to end (planted FAIL came back FAIL, the rest PASS) and "
        "turned a failing device into INFRA after one retry"
    )
    return 0


if __name__ == "__main__":
    sys.exit(e2e(os.path.abspath(sys.argv[sys.argv.index("--build") + 1])))
