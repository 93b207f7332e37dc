"""What the tests of scripts/device-ctest and of the LAVA and arm64 runners share: a copy of golden/ with one
planted wrong golden, device-ctest run through its script, and the checks of what came back (exit code, JUnit,
results.json, the machine state, the logs)."""

import hashlib
import json
import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET

from . import fixtures as fx
from ..devices import devicectest

ROOT = fx.ROOT
DEVICE_CTEST = os.path.join(fx.SCRIPTS, "device-ctest")


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def plant_wrong_golden(src, dst):
    """A copy of golden/ where blur3x3/small.npy has one wrong element (manifest hash updated)."""
    shutil.copytree(src, dst)
    npy = os.path.join(dst, "blur3x3", "small.npy")
    with open(npy, "r+b") as f:
        f.seek(-1, os.SEEK_END)
        b = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([b[0] ^ 0x40]))
    with open(npy, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    man_path = os.path.join(dst, "MANIFEST.json")
    with open(man_path) as f:
        man = json.load(f)
    for g in man["goldens"]:
        if g["file"] == "blur3x3/small.npy":
            g["sha256"] = digest
    with open(man_path, "w") as f:
        json.dump(man, f, indent=2)


def run_device_ctest(args, env=None, timeout=900):
    cmd = ["sh", DEVICE_CTEST] + args
    print("$ " + " ".join(cmd), flush=True)
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    print(r.stdout + r.stderr, flush=True)
    print("(%.1f s, exit %d)" % (time.time() - t0, r.returncode), flush=True)
    return r


# The fixture of every harness test (cmake/HarnessWriteCaseTests.cmake): passed when a harness test ran.
GUARD_TESTS = {"aot-harness/ctest-start": "Passed", "aot-harness/all-skipped-check": "Passed"}


def check_results(out_dir, expected, r, ctest_path):
    check(r.returncode == 1, "device-ctest exit %d, expected 1 (one planted failure)" % r.returncode)
    junit = os.path.join(out_dir, "junit.xml")
    check(os.path.exists(junit), "no junit.xml came back in %s" % out_dir)
    got = {name: status for name, status, _, _ in devicectest.read_junit(junit)}
    want = {name: v[0] for name, v in expected.items()}
    want.update(GUARD_TESTS)  # any selection of a harness test brings the all-skipped check's fixture along
    check(got == want, "JUnit tests/outcomes %s, expected %s" % (got, want))
    suite = ET.parse(junit).getroot().get("name")  # well-formed, and the suite has a name
    check(suite and suite != "(empty)" and "device-ctest" in suite, "JUnit suite named %r" % suite)
    with open(os.path.join(out_dir, "results.json")) as f:
        res = json.load(f)
    outcomes = {"%s/%s/%s" % (x["pipeline"], x["profile"], x["case"]): x["outcome"] for x in res["runs"]}
    check(
        outcomes == {n: v[1] for n, v in expected.items()},
        "results.json outcomes %s, expected %s" % (outcomes, {n: v[1] for n, v in expected.items()}),
    )
    fail = [x for x in res["runs"] if x["outcome"] == "FAIL"]
    check(
        all("mismatch" in x["message"] or "element" in x["message"] for x in fail),
        "FAIL message does not name the mismatch: %s" % [x["message"] for x in fail],
    )
    check(res["environment"] and res["summary"]["total"] == len(expected), "results.json summary/environment")
    # the device's clocks and temperatures before and after, read on the device by its own aot-harness
    states = (res.get("device") or {}).get("machine") or {}
    check(
        sorted(states) == ["after", "before"] and all("cpu" in s and "thermal" in s for s in states.values()),
        "results.json has no device.machine before/after: %s" % sorted(states),
    )
    check("machine before the run: " in r.stdout, "the summary does not say what the machine was doing")
    for f in ("summary.txt", "list.json", "device.txt", "CTestTestfile.cmake"):
        check(os.path.exists(os.path.join(out_dir, f)), "%s missing from %s" % (f, out_dir))
    with open(os.path.join(out_dir, "CTestTestfile.cmake")) as f:
        text = f.read()
    check(ROOT not in text and "/tmp/" not in text, "CTestTestfile.cmake holds absolute paths of this machine")
    if ctest_path:
        check(os.path.exists(os.path.join(out_dir, "ctest-output.txt")), "ctest-output.txt missing (ctest path)")
        with open(os.path.join(out_dir, "ctest.rc")) as f:
            check(f.read().strip() == "8", "device ctest's exit code is not 8 (tests failed)")
    else:
        check(os.path.exists(os.path.join(out_dir, "fallback-results.tsv")), "fallback-results.tsv missing")
        check(len(os.listdir(os.path.join(out_dir, "logs"))) == len(want), "one log per test expected")
    print("OK: %s: %s" % (out_dir, ", ".join("%s %s" % (n, s) for n, s in sorted(got.items()))), flush=True)


def common_args(golden, out, selection, build):
    return ["--build", build, "--golden", golden, "--out", out, "--", "-R", selection[0]]
