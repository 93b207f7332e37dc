"""Tests of scripts/device-ctest, one runner per invocation, through the script itself.

  python3 -m harnesslib.devices.devicectest_test local|qemu|adb|ssh --build DIR [--keep DIR]

Every runner runs the same four tests against a copy of golden/ with one planted wrong golden
(blur3x3/small, its manifest hash updated so that it is a FAIL, not a corrupt-golden ERROR), and checks
what came back: device-ctest's exit code (1), the JUnit file's test names and outcomes (Passed / Failed /
Skipped), the merged results.json (PASS / FAIL / SKIP records) and the logs.
  local  a temp dir on this machine, the device's ctest (ctest path)
  qemu   build-aarch64 under qemu-aarch64 (SKIP, exit 77, when build-aarch64 is absent)
  adb    a fake `adb` on PATH mapping push/shell/pull to a local directory, a device PATH without ctest
         (the run_tests.sh path); checks that push, shell and pull were all used with -s SERIAL; then
         --faults (the build's faults/ tests, relocated) must pass
  ssh    a throwaway sshd on 127.0.0.1 (free high port, throwaway host and user keys, only that key
         authorized, stopped at the end), once with the remote's ctest and once with --no-ctest
"""

import argparse
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time

from . import devicectest
from ..testing.device_checks import (
    DEVICE_CTEST,
    ROOT,
    Failure,
    check,
    check_results,
    common_args,
    plant_wrong_golden,
    run_device_ctest,
)

SKIP = 77

# (ctest -R regex, {test: (JUnit status, harness outcome)}) per platform of the staged build.
X86_SELECTION = (
    "^(brighten|blur3x3)/(cpu|cuda)/small$",
    {
        "brighten/cpu/small": ("Passed", "PASS"),
        "blur3x3/cpu/small": ("Failed", "FAIL"),
        "brighten/cuda/small": ("Skipped", "SKIP"),
        "blur3x3/cuda/small": ("Skipped", "SKIP"),
    },
)
ARM_SELECTION = (
    "^(brighten|blur3x3)/(cpu|host)/small$",
    {
        "brighten/cpu/small": ("Passed", "PASS"),
        "brighten/host/small": ("Passed", "PASS"),
        "blur3x3/cpu/small": ("Failed", "FAIL"),
        "blur3x3/host/small": ("Failed", "FAIL"),
    },
)

FAKE_ADB = r"""#!/bin/sh
# Fake adb for the device-ctest test: the "device" is $FAKE_ADB_ROOT (device paths under /data/local/tmp
# map into it); shell commands run with $FAKE_ADB_PATH as PATH (no ctest, like a phone).
set -eu
echo "adb $*" >> "$FAKE_ADB_ROOT/adb.log"
if [ "${1:-}" = "-s" ]; then serial=$2; shift 2; [ "$serial" = "$FAKE_ADB_SERIAL" ] || { echo "adb: device '$serial' not found" >&2; exit 1; }; fi
map() { printf '%s' "$1" | sed "s|/data/local/tmp|$FAKE_ADB_ROOT/data/local/tmp|g"; }
copy() { # adb's push/pull: into DST/basename(SRC) when DST is an existing directory, else to DST
  src=$1 dst=$2
  if [ -d "$dst" ]; then dst="$dst/$(basename "$src")"; fi
  cp -R "$src" "$dst"
}
cmd=$1; shift
case "$cmd" in
  push) copy "$1" "$(map "$2")"; echo "$1: 1 file pushed." ;;
  pull) copy "$(map "$1")" "$2"; echo "$1: 1 file pulled." ;;
  shell) exec env -i PATH="$FAKE_ADB_PATH" HOME=/ sh -c "$(map "$*")" ;;
  *) echo "fake adb: unsupported command $cmd" >&2; exit 1 ;;
esac
"""

# What a phone's shell offers (toybox): enough for device-ctest's commands, but no ctest.
DEVICE_TOOLS = [
    "sh",
    "cat",
    "chmod",
    "cp",
    "date",
    "dirname",
    "env",
    "head",
    "mkdir",
    "mktemp",
    "rm",
    "tee",
    "uname",
    "tar",
    "sed",
    "ls",
    "grep",
]


def test_local(tmp, build):
    r = subprocess.run(["sh", DEVICE_CTEST, "--help"], capture_output=True, text=True)
    check(r.returncode == 0 and "--runner" in r.stdout, "--help")
    r = subprocess.run(["sh", DEVICE_CTEST, "--runner", "nope"], capture_output=True, text=True)
    check(r.returncode == 2 and "unknown runner" in r.stderr, "a bad runner is exit 2 with a message")
    r = subprocess.run(["sh", DEVICE_CTEST, "--runner", "ssh"], capture_output=True, text=True)
    check(r.returncode == 2 and "--target" in r.stderr, "ssh without --target is exit 2")
    golden = os.path.join(tmp, "golden")
    plant_wrong_golden(os.path.join(ROOT, "golden"), golden)
    out = os.path.join(tmp, "out")
    r = run_device_ctest(["--runner", "local"] + common_args(golden, out, X86_SELECTION, build))
    check_results(os.path.join(out, "device-local"), X86_SELECTION[1], r, ctest_path=True)


def test_qemu(tmp, build):
    if not os.path.exists(os.path.join(build, "bin", "aot-harness")):
        print(
            "SKIP: %s/bin/aot-harness is absent: build the aarch64-linux preset first "
            "(cmake --preset aarch64-linux && cmake --build --preset aarch64-linux)" % build
        )
        return SKIP
    if not shutil.which("qemu-aarch64"):
        print("SKIP: qemu-aarch64 is not installed (scripts/setup installs qemu-user)")
        return SKIP
    golden = os.path.join(tmp, "golden")
    plant_wrong_golden(os.path.join(ROOT, "golden"), golden)
    out = os.path.join(tmp, "out")
    r = run_device_ctest(["--runner", "qemu"] + common_args(golden, out, ARM_SELECTION, build))
    check_results(os.path.join(out, "device-qemu"), ARM_SELECTION[1], r, ctest_path=True)
    with open(os.path.join(out, "device-qemu", "CTestTestfile.cmake")) as f:
        check("qemu-aarch64" in f.read(), "the qemu CTest tree does not run through qemu-aarch64")


def test_adb(tmp, build):
    shim_dir = os.path.join(tmp, "shim")
    tools = os.path.join(tmp, "device-bin")
    os.makedirs(shim_dir)
    os.makedirs(tools)
    with open(os.path.join(shim_dir, "adb"), "w") as f:
        f.write(FAKE_ADB)
    os.chmod(os.path.join(shim_dir, "adb"), 0o755)
    for t in DEVICE_TOOLS:
        path = shutil.which(t, path="/usr/bin:/bin")
        check(path, "tool %s missing" % t)
        os.symlink(path, os.path.join(tools, t))
    device_root = os.path.join(tmp, "device")
    os.makedirs(os.path.join(device_root, "data", "local", "tmp"))
    env = dict(
        os.environ,
        PATH=shim_dir + ":" + os.environ.get("PATH", ""),
        FAKE_ADB_ROOT=device_root,
        FAKE_ADB_PATH=tools,
        FAKE_ADB_SERIAL="emulator-5554",
    )
    golden = os.path.join(tmp, "golden")
    plant_wrong_golden(os.path.join(ROOT, "golden"), golden)
    out = os.path.join(tmp, "out")
    r = run_device_ctest(
        ["--runner", "adb", "--target", "emulator-5554"] + common_args(golden, out, X86_SELECTION, build), env=env
    )
    check("no ctest" in r.stdout, "the adb device has no ctest: run_tests.sh expected")
    check_results(os.path.join(out, "device-adb"), X86_SELECTION[1], r, ctest_path=False)
    with open(os.path.join(device_root, "adb.log")) as f:
        log = f.read().splitlines()
    for verb in ("push", "shell", "pull"):
        check(any(line.startswith("adb -s emulator-5554 " + verb) for line in log), "adb %s was not used" % verb)
    check(os.listdir(os.path.join(device_root, "data", "local", "tmp")) == [], "the staged tree was left on the device")
    # --faults: the build's faults/ tests, relocated (their `sh expect_outcome.sh` runs on the device too).
    r = run_device_ctest(
        [
            "--runner",
            "adb",
            "--target",
            "emulator-5554",
            "--faults",
            "--build",
            build,
            "--out",
            out,
            "--",
            "-R",
            "^faults/(bless|teardown)$",
        ],
        env=env,
    )
    check(r.returncode == 0, "--faults: exit %d, expected 0" % r.returncode)
    got = {n: s for n, s, _, _ in devicectest.read_junit(os.path.join(out, "device-adb", "junit.xml"))}
    check(got == {"faults/bless": "Passed", "faults/teardown": "Passed"}, "--faults JUnit: %s" % got)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_sshd():
    if os.path.exists("/usr/sbin/sshd"):
        return True
    print("openssh-server is missing (scripts/setup installs it); installing it", flush=True)
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", "openssh-server"],
            env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
        )
    return os.path.exists("/usr/sbin/sshd")


def test_ssh(tmp, build):
    if os.geteuid() != 0:
        print("SKIP: the loopback sshd test logs in as root by key; run it as root")
        return SKIP
    if not ensure_sshd():
        print("SKIP: /usr/sbin/sshd is missing and could not be installed (apt-get install openssh-server)")
        return SKIP
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege-separation directory
    keys = os.path.join(tmp, "ssh")
    os.makedirs(keys, mode=0o700)
    for k in ("host_key", "user_key"):
        subprocess.run(
            ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "device-ctest-test", "-f", os.path.join(keys, k)],
            check=True,
        )
    shutil.copy(os.path.join(keys, "user_key.pub"), os.path.join(keys, "authorized_keys"))
    os.chmod(os.path.join(keys, "authorized_keys"), stat.S_IRUSR | stat.S_IWUSR)
    port = free_port()
    config = os.path.join(keys, "sshd_config")
    with open(config, "w") as f:
        f.write(
            "\n".join(
                [
                    "Port %d" % port,
                    "ListenAddress 127.0.0.1",
                    "AddressFamily inet",
                    "HostKey %s" % os.path.join(keys, "host_key"),
                    "PidFile %s" % os.path.join(keys, "sshd.pid"),
                    "AuthorizedKeysFile %s" % os.path.join(keys, "authorized_keys"),
                    "PubkeyAuthentication yes",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "PermitRootLogin prohibit-password",
                    "AllowUsers root",
                    "UsePAM no",
                    "StrictModes no",
                    "X11Forwarding no",
                    "AllowTcpForwarding no",
                    "PermitTTY no",
                    "LogLevel VERBOSE",
                    "",
                ]
            )
        )
    with open(os.path.join(keys, "host_key.pub")) as f:
        host_pub = f.read().split()
    with open(os.path.join(keys, "known_hosts"), "w") as f:
        f.write("[127.0.0.1]:%d %s %s\n" % (port, host_pub[0], host_pub[1]))
    subprocess.run(["/usr/sbin/sshd", "-t", "-f", config], check=True)
    log = open(os.path.join(keys, "sshd.log"), "w")
    sshd = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", config], stdout=log, stderr=log)
    try:
        deadline = time.time() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                check(sshd.poll() is None, "sshd exited: see %s" % log.name)
                check(time.time() < deadline, "sshd did not listen on 127.0.0.1:%d" % port)
                time.sleep(0.2)
        print("sshd (pid %d) on 127.0.0.1:%d" % (sshd.pid, port), flush=True)
        golden = os.path.join(tmp, "golden")
        plant_wrong_golden(os.path.join(ROOT, "golden"), golden)
        ssh = [
            "--runner",
            "ssh",
            "--target",
            "root@127.0.0.1",
            "--port",
            str(port),
            "--identity",
            os.path.join(keys, "user_key"),
            "--ssh-option",
            "UserKnownHostsFile=" + os.path.join(keys, "known_hosts"),
            "--ssh-option",
            "StrictHostKeyChecking=yes",
            "--ssh-option",
            "ConnectTimeout=10",
        ]
        remote_has_ctest = (
            subprocess.run(
                [
                    "ssh",
                    "-o",
                    "BatchMode=yes",
                    "-p",
                    str(port),
                    "-i",
                    os.path.join(keys, "user_key"),
                    "-o",
                    "UserKnownHostsFile=" + os.path.join(keys, "known_hosts"),
                    "root@127.0.0.1",
                    "command -v ctest",
                ],
                capture_output=True,
            ).returncode
            == 0
        )
        out = os.path.join(tmp, "out")
        r = run_device_ctest(ssh + common_args(golden, out, X86_SELECTION, build))
        check_results(os.path.join(out, "device-ssh"), X86_SELECTION[1], r, ctest_path=remote_has_ctest)
        out2 = os.path.join(tmp, "out-noctest")
        r = run_device_ctest(ssh + ["--no-ctest"] + common_args(golden, out2, X86_SELECTION, build))
        check_results(os.path.join(out2, "device-ssh"), X86_SELECTION[1], r, ctest_path=False)
        # A key that is not authorized is refused: device-ctest says so, exit 2.
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(keys, "other")], check=True)
        bad = list(ssh)
        bad[bad.index("--identity") + 1] = os.path.join(keys, "other")
        r = run_device_ctest(bad + common_args(golden, os.path.join(tmp, "out-bad"), X86_SELECTION, build))
        check(r.returncode == 2 and "ssh" in r.stderr, "an unauthorized key must be exit 2 naming ssh")
    finally:
        sshd.terminate()
        try:
            sshd.wait(timeout=10)
        except subprocess.TimeoutExpired:
            sshd.kill()
            sshd.wait()
        log.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runner", choices=["local", "qemu", "adb", "ssh"])
    ap.add_argument("--build", required=True, help="the build to stage (build-aarch64 for qemu)")
    ap.add_argument("--keep", help="copy the test's temp dir here at the end (for inspection)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="device-ctest-test-%s-" % a.runner)
    try:
        rc = {"local": test_local, "qemu": test_qemu, "adb": test_adb, "ssh": test_ssh}[a.runner](tmp, a.build)
        if rc == SKIP:
            return SKIP
        print("PASS: device-ctest --runner %s" % a.runner)
        return 0
    except Failure as e:
        print("FAIL: device-ctest --runner %s: %s" % (a.runner, e))
        return 1
    finally:
        if a.keep:
            shutil.rmtree(a.keep, ignore_errors=True)
            shutil.copytree(tmp, a.keep, symlinks=True, ignore=shutil.ignore_patterns("ssh"))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
