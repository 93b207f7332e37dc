"""scripts/lava-job --fetch LOG... --out DIR: LAVA job logs back into DIR/junit.xml and DIR/results.json.

A LAVA job log (lava-server's /api/v0.2/jobs/<id>/logs/, or output.yaml of `lava-run`) is a YAML list of
{dt, lvl, msg}: test case results are lvl 'results' (msg {definition, case, result, measurement, units}),
the device's output lvl 'target'. The jobs of scripts/lava-job print each test's `aot-harness run --json`
file as 'AOTH-REC <case> gz|raw <base64>' lines; those become the runs of results.json. A test LAVA reported
without a record keeps its LAVA result (a record made from it, 'record missing' in its message). The jobs
print the tests they will run first ('AOTH-PLAN <job> <test>...'; also jobs.json from scripts/lava-job, next
to the logs or in --out): a scheduled test the log never reports (a job that stopped, a log cut short) is a
"did not run" failure in junit.xml and an ERROR record in results.json, never a pass and never left out.
A record or a measurement that cannot be read means a damaged log: one line naming it, exit 2, nothing
written. Exit 0 all passed or skipped, 1 a test failed, did not run, or a job did not complete.
"""

import base64
import datetime
import gzip
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from .. import data, formats, jsonio
from ..devices.junitxml import to_bytes, xml_safe

SAFE = re.compile(r"[^-_.a-zA-Z0-9]")
B64 = re.compile(r"^[A-Za-z0-9+/=]+$")


def lava_name(test):
    """'blur3x3/opencl-mali/small' -> 'blur3x3.opencl-mali.small' (LAVA test case names: [-_.a-zA-Z0-9])."""
    return SAFE.sub("_", test.replace("/", "."))


def load_log(path):
    """The entries of a LAVA job log: a YAML list (lava-server's API) or one flow mapping per line (lava-run)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise data.InputError("cannot read %s: %s; check the path" % (path, e.strerror))
    entries = []
    for line in lines:
        line = line[2:] if line.startswith("- ") else line
        if not line.startswith("{"):
            continue
        jsonio.check_depth(line, path, "the log is damaged: download it again")
        try:
            entries.append(json.loads(line))
        except ValueError:
            try:
                entries.append(yaml.load(line, Loader=loader))
            except yaml.YAMLError:
                continue
    if not entries:
        raise data.InputError(
            "%s is not a LAVA job log: no {dt, lvl, msg} entries (pass the job's log: "
            "lava-server /api/v0.2/jobs/<id>/logs/, or what lava-run wrote to stderr)" % path
        )
    return entries


def parse_log(entries, path):
    """(cases {name: {result, measurement, units}}, records {name: results doc}, job result, job names,
    planned {job name: [test, ...]}) of one log."""
    cases, chunks, job, job_names, planned = {}, {}, None, set(), {}
    for e in entries:
        if not isinstance(e, dict):
            continue
        lvl, msg = e.get("lvl"), e.get("msg")
        if lvl == "results" and isinstance(msg, dict):
            if msg.get("definition") == "lava":
                if msg.get("case") == "job":
                    job = msg.get("result")
                continue
            name = str(msg.get("case"))
            m = msg.get("measurement")
            try:
                secs = float(m) if m not in (None, "") else 0.0
            except (TypeError, ValueError):
                secs = float("nan")
            if secs != secs or secs in (float("inf"), float("-inf")):
                raise data.InputError(
                    "%s: test %s: measurement %s is not a number of seconds; the log is damaged: "
                    "download it again" % (path, name, jsonio.brief(m))
                )
            cases[name] = {"result": msg.get("result"), "measurement": secs, "units": msg.get("units", "")}
        elif lvl == "target" and isinstance(msg, str):
            for line in msg.splitlines():
                parts = line.strip().split()
                if len(parts) == 2 and parts[0] == "AOTH-JOB":
                    job_names.add(parts[1])
                if len(parts) >= 3 and parts[0] == "AOTH-PLAN":
                    planned.setdefault(parts[1], []).extend(parts[2:])
                if len(parts) == 4 and parts[0] == "AOTH-REC" and parts[2] in ("gz", "raw") and B64.match(parts[3]):
                    chunks.setdefault((parts[1], parts[2]), []).append(parts[3])
    records = {}
    for (name, enc), lines in chunks.items():
        where = "%s: the record of %s" % (path, name)
        try:
            raw = base64.b64decode("".join(lines))
            raw = gzip.decompress(raw) if enc == "gz" else raw
        except (ValueError, OSError, EOFError) as ex:
            raise data.InputError("%s is damaged (%s); download the log again" % (where, ex))
        doc = jsonio.loads(raw, where, "the log is damaged: download it again")
        records[name] = formats.check_results(doc, where, "the log is damaged: download it again")
    return cases, records, job, job_names, planned


def expected_tests(paths, out_dir, job_names, jobs_index=None):
    """{lava case name: test name} of the jobs the logs ran (`job_names`), from `jobs_index` or a jobs.json
    next to the logs or in out_dir (scripts/lava-job writes it)."""
    want = {}
    for d in [None] + sorted({os.path.dirname(os.path.abspath(p)) for p in paths} | {out_dir}):
        cands = (
            [jobs_index] if d is None else [os.path.join(d, "jobs.json"), os.path.join(os.path.dirname(d), "jobs.json")]
        )
        for cand in [c for c in cands if c]:
            if os.path.exists(cand):
                top = jsonio.At(
                    jsonio.load(cand, "write it again with scripts/lava-job"),
                    cand,
                    "write it again with scripts/lava-job",
                )
                for j in top.get("jobs", []).items():
                    if j.get("name").str() not in job_names:
                        continue
                    for t in j.get("tests", []).items():
                        want[lava_name(t.str())] = t.str()
                break
    return want


def lava_record(test, outcome, message):
    """A results record for a test LAVA knows of but whose own record is not in the log."""
    p = (test.split("/") + ["", "", ""])[:3]
    return {"pipeline": p[0], "profile": p[1], "case": p[2], "mode": "host", "outcome": outcome, "message": message}


def fetch(paths, out_dir, infra=None, jobs_index=None):
    """`infra`: {job name: {"tests", "message"}} of jobs that never completed (lavasubmit.py): their tests are
    INFRA records and JUnit errors, whatever else is known of them."""
    infra = infra or {}
    cases, records, jobs, names, planned = {}, {}, [], set(), {}
    for p in paths:
        c, r, job, n, plan = parse_log(load_log(p), p)
        names |= n
        cases.update(c)
        records.update(r)
        for k, v in plan.items():
            planned.setdefault(k, []).extend(v)
        jobs.append((p, job))
    want = expected_tests(paths, out_dir, names, jobs_index)
    for job_name in names:  # what the jobs said they would run, from the logs themselves
        for t in planned.get(job_name, []):
            want[lava_name(t)] = t
    suite = ET.Element(
        "testsuite", name="aot-harness-lava", timestamp=datetime.datetime.now().isoformat(timespec="seconds")
    )
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    runs, env, missing = [], None, []
    for name in sorted(set(cases) | set(want)):
        test = want.get(name, name.replace(".", "/"))
        counts["tests"] += 1
        c = cases.get(name)
        doc = records.get(name) or {}
        recs = doc.get("runs", [])
        env = env or doc.get("environment")
        if c is None and not recs:
            missing.append(test)
            recs = [
                lava_record(
                    test, "ERROR", "did not run: the job ended before this test reported (missing from the LAVA log)"
                )
            ]
        elif not recs:
            outcome = {"pass": "PASS", "skip": "SKIP"}.get(c["result"], "FAIL")
            recs = [lava_record(test, outcome, "LAVA result %s; the test's record is not in the log" % c["result"])]
        runs += recs
        secs = c["measurement"] if c else 0.0
        case = ET.SubElement(suite, "testcase", name=test, classname=test.split("/")[0], time="%g" % secs)
        detail = xml_safe("; ".join("%s: %s" % (r.get("outcome"), r.get("message", "")) for r in recs))
        if c is None:
            ET.SubElement(case, "failure", message="did not run: the job ended before this test reported")
            counts["failures"] += 1
        elif c["result"] == "skip":
            ET.SubElement(case, "skipped", message=detail or "skipped")
            counts["skipped"] += 1
        elif c["result"] != "pass":
            ET.SubElement(case, "failure", message=detail or "LAVA result %s (record missing)" % c["result"])
            counts["failures"] += 1
        for r in recs:  # passed on a retry: JUnit's (Maven Surefire's) flaky test, counted as passed
            if r.get("outcome") == "FLAKE":
                ET.SubElement(case, "flakyFailure", message=xml_safe(r.get("message", "")), type="FLAKE")
        if detail:
            ET.SubElement(case, "system-out").text = detail
    for job_name, job in sorted(infra.items()):
        for test in job["tests"]:
            counts["tests"] += 1
            counts["errors"] += 1
            rec = lava_record(test, "INFRA", "%s (LAVA job %s)" % (job["message"], job_name))
            runs.append(rec)
            case = ET.SubElement(suite, "testcase", name=test, classname=test.split("/")[0], time="0")
            ET.SubElement(case, "error", message=xml_safe(rec["message"]), type="INFRA")
            ET.SubElement(case, "system-out").text = xml_safe(rec["message"])
    for k, v in counts.items():
        suite.set(k, str(v))
    summary = {}
    for r in runs:
        summary[r.get("outcome", "?")] = summary.get(r.get("outcome", "?"), 0) + 1
    merged = {
        "environment": env,
        "runs": runs,
        "summary": dict(sorted(summary.items()), total=len(runs)),
        "lava": {
            "logs": [p for p, _ in jobs],
            "jobs": {p: j for p, j in jobs},
            "missing": missing,
            "infra": {k: v["message"] for k, v in infra.items()},
        },
    }
    jsonio.write_all_atomic(
        [
            (os.path.join(out_dir, "junit.xml"), to_bytes(suite)),
            (os.path.join(out_dir, "results.json"), json.dumps(merged, indent=1)),
        ]
    )
    print(
        "lava-job: --fetch: %d tests (%d failed, %d skipped, %d did not run, %d infrastructure failures), %d records; "
        "%s/junit.xml, %s/results.json"
        % (
            counts["tests"],
            counts["failures"],
            counts["skipped"],
            len(missing),
            counts["errors"],
            len(runs),
            out_dir,
            out_dir,
        )
    )
    bad_jobs = [p for p, j in jobs if j != "pass"]
    for p, j in jobs:
        if j is None:
            print(
                "lava-job: --fetch: the log %s ends before LAVA's job result: the job did not complete" % p,
                file=sys.stderr,
            )
        elif j != "pass":
            print("lava-job: --fetch: job of %s did not complete (LAVA job result %s)" % (p, j), file=sys.stderr)
    return 1 if counts["failures"] or counts["errors"] or bad_jobs else 0
