"""scripts/lava-job --submit URL --token-file FILE: the jobs scripts/lava-job wrote, submitted to a lava-server
through its REST API (/api/v0.2/), waited for, and their logs fetched back into junit.xml and results.json.

  POST /api/v0.2/jobs/ {"definition": YAML}   -> {"job_ids": [id]}        (Authorization: Token <token>)
  GET  /api/v0.2/jobs/<id>/                   -> {"state", "health", "actual_device", "failure_comment"}
  GET  /api/v0.2/jobs/<id>/logs/              -> the job log (YAML), which lavafetch.py reads

A job whose health ends other than Complete (Incomplete: its device or LAVA failed; Canceled) is an
infrastructure failure, as Mesa's LAVA submitter separates them: submitted once more (--retries, default 1);
when every attempt failed, each of its tests is INFRA (its own outcome, a JUnit <error>), never a FAIL and
never a PASS, whatever the log of a failed attempt says. Every request is written to DIR/rest-transcript.txt
(and the console) as it happens; the token never is.
"""

import json
import os
import time
import urllib.error
import urllib.request

from .. import data, jsonio

FINISHED = "Finished"


class Rest:
    """lava-server's REST API at `url` (its root, e.g. http://127.0.0.1:8011/), token from a file."""

    def __init__(self, url, token, transcript):
        self.base = url.rstrip("/") + "/api/v0.2/"
        self.token = token
        self.transcript = transcript

    def note(self, line):
        stamp = time.strftime("%H:%M:%S")
        print("lava-job: %s %s" % (stamp, line), flush=True)
        self.transcript.write("%s %s\n" % (stamp, line))
        self.transcript.flush()

    def call(self, method, path, body=None, what="", quiet=False):
        req = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": "Token " + self.token, "Content-Type": "application/json", "Accept": "*/*"},
        )
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise data.InputError(
                "cannot reach lava-server at %s (%s); is it running? check --submit URL" % (self.base, reason)
            )
        summary = what(raw) if callable(what) and 200 <= status < 300 else "%d bytes" % len(raw)
        if not quiet or not 200 <= status < 300:
            self.note("%s /api/v0.2/%s -> HTTP %d, %s" % (method, path, status, summary))
        if status in (401, 403):
            raise data.InputError(
                "lava-server refused the token (HTTP %d) for %s %s; check --token-file" % (status, method, path)
            )
        if not 200 <= status < 300:
            raise data.InputError(
                "lava-server answered HTTP %d to %s /api/v0.2/%s: %s"
                % (status, method, path, jsonio.one_line(raw.decode("utf-8", "replace"))[:300])
            )
        return raw

    def json(self, method, path, body=None, what=""):
        raw = self.call(method, path, body, what)
        try:
            return json.loads(raw)
        except ValueError:
            raise data.InputError(
                "lava-server's answer to %s /api/v0.2/%s is not JSON: %s"
                % (method, path, jsonio.one_line(raw.decode("utf-8", "replace"))[:200])
            )


def _ids(raw):
    try:
        return "job_ids %s" % json.loads(raw).get("job_ids")
    except (ValueError, AttributeError):
        return "%d bytes" % len(raw)


def _state(raw):
    try:
        j = json.loads(raw)
        return "state %s, health %s%s" % (
            j.get("state"),
            j.get("health"),
            ", device %s" % j["actual_device"] if j.get("actual_device") else "",
        )
    except (ValueError, AttributeError):
        return "%d bytes" % len(raw)


def submit(rest, definition):
    j = rest.json("POST", "jobs/", {"definition": definition}, _ids)
    ids = j.get("job_ids") if isinstance(j, dict) else None
    if not ids or not isinstance(ids[0], int):
        raise data.InputError("lava-server accepted the job but named no job id (%s)" % jsonio.brief(j))
    return ids[0]


def wait(rest, job_id, poll_s, deadline):
    """The job's final state (state Finished), polling; a poll is noted only when the state changed."""
    last = None
    while True:
        raw = rest.call("GET", "jobs/%d/" % job_id, quiet=True)
        try:
            j = json.loads(raw)
        except ValueError:
            raise data.InputError("lava-server's answer for job %d is not JSON" % job_id)
        now = (j.get("state"), j.get("health"))
        if now != last:
            rest.note("GET /api/v0.2/jobs/%d/ -> HTTP 200, %s" % (job_id, _state(raw)))
        last = now
        if j.get("state") == FINISHED:
            return j
        if time.time() > deadline:
            raise data.InputError(
                "job %d is still %s after the wait; raise --wait-minutes or look at the server"
                % (job_id, j.get("state"))
            )
        time.sleep(poll_s)


def run(args, jobs_dir, out_dir):
    """Submits every job of jobs_dir/jobs.json, waits, fetches; then lavafetch writes the results."""
    from . import lavafetch

    index_path = os.path.join(jobs_dir, "jobs.json")
    fix = "write the jobs with scripts/lava-job --bundle ... --out DIR first"
    index = jsonio.At(jsonio.load(index_path, fix), index_path, fix)
    jobs = [
        {"file": j.get("job").str(), "name": j.get("name").str(), "tests": [t.str() for t in j.get("tests").items()]}
        for j in index.get("jobs").items()
    ]
    if not jobs:
        raise data.InputError("%s lists no jobs; %s" % (index_path, fix))
    try:
        with open(args.token_file, encoding="utf-8") as f:
            token = f.read().strip()
    except OSError as e:
        raise data.InputError("cannot read --token-file %s: %s" % (args.token_file, e.strerror))
    if not token:
        raise data.InputError("--token-file %s is empty; put the lava-server API token in it" % args.token_file)
    logs_dir = os.path.join(out_dir, "logs")
    os.makedirs(logs_dir, exist_ok=True)
    with open(os.path.join(out_dir, "rest-transcript.txt"), "w", encoding="utf-8") as transcript:
        rest = Rest(args.submit, token, transcript)
        pending = []
        for j in jobs:
            with open(os.path.join(jobs_dir, j["file"]), encoding="utf-8") as f:
                j["definition"] = f.read()
            j["attempts"] = []
            pending.append(j)
        deadline = time.time() + args.wait_minutes * 60
        for attempt in range(1 + args.retries):
            for j in pending:
                j["id"] = submit(rest, j["definition"])
                rest.note("%s: attempt %d is job %d" % (j["name"], attempt + 1, j["id"]))
            retry = []
            for j in pending:
                fin = wait(rest, j["id"], args.poll_seconds, deadline)
                j["attempts"].append(
                    {
                        "job": j["id"],
                        "health": fin.get("health"),
                        "device": fin.get("actual_device"),
                        "failure": fin.get("failure_comment") or "",
                    }
                )
                log = rest.call("GET", "jobs/%d/logs/" % j["id"])
                path = os.path.join(logs_dir, "job-%d.yaml" % j["id"])
                jsonio.write_atomic(path, log)
                if fin.get("health") == "Complete":
                    j["log"] = path
                else:
                    j["attempts"][-1]["error"] = lava_error(path)
                    rest.note(
                        "%s: job %d ended %s (%s): infrastructure failure%s"
                        % (
                            j["name"],
                            j["id"],
                            fin.get("health"),
                            j["attempts"][-1]["error"],
                            ", submitting it again" if attempt < args.retries else ", no retry left",
                        )
                    )
                    retry.append(j)
            pending = retry
            if not pending:
                break
    infra = {j["name"]: {"tests": j["tests"], "message": infra_message(j)} for j in pending}
    done = [j["log"] for j in jobs if j.get("log")]
    jsonio.write_atomic(
        os.path.join(out_dir, "attempts.json"),
        json.dumps([{"name": j["name"], "attempts": j["attempts"]} for j in jobs], indent=1),
    )
    return lavafetch.fetch(done, out_dir, infra=infra, jobs_index=index_path)


def lava_error(log_path):
    """LAVA's own account of why a job failed: the lava.job result's error_type and error_msg."""
    from . import lavafetch

    try:
        for e in lavafetch.load_log(log_path):
            msg = e.get("msg") if isinstance(e, dict) else None
            if (
                e.get("lvl") == "results"
                and isinstance(msg, dict)
                and msg.get("definition") == "lava"
                and msg.get("case") == "job"
            ):
                extra = msg.get("extra") if isinstance(msg.get("extra"), dict) else msg
                return "%s: %s" % (extra.get("error_type", "?"), jsonio.one_line(str(extra.get("error_msg", "")))[:200])
    except data.InputError:
        pass
    return "no job result in its log"


def infra_message(j):
    parts = [
        "job %d %s on %s (%s)"
        % (
            a["job"],
            a["health"],
            a.get("device") or "no device",
            a.get("error") or a.get("failure") or "no reason given",
        )
        for a in j["attempts"]
    ]
    return "infrastructure failure, not a test result: " + "; ".join(parts)
