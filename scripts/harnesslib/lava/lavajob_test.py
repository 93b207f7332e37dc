"""Tests of scripts/lava-job.

  python3 -m harnesslib.lava.lavajob_test             every generated job passes LAVA's own validator
                                                 (lava_common.schemas.validate, Debian's lava-common), shards
                                                 are disjoint and complete, --fetch on a recorded-format log
  python3 -m harnesslib.lava.lavajob_test e2e --build DIR
                                                 end to end: scripts/device-ctest --bundle, one job for LAVA's
                                                 `ssh` device type, run by the local lava-dispatcher (lava-run)
                                                 on a throwaway sshd on 127.0.0.1, then --fetch; one planted wrong
                                                 golden must come back as FAIL, the rest PASS / SKIP / XFAIL.
"""
import base64
import gzip
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

from . import lavafetch, lavajob
from ..testing import fixtures as fx

LIST = {"pipelines": [
    {"name": "blur3x3", "profiles": [{"name": p} for p in ("cpu", "host", "opencl-mali", "opencl", "cuda")],
     "cases": [{"name": "small", "nightly": False}, {"name": "odd", "nightly": False}, {"name": "large", "nightly": True}]},
    {"name": "sobel", "profiles": [{"name": p} for p in ("cpu", "host", "opencl")],
     "cases": [{"name": "small", "nightly": False}, {"name": "large", "nightly": True}]}]}
CUSTOM = {"board-ssh": {"bundle": "fetch", "path": "/data/aot-harness", "deploy": {"to": "ssh", "os": "oe"},
                        "boot": {"method": "ssh", "connection": "ssh", "prompts": ["root@board:~# "]}},
          "broken": {"bundle": "fetch", "path": "/x", "deploy": {"to": "nowhere"}, "boot": {"method": "ssh"}}}


def make_bundle(path, listing):
    src = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(src, "out"))
        with open(os.path.join(src, "out", "list.json"), "w") as f:
            json.dump(listing, f)
        with tarfile.open(path, "w:gz") as tf:
            tf.add(src, arcname=".")
    finally:
        shutil.rmtree(src)


def load_yaml(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


class Jobs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.bundle = os.path.join(self.tmp, "bundle.tar.gz")
        make_bundle(self.bundle, LIST)
        with open(os.path.join(self.tmp, "types.json"), "w") as f:
            json.dump(CUSTOM, f)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def lava_job(self, *args):
        return fx.run_script("lava-job", "--bundle", self.bundle, "--bundle-url", "https://files.example/b.tar.gz",
                             "--device-types", os.path.join(self.tmp, "types.json"), *args)

    def test_every_job_is_valid_and_shards_cover_the_matrix(self):
        from lava_common.schemas import validate
        out = os.path.join(self.tmp, "jobs")
        r = self.lava_job("--device-type", "qemu", "--device-type", "ssh", "--device-type", "board-ssh",
                          "--rootfs-url", "https://files.example/rootfs.ext4", "--shards", "3", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        index = json.load(open(os.path.join(out, "jobs.json")))
        self.assertEqual(len(index["jobs"]), 9)
        want = sorted("%s/%s/%s" % (p["name"], q["name"], c["name"]) for p in LIST["pipelines"]
                      for q in p["profiles"] for c in p["cases"] if not c["nightly"])
        for dtype in ("qemu", "ssh", "board-ssh"):
            seen = []
            for j in [j for j in index["jobs"] if j["device_type"] == dtype]:
                job = load_yaml(os.path.join(out, j["job"]))
                validate(job, strict=True)  # LAVA's own check, on the file as written
                self.assertEqual(job["device_type"], dtype)
                steps = job["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
                tests = ["/".join(s.split()[1:]) for s in steps if s.startswith("aot_test ")]
                self.assertEqual(tests, j["tests"])
                seen += tests
                if dtype == "qemu":  # the bundle goes into the image as a LAVA overlay
                    ov = job["actions"][0]["deploy"]["images"]["rootfs"]["overlays"]["aot-harness"]
                    self.assertEqual((ov["url"], ov["path"]), ("https://files.example/b.tar.gz", "/opt/aot-harness"))
                else:  # fetched by the test shell
                    fetch = [s for s in steps if not s.startswith("echo AOTH-")]
                    self.assertIn("mktemp -d", fetch[0])
                    self.assertIn("https://files.example/b.tar.gz", fetch[1])
                self.assertEqual(steps[0], "echo AOTH-JOB " + job["job_name"])
                # the plan, printed first: --fetch knows from the log which tests a cut-off job never reported
                plan = [t for s in steps if s.startswith("echo AOTH-PLAN ") for t in s.split()[3:]]
                self.assertEqual(plan, j["tests"])
            self.assertEqual(sorted(seen), want, dtype)  # complete, and nothing twice
            self.assertEqual(len(seen), len(set(seen)))

    def test_validator_rejects_a_broken_job(self):
        import voluptuous
        from lava_common.schemas import validate
        out = os.path.join(self.tmp, "jobs")
        self.assertEqual(self.lava_job("--device-type", "ssh", "--out", out).returncode, 0)
        job = load_yaml(os.path.join(out, "ssh-shard-1-of-1.yaml"))
        del job["timeouts"]
        with self.assertRaises(voluptuous.Invalid):
            validate(job, strict=True)
        r = self.lava_job("--device-type", "broken", "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a valid LAVA job", r.stderr)
        r = self.lava_job("--device-type", "qemu", "--out", out)  # qemu boots an image: needs --rootfs-url
        self.assertEqual(r.returncode, 2)
        self.assertIn("--rootfs-url", r.stderr)

    def test_qemu_arm64_job_as_written(self):
        from lava_common.schemas import validate
        out = os.path.join(self.tmp, "jobs")
        r = self.lava_job("--device-type", "qemu-arm64", "--rootfs-url", "file:///srv/a/rootfs.ext4", "--tag", "big",
                          "--select", "^blur3x3/", "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        job = load_yaml(os.path.join(out, "qemu-arm64-shard-1-of-1.yaml"))
        validate(job, strict=True)
        self.assertEqual((job["device_type"], job["context"]["arch"], job["tags"]), ("qemu", "arm64", ["big"]))
        images = job["actions"][0]["deploy"]["images"]
        self.assertEqual((images["kernel"]["url"], images["initrd"]["url"]), ("file:///srv/a/Image", "file:///srv/a/initrd.gz"))
        self.assertIs(images["rootfs"]["overlays"]["lava"], True)  # LAVA's overlay in the image: no udev needed
        self.assertEqual(images["rootfs"]["overlays"]["aot-harness"]["path"], "/opt/aot-harness")
        tests = json.load(open(os.path.join(out, "jobs.json")))["jobs"][0]["tests"]
        self.assertTrue(tests and all(t.startswith("blur3x3/") for t in tests), tests)
        r = self.lava_job("--device-type", "qemu-arm64", "--rootfs-url", "file:///r", "--select", "^nothing", "--out", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("matching --select", r.stderr)

    def test_python_shard_function_matches_the_published_fnv_vectors(self):
        self.assertEqual(lavajob.fnv1a64(""), 0xcbf29ce484222325)
        self.assertEqual(lavajob.fnv1a64("foobar"), 0x85944171f73967e8)
        self.assertTrue(all(lavajob.jump_hash(k, 1) == 0 for k in range(100)))

    def test_fetch(self):
        out = os.path.join(self.tmp, "jobs")
        self.assertEqual(self.lava_job("--device-type", "ssh", "--shards", "1", "--out", out).returncode, 0)
        rec = {"environment": {"host": "board"}, "runs": [{"pipeline": "blur3x3", "profile": "cpu", "case": "small",
                                                           "outcome": "FAIL", "message": "output: 3 wrong \x1b[0m"}]}
        b64 = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
        log = [{"dt": "t", "lvl": "target", "msg": "+ echo AOTH-JOB aot-harness-ssh-shard-1-of-1"},
               {"dt": "t", "lvl": "target", "msg": "AOTH-JOB aot-harness-ssh-shard-1-of-1"},
               {"dt": "t", "lvl": "target", "msg": "+ sed 's/^/AOTH-REC blur3x3.cpu.small gz /'"}]
        log += [{"dt": "t", "lvl": "target", "msg": "AOTH-REC blur3x3.cpu.small gz " + b64[i:i + 76]}
                for i in range(0, len(b64), 76)]
        log += [{"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness", "case": "blur3x3.cpu.small",
                                                      "result": "fail", "measurement": "2.0", "units": "seconds"}},
                {"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness", "case": "blur3x3.cuda.small",
                                                      "result": "skip", "measurement": "0.0"}},
                {"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness", "case": "sobel.cpu.small",
                                                      "result": "pass", "measurement": "1.0"}},
                {"dt": "t", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "fail"}}]
        logp = os.path.join(out, "job-1.yaml")
        with open(logp, "w") as f:  # lava-run's form: one flow mapping per line
            f.write("\n".join(json.dumps(e) for e in log) + "\n")
        res = os.path.join(self.tmp, "res")
        self.assertEqual(lavafetch.fetch([logp], res), 1)
        import xml.etree.ElementTree as ET
        cases = {c.get("name"): c for c in ET.parse(os.path.join(res, "junit.xml")).getroot().iter("testcase")}
        self.assertEqual(len(cases), 13)  # every precommit test of the job, reported or not
        self.assertIn("output: 3 wrong", cases["blur3x3/cpu/small"].find("failure").get("message"))
        self.assertIsNotNone(cases["blur3x3/cuda/small"].find("skipped"))
        self.assertIsNone(cases["sobel/cpu/small"].find("failure"))
        self.assertIn("did not run", cases["sobel/host/small"].find("failure").get("message"))
        doc = json.load(open(os.path.join(res, "results.json")))
        # the record printed in the log; LAVA's own results where a record is missing; ERROR where nothing came
        got = {"%(pipeline)s/%(profile)s/%(case)s" % r: r["outcome"] for r in doc["runs"]}
        self.assertEqual(got.pop("blur3x3/cpu/small"), "FAIL")
        self.assertEqual(got.pop("blur3x3/cuda/small"), "SKIP")
        self.assertEqual(got.pop("sobel/cpu/small"), "PASS")
        self.assertEqual(set(got.values()), {"ERROR"})
        self.assertEqual(sorted(got), sorted(doc["lava"]["missing"]))
        self.assertEqual(len(got), 10)
        self.assertEqual(doc["environment"], {"host": "board"})


class CutLog(unittest.TestCase):
    """A job's log cut after its first test (a dead board, a killed dispatcher, a truncated download), with no
    jobs.json anywhere near: the plan the job printed first names the tests it never reported, and --fetch
    reports them as did-not-run failures (ERROR records), not as passes, and not silently dropped."""

    def test_cut_log_reports_the_missing_tests(self):
        tmp = tempfile.mkdtemp()
        try:
            bundle = os.path.join(tmp, "bundle.tar.gz")
            make_bundle(bundle, {"pipelines": [{"name": "tone", "profiles": [{"name": "cpu"}],
                                                "cases": [{"name": c, "nightly": False} for c in ("a", "b", "c")]}]})
            r = fx.run_script("lava-job", "--bundle", bundle, "--bundle-url", "https://f.example/b.tgz", "--device-type",
                              "ssh", "--out", os.path.join(tmp, "jobs"))
            self.assertEqual(r.returncode, 0, r.stderr)
            job = load_yaml(os.path.join(tmp, "jobs", "ssh-shard-1-of-1.yaml"))
            steps = job["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
            # what the test shell prints: the echo lines' output, then the first test only
            printed = [s[len("echo "):] for s in steps if s.startswith("echo AOTH-")]
            rec = {"environment": {}, "runs": [{"pipeline": "tone", "profile": "cpu", "case": "a", "outcome": "PASS"}]}
            b64 = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
            log = [{"dt": "t", "lvl": "target", "msg": m} for m in printed + ["AOTH-REC tone.cpu.a gz " + b64]]
            log.append({"dt": "t", "lvl": "results", "msg": {"definition": "0_aot-harness", "case": "tone.cpu.a",
                                                             "result": "pass", "measurement": "0.5"}})
            logp = os.path.join(tmp, "elsewhere", "job.yaml")  # no jobs.json beside it
            os.makedirs(os.path.dirname(logp))
            with open(logp, "w") as f:
                f.write("\n".join(json.dumps(e) for e in log) + "\n")
            r = fx.run_script("lava-job", "--fetch", logp, "--out", os.path.join(tmp, "res"))
            self.assertEqual(r.returncode, 1, r.stderr)  # something failed: not 0, and not bad input
            self.assertIn("ends before LAVA's job result", r.stderr)
            import xml.etree.ElementTree as ET
            cases = {c.get("name"): c for c in ET.parse(os.path.join(tmp, "res", "junit.xml")).getroot().iter("testcase")}
            self.assertEqual(sorted(cases), ["tone/cpu/a", "tone/cpu/b", "tone/cpu/c"])
            self.assertIsNone(cases["tone/cpu/a"].find("failure"))
            for t in ("tone/cpu/b", "tone/cpu/c"):
                self.assertIn("did not run", cases[t].find("failure").get("message"))
            with open(os.path.join(tmp, "res", "results.json")) as f:
                doc = json.load(f)
            self.assertEqual([(r["case"], r["outcome"]) for r in doc["runs"]], [("a", "PASS"), ("b", "ERROR"), ("c", "ERROR")])
            self.assertEqual(doc["lava"]["missing"], ["tone/cpu/b", "tone/cpu/c"])
        finally:
            shutil.rmtree(tmp)


def e2e(build):
    """See the module's docstring. Returns 0, 1 or 77 (no lava-run or sshd here)."""
    from ..devices import devicectest_test as dt
    if not shutil.which("lava-run") or not os.path.exists("/usr/sbin/sshd") or os.geteuid() != 0:
        print("SKIP: needs lava-run (lava-dispatcher), /usr/sbin/sshd and root (LAVA's dispatcher directories)")
        return 77
    tmp = tempfile.mkdtemp(prefix="lava-e2e-")
    sshd = None
    try:
        golden = os.path.join(tmp, "golden")
        dt.plant_wrong_golden(os.path.join(fx.ROOT, "golden"), golden)
        bundle = os.path.join(tmp, "bundle.tar.gz")
        r = subprocess.run([os.path.join(fx.SCRIPTS, "device-ctest"), "--build", build, "--golden", golden,
                            "--out", os.path.join(tmp, "out"), "--bundle", bundle], capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: device-ctest --bundle: %s" % r.stderr)
            return 1
        sshd, port, key = start_sshd(os.path.join(tmp, "ssh"))
        device = os.path.join(tmp, "device.yaml")
        with open(device, "w") as f:
            f.write(DEVICE % {"port": port, "key": key})
        # one shard of three, so that the job stays short; its tests are what scripts/lava-job chose
        jobs = os.path.join(tmp, "jobs")
        r = fx.run_script("lava-job", "--bundle", bundle, "--bundle-url", "file://" + bundle, "--device-type", "ssh",
                          "--shards", "3", "--out", jobs)
        if r.returncode != 0:
            print("FAIL: lava-job: %s" % r.stderr)
            return 1
        index = json.load(open(os.path.join(jobs, "jobs.json")))["jobs"]
        job = max(index, key=lambda j: sum(t.startswith("blur3x3/cpu/") for t in j["tests"]))
        os.makedirs(os.path.join(tmp, "lava"))
        log = os.path.join(jobs, "job.log.yaml")
        with open(log, "w") as logf:
            r = subprocess.run(["lava-run", "--job-id", "aot%d" % os.getpid(), "--output-dir", os.path.join(tmp, "lava"),
                                "--device", device, os.path.join(jobs, job["job"])], stdout=subprocess.DEVNULL,
                               stderr=logf, timeout=1200)
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
            problems.append("junit.xml has %d tests, %d failed; want %d, %d" % (
                len(cases), nfail, len(job["tests"]), list(got.values()).count("FAIL")))
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
        f.write("\n".join(["Port %d" % port, "ListenAddress 127.0.0.1", "HostKey %s/host_key" % keys,
                           "PidFile %s/sshd.pid" % keys, "AuthorizedKeysFile %s/authorized_keys" % keys,
                           "PasswordAuthentication no", "PermitRootLogin prohibit-password", "UsePAM no",
                           "StrictModes no", "Subsystem sftp /usr/lib/openssh/sftp-server", ""]))
    p = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", cfg], stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(keys, "log"), "w"))
    deadline = time.time() + 15
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port, os.path.join(keys, "user_key")
        except OSError:
            time.sleep(0.2)
    p.kill()
    raise RuntimeError("sshd did not listen on 127.0.0.1:%d" % port)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "e2e":
        return e2e(sys.argv[sys.argv.index("--build") + 1])
    try:
        import lava_common.schemas  # noqa: F401
    except ImportError:
        print("SKIP: lava-common is not installed (apt-get install lava-common)")
        return 77
    return 0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
