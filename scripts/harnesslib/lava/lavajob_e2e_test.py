"""The end-to-end test of scripts/lava-job (`python3 -m harnesslib.lava.lavajob_test e2e --build DIR` runs it):
scripts/device-ctest --bundle, one job for LAVA's `ssh` device type, run by the local lava-dispatcher (lava-run)
on a throwaway sshd on 127.0.0.1, then --fetch; one planted wrong golden must come back as FAIL, the rest PASS /
SKIP / XFAIL."""

import json
import os
import shutil
import subprocess
import tempfile

from . import lavafetch
from ..testing import fixtures as fx


def e2e(build):
    """See the module's docstring. Returns 0, 1 or 77 (no lava-run or sshd here)."""
    from ..testing import device_checks as dt

    if not shutil.which("lava-run") or not os.path.exists("/usr/sbin/sshd") or os.geteuid() != 0:
        print(
            "SKIP: needs lava-run (lava-dispatcher: scripts/setup --lava-lab installs it), /usr/sbin/sshd and root "
            "(LAVA's dispatcher directories)"
        )
        return 77
    tmp = tempfile.mkdtemp(prefix="lava-e2e-")
    sshd = None
    try:
        golden = os.path.join(tmp, "golden")
        dt.plant_wrong_golden(os.path.join(fx.ROOT, "golden"), golden)
        bundle = os.path.join(tmp, "bundle.tar.gz")
        r = subprocess.run(
            [
                os.path.join(fx.SCRIPTS, "device-ctest"),
                "--build",
                build,
                "--golden",
                golden,
                "--out",
                os.path.join(tmp, "out"),
                "--bundle",
                bundle,
            ],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            print("FAIL: device-ctest --bundle: %s" % r.stderr)
            return 1
        sshd, port, key = start_sshd(os.path.join(tmp, "ssh"))
        device = os.path.join(tmp, "device.yaml")
        with open(device, "w") as f:
            f.write(DEVICE % {"port": port, "key": key})
        # one shard of three, so that the job stays short; its tests are what scripts/lava-job chose
        jobs = os.path.join(tmp, "jobs")
        r = fx.run_script(
            "lava-job",
            "--bundle",
            bundle,
            "--bundle-url",
            "file://" + bundle,
            "--device-type",
            "ssh",
            "--shards",
            "3",
            "--out",
            jobs,
        )
        if r.returncode != 0:
            print("FAIL: lava-job: %s" % r.stderr)
            return 1
        index = json.load(open(os.path.join(jobs, "jobs.json")))["jobs"]
        job = max(index, key=lambda j: sum(t.startswith("blur3x3/cpu/") for t in j["tests"]))
        os.makedirs(os.path.join(tmp, "lava"))
        log = os.path.join(jobs, "job.log.yaml")
        with open(log, "w") as logf:
            r = subprocess.run(
                [
                    "lava-run",
                    "--job-id",
                    "aot%d" % os.getpid(),
                    "--output-dir",
                    os.path.join(tmp, "lava"),
                    "--device",
                    device,
                    os.path.join(jobs, job["job"]),
                ],
                stdout=subprocess.DEVNULL,
                stderr=logf,
                timeout=1200,
            )
        print("lava-run: exit %d, %d tests, log %s" % (r.returncode, len(job["tests"]), log))
        res = os.path.join(tmp, "res")
        rc = lavafetch.fetch([log], res)
        doc = json.load(open(os.path.join(res, "results.json")))
        got = {"%s/%s/%s" % (x.get("pipeline"), x.get("profile"), x.get("case")): x.get("outcome") for x in doc["runs"]}
        problems = []
        if sorted(got) != sorted(job["tests"]):
            problems.append("records for %s, the job had %s" % (sorted(got), sorted(job["tests"])))
        for t, o in got.items():
            want = "FAIL" if t.startswith("blur3x3/") and t.endswith("/small") and o != "SKIP" else None
            if want and o != want:
                problems.append("%s: %s, want %s (the planted wrong golden)" % (t, o, want))
            if not want and o not in ("PASS", "SKIP", "XFAIL"):  # XFAIL: golden/xfail.json's known driver bugs
                problems.append("%s: %s" % (t, o))
        if "FAIL" in got.values() and rc != 1:
            problems.append("--fetch exit %d with a FAIL, want 1" % rc)
        import xml.etree.ElementTree as ET

        cases = list(ET.parse(os.path.join(res, "junit.xml")).getroot().iter("testcase"))
        nfail = sum(c.find("failure") is not None for c in cases)
        if len(cases) != len(job["tests"]) or nfail != list(got.values()).count("FAIL"):
            problems.append(
                "junit.xml has %d tests, %d failed; want %d, %d"
                % (len(cases), nfail, len(job["tests"]), list(got.values()).count("FAIL"))
            )
        if problems:
            print("FAIL: " + "; ".join(problems))
            return 1
        print("PASS: LAVA job %s run by lava-run end to end: %s" % (job["job"], dict(sorted(got.items()))))
        return 0
    finally:
        if sshd:
            sshd.terminate()
            sshd.wait(timeout=10)
        if os.environ.get("LAVA_E2E_KEEP"):
            print("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


DEVICE = """device_type: ssh
constants:
  failure_retry: 1
  boot_retry: 1
  spawn_maxread: '4092'
  default-shell-prompt: 'lava-test: # '
  kernel-start-message: 'Linux version [0-9]'
  shutdown-message: 'The system is going down for reboot NOW'
  posix: {lava_test_sh_cmd: /bin/sh, lava_test_results_dir: /tmp/lava-%%s, lava_test_shell_file: ~/.bashrc}
commands: {connections: {}}
actions:
  deploy:
    connections: [ssh, serial]
    methods:
      ssh:
        options: ['-o', 'PasswordAuthentication=no', '-o', 'LogLevel=FATAL', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null']
        host: 127.0.0.1
        port: %(port)d
        user: root
        identity_file: %(key)s
  boot:
    connections: [ssh, serial]
    methods: {ssh: }
timeouts: {actions: {}, connections: {}}
"""


def start_sshd(keys):
    """A throwaway sshd on 127.0.0.1 with sftp (LAVA copies its overlay with scp); (process, port, key)."""
    import socket
    import time

    os.makedirs(keys, mode=0o700)
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
    for k in ("host_key", "user_key"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(keys, k)], check=True)
    shutil.copy(os.path.join(keys, "user_key.pub"), os.path.join(keys, "authorized_keys"))
    os.chmod(os.path.join(keys, "authorized_keys"), 0o600)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    cfg = os.path.join(keys, "sshd_config")
    with open(cfg, "w") as f:
        f.write(
            "\n".join(
                [
                    "Port %d" % port,
                    "ListenAddress 127.0.0.1",
                    "HostKey %s/host_key" % keys,
                    "PidFile %s/sshd.pid" % keys,
                    "AuthorizedKeysFile %s/authorized_keys" % keys,
                    "PasswordAuthentication no",
                    "PermitRootLogin prohibit-password",
                    "UsePAM no",
                    "StrictModes no",
                    "Subsystem sftp /usr/lib/openssh/sftp-server",
                    "",
                ]
            )
        )
    p = subprocess.Popen(
        ["/usr/sbin/sshd", "-D", "-e", "-f", cfg],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(keys, "log"), "w"),
    )
    deadline = time.time() + 15
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port, os.path.join(keys, "user_key")
        except OSError:
            time.sleep(0.2)
    p.kill()
    raise RuntimeError("sshd did not listen on 127.0.0.1:%d" % port)
