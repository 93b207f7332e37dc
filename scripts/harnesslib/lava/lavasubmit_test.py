"""Tests of scripts/lava-job --submit (lavasubmit.py) against a small stand-in for lava-server's REST API on
127.0.0.1 (the real one runs in the nightly scripts/lava-lab test: lavalab_test.py); also lava-lab up's checks of
what a previous lab left (a stale pid file, jobs left unfinished).

  python3 -m harnesslib.lava.lavasubmit_test

The stand-in answers POST /api/v0.2/jobs/, GET jobs/<id>/ and jobs/<id>/logs/ as lava-server 2023.01 does,
checks the token on every request, and plays a script per job name: "complete" (a log with the job's test
results and records), "incomplete" (LAVA's infrastructure error), or a list, one per submission. Checked:
a complete job's FAIL and PASS come back as they are; a job Incomplete once and Complete on its retry counts
its retry; a job Incomplete twice makes every one of its tests INFRA (a JUnit <error>, never a failure, never a
pass, exit 1) even when its log reported passes; a wrong token is one line and exit 2; the token is never in
the transcript.
"""

import base64
import gzip
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import unittest
import xml.etree.ElementTree as ET

from ..testing import fixtures as fx

TOKEN = "s3cret-token-for-the-test"


def job_log(name, tests, outcomes, job_result="pass", error=None):
    """A lava-server job log (the YAML list of /logs/) with a planned job and the given results."""
    lines = [
        {"dt": "t", "lvl": "target", "msg": "AOTH-JOB " + name},
        {"dt": "t", "lvl": "target", "msg": "AOTH-PLAN %s %s" % (name, " ".join(tests))},
    ]
    for t, o in zip(tests, outcomes):
        p, prof, c = t.split("/")
        rec = {
            "environment": {"platform": "arm-64-linux"},
            "runs": [{"pipeline": p, "profile": prof, "case": c, "mode": "host", "outcome": o, "message": o}],
        }
        b64 = base64.b64encode(gzip.compress(json.dumps(rec).encode())).decode()
        case = t.replace("/", ".")
        lines.append({"dt": "t", "lvl": "target", "msg": "AOTH-REC %s gz %s" % (case, b64)})
        lines.append(
            {
                "dt": "t",
                "lvl": "results",
                "msg": {
                    "definition": "0_aot-harness",
                    "case": case,
                    "result": "pass" if o == "PASS" else "fail",
                    "measurement": "1.5",
                    "units": "seconds",
                },
            }
        )
    job = {"definition": "lava", "case": "job", "result": job_result}
    if error:
        job.update(error_type="Infrastructure", error_msg=error)
    lines.append({"dt": "t", "lvl": "results", "msg": job})
    return "".join("- %s\n" % json.dumps(l) for l in lines)


class FakeLava(http.server.ThreadingHTTPServer):
    """lava-server's REST API as far as --submit uses it; `script[job name]` says how each submission ends."""

    def __init__(self, script, tests):
        super().__init__(("127.0.0.1", 0), Handler)
        self.script, self.tests, self.jobs, self.submitted = script, tests, {}, []


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def reply(self, status, body, ctype="application/json"):
        raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def authorized(self):
        if self.headers.get("Authorization") != "Token " + TOKEN:
            self.reply(401, {"detail": "Invalid token."})
            return False
        return True

    def do_POST(self):
        if not self.authorized():
            return
        import yaml

        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        name = yaml.safe_load(body["definition"])["job_name"]
        plan = self.server.script[name]
        n = sum(1 for s in self.server.submitted if s == name)
        ending = plan[min(n, len(plan) - 1)] if isinstance(plan, list) else plan
        job_id = len(self.server.jobs) + 1
        self.server.submitted.append(name)
        self.server.jobs[job_id] = {"name": name, "ending": ending, "polls": 0}
        self.reply(201, {"message": "job(s) successfully submitted", "job_ids": [job_id]})

    def do_GET(self):
        if not self.authorized():
            return
        if self.path.startswith("/api/v0.2/jobs/?"):  # the job list (lava-lab up looks for stale jobs)
            return self.reply(
                200,
                {
                    "count": len(self.server.jobs),
                    "results": [
                        {"id": i, "state": j.get("state", "Finished")} for i, j in sorted(self.server.jobs.items())
                    ],
                },
            )
        parts = [p for p in self.path.split("/") if p]  # api v0.2 jobs <id> [logs]
        job = self.server.jobs.get(int(parts[3])) if len(parts) >= 4 and parts[3].isdigit() else None
        if job is None:
            return self.reply(404, {"detail": "Not found."})
        tests = self.server.tests[job["name"]]
        if len(parts) == 5 and parts[4] == "logs":
            if job["ending"] == "complete":
                outcomes = ["FAIL" if t.startswith("blur3x3/") else "PASS" for t in tests]
                return self.reply(200, job_log(job["name"], tests, outcomes), "application/yaml")
            # the device died after the first test: a pass in the log, then LAVA's infrastructure error
            return self.reply(
                200,
                job_log(job["name"], tests[:1], ["PASS"], "fail", "qemu: machine type not found"),
                "application/yaml",
            )
        job["polls"] += 1
        running = job["polls"] < 3
        health = "Unknown" if running else {"complete": "Complete", "incomplete": "Incomplete"}[job["ending"]]
        self.reply(
            200,
            {
                "id": int(parts[3]),
                "state": "Running" if running else "Finished",
                "health": health,
                "actual_device": "qemu01",
                "failure_comment": None,
            },
        )


class Submit(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="lavasubmit-test-")
        self.jobs = os.path.join(self.tmp, "jobs")
        os.makedirs(self.jobs)
        self.tests = {
            "job-a": ["blur3x3/cpu/small", "brighten/cpu/small"],
            "job-b": ["brighten/opencl-mali/small", "sobel/cpu/small"],
            "job-c": ["matmul/vulkan-mali/small", "sobel/vulkan-mali/small"],
        }
        index = []
        for name, tests in self.tests.items():
            with open(os.path.join(self.jobs, name + ".yaml"), "w") as f:
                f.write("job_name: %s\ndevice_type: qemu\n" % name)
            index.append(
                {"job": name + ".yaml", "name": name, "device_type": "qemu", "shard": 1, "shards": 1, "tests": tests}
            )
        with open(os.path.join(self.jobs, "jobs.json"), "w") as f:
            json.dump({"bundle_url": "file:///b", "label": "precommit", "jobs": index}, f)
        self.token = os.path.join(self.tmp, "token")
        with open(self.token, "w") as f:
            f.write(TOKEN + "\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def serve(self, script):
        srv = FakeLava(script, self.tests)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        self.addCleanup(srv.server_close)
        self.addCleanup(srv.shutdown)
        return srv, "http://127.0.0.1:%d/" % srv.server_address[1]

    def submit(self, url, token=None, *extra):
        return fx.run_script(
            "lava-job",
            "--jobs",
            self.jobs,
            "--submit",
            url,
            "--token-file",
            token or self.token,
            "--poll-seconds",
            "0.1",
            "--out",
            os.path.join(self.tmp, "res"),
            *extra,
        )

    def test_fail_pass_retry_and_infrastructure_failure(self):
        srv, url = self.serve({"job-a": "complete", "job-b": ["incomplete", "complete"], "job-c": "incomplete"})
        r = self.submit(url)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # a FAIL and an INFRA
        self.assertEqual(sorted(srv.submitted), ["job-a", "job-b", "job-b", "job-c", "job-c"])  # one retry each
        res = os.path.join(self.tmp, "res")
        doc = json.load(open(os.path.join(res, "results.json")))
        got = {"%(pipeline)s/%(profile)s/%(case)s" % x: x["outcome"] for x in doc["runs"]}
        self.assertEqual(
            got,
            {
                "blur3x3/cpu/small": "FAIL",
                "brighten/cpu/small": "PASS",
                "brighten/opencl-mali/small": "PASS",
                "sobel/cpu/small": "PASS",
                "matmul/vulkan-mali/small": "INFRA",
                "sobel/vulkan-mali/small": "INFRA",
            },
        )
        infra = [x for x in doc["runs"] if x["outcome"] == "INFRA"][0]["message"]
        self.assertIn("Incomplete", infra)
        self.assertIn("qemu: machine type not found", infra)  # LAVA's own reason, from the failed job's log
        cases = {c.get("name"): c for c in ET.parse(os.path.join(res, "junit.xml")).getroot().iter("testcase")}
        self.assertEqual(cases["matmul/vulkan-mali/small"].find("error").get("type"), "INFRA")
        self.assertIsNone(cases["matmul/vulkan-mali/small"].find("failure"))
        self.assertIsNotNone(cases["blur3x3/cpu/small"].find("failure"))
        self.assertIsNone(cases["sobel/cpu/small"].find("failure"))
        attempts = {
            a["name"]: [x["health"] for x in a["attempts"]] for a in json.load(open(os.path.join(res, "attempts.json")))
        }
        self.assertEqual(
            attempts,
            {"job-a": ["Complete"], "job-b": ["Incomplete", "Complete"], "job-c": ["Incomplete", "Incomplete"]},
        )
        transcript = open(os.path.join(res, "rest-transcript.txt")).read()
        self.assertIn("POST /api/v0.2/jobs/ -> HTTP 201, job_ids [1]", transcript)
        self.assertIn("/logs/ -> HTTP 200", transcript)
        self.assertNotIn(TOKEN, transcript + r.stdout + r.stderr)

    def test_no_retry_left(self):
        srv, url = self.serve({"job-a": "complete", "job-b": ["incomplete", "complete"], "job-c": "complete"})
        r = self.submit(url, None, "--retries", "0")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        doc = json.load(open(os.path.join(self.tmp, "res", "results.json")))
        self.assertEqual(
            {
                x["outcome"]
                for x in doc["runs"]
                if x["profile"] == "opencl-mali" or x["pipeline"] == "sobel" and x["profile"] == "cpu"
            },
            {"INFRA"},
        )

    def test_wrong_token_is_one_line(self):
        _, url = self.serve({"job-a": "complete", "job-b": "complete", "job-c": "complete"})
        bad = os.path.join(self.tmp, "bad")
        with open(bad, "w") as f:
            f.write("nope\n")
        r = self.submit(url, bad)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("refused the token", r.stderr)

    def test_server_down_is_one_line(self):
        import socket

        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        r = self.submit("http://127.0.0.1:%d/" % port)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot reach lava-server", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class LabUp(unittest.TestCase):
    """lava-lab's checks on what a previous lab left: its pid files and its unfinished jobs."""

    def test_stale_jobs_are_failed_and_finished_ones_left(self):
        from . import lavalab

        srv = FakeLava({}, {})
        srv.jobs = {1: {"state": "Finished"}, 2: {"state": "Running"}, 3: {"state": "Submitted"}}
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        tmp = tempfile.mkdtemp(prefix="lavalab-test-")
        calls, real = [], lavalab.manage
        try:
            token = os.path.join(tmp, "token")
            with open(token, "w") as f:
                f.write(TOKEN + "\n")
            lavalab.manage = lambda root, *args, check=True: calls.append(args)
            stale = lavalab.fail_stale_jobs(tmp, "http://127.0.0.1:%d/" % srv.server_address[1], token)
        finally:
            lavalab.manage = real
            srv.shutdown()
            shutil.rmtree(tmp)
        self.assertEqual(stale, [2, 3])
        self.assertEqual(calls, [("jobs", "fail", "2"), ("jobs", "fail", "3")])

    def test_pid_file_counts_only_inside_the_lab_root(self):
        from . import lavalab

        tmp = tempfile.mkdtemp(prefix="lavalab-test-")
        try:
            os.makedirs(os.path.join(tmp, "run"))
            with open(os.path.join(tmp, "run", "lava-worker.pid"), "w") as f:
                f.write("%d\n" % os.getpid())  # a live process, but its / is not the lab's root
            self.assertIsNone(lavalab._pid(tmp, "lava-worker"))
            self.assertEqual(lavalab._pid("/", "nothing-here"), None)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1)
