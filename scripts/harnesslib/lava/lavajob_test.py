"""Tests of scripts/lava-job.

python3 -m harnesslib.lava.lavajob_test             every generated job passes LAVA's own validator
                                               (lava_common.schemas.validate, Debian's lava-common), shards
                                               are disjoint and complete, --fetch on a recorded-format log
python3 -m harnesslib.lava.lavajob_test e2e --build DIR
                                               end to end (lavajob_e2e_test.py): a job run by the local
                                               lava-dispatcher on a throwaway sshd, its results fetched back.
"""

import base64
import gzip
import json
import os
import shutil
import sys
import tarfile
import tempfile
import unittest

from . import lavafetch, lavajob
from ..testing import fixtures as fx

LIST = {
    "pipelines": [
        {
            "name": "blur3x3",
            "profiles": [{"name": p} for p in ("cpu", "host", "opencl-mali", "opencl", "cuda")],
            "cases": [
                {"name": "small", "nightly": False},
                {"name": "odd", "nightly": False},
                {"name": "large", "nightly": True},
            ],
        },
        {
            "name": "sobel",
            "profiles": [{"name": p} for p in ("cpu", "host", "opencl")],
            "cases": [{"name": "small", "nightly": False}, {"name": "large", "nightly": True}],
        },
    ]
}
CUSTOM = {
    "board-ssh": {
        "bundle": "fetch",
        "path": "/data/aot-harness",
        "deploy": {"to": "ssh", "os": "oe"},
        "boot": {"method": "ssh", "connection": "ssh", "prompts": ["root@board:~# "]},
    },
    "broken": {"bundle": "fetch", "path": "/x", "deploy": {"to": "nowhere"}, "boot": {"method": "ssh"}},
}


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
        return fx.run_script(
            "lava-job",
            "--bundle",
            self.bundle,
            "--bundle-url",
            "https://files.example/b.tar.gz",
            "--device-types",
            os.path.join(self.tmp, "types.json"),
            *args,
        )

    def test_every_job_is_valid_and_shards_cover_the_matrix(self):
        from lava_common.schemas import validate

        out = os.path.join(self.tmp, "jobs")
        r = self.lava_job(
            "--device-type",
            "qemu",
            "--device-type",
            "ssh",
            "--device-type",
            "board-ssh",
            "--rootfs-url",
            "https://files.example/rootfs.ext4",
            "--shards",
            "3",
            "--out",
            out,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        index = json.load(open(os.path.join(out, "jobs.json")))
        self.assertEqual(len(index["jobs"]), 9)
        want = sorted(
            "%s/%s/%s" % (p["name"], q["name"], c["name"])
            for p in LIST["pipelines"]
            for q in p["profiles"]
            for c in p["cases"]
            if not c["nightly"]
        )
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
        r = self.lava_job(
            "--device-type",
            "qemu-arm64",
            "--rootfs-url",
            "file:///srv/a/rootfs.ext4",
            "--tag",
            "big",
            "--select",
            "^blur3x3/",
            "--out",
            out,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        job = load_yaml(os.path.join(out, "qemu-arm64-shard-1-of-1.yaml"))
        validate(job, strict=True)
        self.assertEqual((job["device_type"], job["context"]["arch"], job["tags"]), ("qemu", "arm64", ["big"]))
        images = job["actions"][0]["deploy"]["images"]
        self.assertEqual(
            (images["kernel"]["url"], images["initrd"]["url"]), ("file:///srv/a/Image", "file:///srv/a/initrd.gz")
        )
        self.assertIs(images["rootfs"]["overlays"]["lava"], True)  # LAVA's overlay in the image: no udev needed
        self.assertEqual(images["rootfs"]["overlays"]["aot-harness"]["path"], "/opt/aot-harness")
        tests = json.load(open(os.path.join(out, "jobs.json")))["jobs"][0]["tests"]
        self.assertTrue(tests and all(t.startswith("blur3x3/") for t in tests), tests)
        r = self.lava_job(
            "--device-type", "qemu-arm64", "--rootfs-url", "file:///r", "--select", "^nothing", "--out", out
        )
        self.assertEqual(r.returncode, 2)
        self.assertIn("matching --select", r.stderr)

    def test_python_shard_function_matches_the_published_fnv_vectors(self):
        self.assertEqual(lavajob.fnv1a64(""), 0xCBF29CE484222325)
        self.assertEqual(lavajob.fnv1a64("foobar"), 0x85944171F73967E8)
        self.assertTrue(all(lavajob.jump_hash(k, 1) == 0 for k in range(100)))

    def test_fetch(self):
        out = os.path.join(self.tmp, "jobs")
        self.assertEqual(self.lava_job("--device-type", "ssh", "--shards", "1", "--out", out).returncode, 0)
        rec = {
            "environment": {"host": "board"},
            "runs": [
                {
                    "pipeline": "blur3x3",
                    "profile": "cpu",
                    "case": "small",
                    "outcome": "FAIL",
                    "message": "output: 3 wrong \x1b[0m",
                }
            ],
        }
        b64 = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
        log = [
            {"dt": "t", "lvl": "target", "msg": "+ echo AOTH-JOB aot-harness-ssh-shard-1-of-1"},
            {"dt": "t", "lvl": "target", "msg": "AOTH-JOB aot-harness-ssh-shard-1-of-1"},
            {"dt": "t", "lvl": "target", "msg": "+ sed 's/^/AOTH-REC blur3x3.cpu.small gz /'"},
        ]
        log += [
            {"dt": "t", "lvl": "target", "msg": "AOTH-REC blur3x3.cpu.small gz " + b64[i : i + 76]}
            for i in range(0, len(b64), 76)
        ]
        log += [
            {
                "dt": "t",
                "lvl": "results",
                "msg": {
                    "definition": "0_aot-harness",
                    "case": "blur3x3.cpu.small",
                    "result": "fail",
                    "measurement": "2.0",
                    "units": "seconds",
                },
            },
            {
                "dt": "t",
                "lvl": "results",
                "msg": {
                    "definition": "0_aot-harness",
                    "case": "blur3x3.cuda.small",
                    "result": "skip",
                    "measurement": "0.0",
                },
            },
            {
                "dt": "t",
                "lvl": "results",
                "msg": {
                    "definition": "0_aot-harness",
                    "case": "sobel.cpu.small",
                    "result": "pass",
                    "measurement": "1.0",
                },
            },
            {"dt": "t", "lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "fail"}},
        ]
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
            make_bundle(
                bundle,
                {
                    "pipelines": [
                        {
                            "name": "tone",
                            "profiles": [{"name": "cpu"}],
                            "cases": [{"name": c, "nightly": False} for c in ("a", "b", "c")],
                        }
                    ]
                },
            )
            r = fx.run_script(
                "lava-job",
                "--bundle",
                bundle,
                "--bundle-url",
                "https://f.example/b.tgz",
                "--device-type",
                "ssh",
                "--out",
                os.path.join(tmp, "jobs"),
            )
            self.assertEqual(r.returncode, 0, r.stderr)
            job = load_yaml(os.path.join(tmp, "jobs", "ssh-shard-1-of-1.yaml"))
            steps = job["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
            # what the test shell prints: the echo lines' output, then the first test only
            printed = [s[len("echo ") :] for s in steps if s.startswith("echo AOTH-")]
            rec = {"environment": {}, "runs": [{"pipeline": "tone", "profile": "cpu", "case": "a", "outcome": "PASS"}]}
            b64 = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
            log = [{"dt": "t", "lvl": "target", "msg": m} for m in printed + ["AOTH-REC tone.cpu.a gz " + b64]]
            log.append(
                {
                    "dt": "t",
                    "lvl": "results",
                    "msg": {
                        "definition": "0_aot-harness",
                        "case": "tone.cpu.a",
                        "result": "pass",
                        "measurement": "0.5",
                    },
                }
            )
            logp = os.path.join(tmp, "elsewhere", "job.yaml")  # no jobs.json beside it
            os.makedirs(os.path.dirname(logp))
            with open(logp, "w") as f:
                f.write("\n".join(json.dumps(e) for e in log) + "\n")
            r = fx.run_script("lava-job", "--fetch", logp, "--out", os.path.join(tmp, "res"))
            self.assertEqual(r.returncode, 1, r.stderr)  # something failed: not 0, and not bad input
            self.assertIn("ends before LAVA's job result", r.stderr)
            import xml.etree.ElementTree as ET

            cases = {
                c.get("name"): c for c in ET.parse(os.path.join(tmp, "res", "junit.xml")).getroot().iter("testcase")
            }
            self.assertEqual(sorted(cases), ["tone/cpu/a", "tone/cpu/b", "tone/cpu/c"])
            self.assertIsNone(cases["tone/cpu/a"].find("failure"))
            for t in ("tone/cpu/b", "tone/cpu/c"):
                self.assertIn("did not run", cases[t].find("failure").get("message"))
            with open(os.path.join(tmp, "res", "results.json")) as f:
                doc = json.load(f)
            self.assertEqual(
                [(r["case"], r["outcome"]) for r in doc["runs"]], [("a", "PASS"), ("b", "ERROR"), ("c", "ERROR")]
            )
            self.assertEqual(doc["lava"]["missing"], ["tone/cpu/b", "tone/cpu/c"])
        finally:
            shutil.rmtree(tmp)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "e2e":
        from . import lavajob_e2e_test

        return lavajob_e2e_test.e2e(sys.argv[sys.argv.index("--build") + 1])
    try:
        import lava_common.schemas  # noqa: F401
    except ImportError:
        print("SKIP: lava-common is not installed (apt-get install lava-common)")
        return 77
    return 0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
