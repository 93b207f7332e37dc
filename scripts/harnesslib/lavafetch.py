"""scripts/lava-job --fetch LOG... --out DIR: LAVA job logs back into DIR/junit.xml and DIR/results.json.

A LAVA job log (lava-server's /api/v0.2/jobs/<id>/logs/, or output.yaml of `lava-run`) is a YAML list of
{dt, lvl, msg}: test case results are lvl 'results' (msg {definition, case, result, measurement, units}),
the device's output lvl 'target'. The jobs of scripts/lava-job print each test's `aot-harness run --json`
file as 'AOTH-REC <case> gz|raw <base64>' lines; those become the runs of results.json. A test LAVA reported
without a record keeps its LAVA result (and 'record missing' in its message); a job that stopped before a
test's lava-test-case has no result for it: it is counted as not run when jobs.json (from scripts/lava-job,
next to the logs or in --out) says it belonged to the job.
"""
import base64
import datetime
import gzip
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

from . import data
from .junitxml import write as write_junit, xml_safe

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
        raise data.InputError("cannot read %s: %s" % (path, e.strerror))
    entries = []
    for line in lines:
        line = line[2:] if line.startswith("- ") else line
        if not line.startswith("{"):
            continue
        try:
            entries.append(json.loads(line))
        except ValueError:
            try:
                entries.append(yaml.load(line, Loader=loader))
            except yaml.YAMLError:
                continue
    if not entries:
        raise data.InputError("%s is not a LAVA job log: no {dt, lvl, msg} entries (pass the job's log: "
                              "lava-server /api/v0.2/jobs/<id>/logs/, or what lava-run wrote to stderr)" % path)
    return entries


def parse_log(entries):
    """(cases {name: {result, measurement, units, job_status}}, records {name: [record, ...]}, job result)."""
    cases, chunks, job, job_names = {}, {}, None, set()
    for e in entries:
        if not isinstance(e, dict):
            continue
        lvl, msg = e.get("lvl"), e.get("msg")
        if lvl == "results" and isinstance(msg, dict):
            if msg.get("definition") == "lava":
                if msg.get("case") == "job":
                    job = msg.get("result")
                continue
            cases[str(msg.get("case"))] = {"result": msg.get("result"), "measurement": msg.get("measurement"),
                                           "units": msg.get("units", "")}
        elif lvl == "target" and isinstance(msg, str):
            for line in msg.splitlines():
                parts = line.strip().split()
                if len(parts) == 2 and parts[0] == "AOTH-JOB":
                    job_names.add(parts[1])
                if len(parts) == 4 and parts[0] == "AOTH-REC" and parts[2] in ("gz", "raw") and B64.match(parts[3]):
                    chunks.setdefault((parts[1], parts[2]), []).append(parts[3])
    records = {}
    for (name, enc), lines in chunks.items():
        try:
            raw = base64.b64decode("".join(lines))
            doc = json.loads(gzip.decompress(raw) if enc == "gz" else raw)
            records[name] = doc
        except (ValueError, OSError, EOFError) as ex:
            print("lava-job: --fetch: the record of %s is damaged (%s); keeping LAVA's result" % (name, ex),
                  file=sys.stderr)
    return cases, records, job, job_names


def expected_tests(paths, out_dir, job_names):
    """{lava case name: test name} of the jobs the logs ran (`job_names`), from a jobs.json next to the logs
    or in out_dir (scripts/lava-job writes it)."""
    want = {}
    for d in {os.path.dirname(os.path.abspath(p)) for p in paths} | {out_dir}:
        for cand in (os.path.join(d, "jobs.json"), os.path.join(os.path.dirname(d), "jobs.json")):
            if os.path.exists(cand):
                for j in data.read_json(cand).get("jobs", []):
                    if j.get("name") not in job_names:
                        continue
                    for t in j.get("tests", []):
                        want[lava_name(t)] = t
                break
    return want


def fetch(paths, out_dir):
    cases, records, jobs, names = {}, {}, [], set()
    for p in paths:
        c, r, job, n = parse_log(load_log(p))
        names |= n
        cases.update(c)
        records.update(r)
        jobs.append((p, job))
    want = expected_tests(paths, out_dir, names)
    os.makedirs(out_dir, exist_ok=True)
    suite = ET.Element("testsuite", name="aot-harness-lava", timestamp=datetime.datetime.now().isoformat(timespec="seconds"))
    counts = {"tests": 0, "failures": 0, "skipped": 0}
    runs, env = [], None
    names = sorted(set(cases) | set(want))
    for name in names:
        test = want.get(name, name.replace(".", "/"))
        counts["tests"] += 1
        c = cases.get(name)
        doc = records.get(name) or {}
        recs = doc.get("runs", [])
        env = env or doc.get("environment")
        runs += recs
        secs = float(c["measurement"]) if c and c.get("measurement") not in (None, "") else 0.0
        case = ET.SubElement(suite, "testcase", name=test, classname=test.split("/")[0], time="%g" % secs)
        detail = "; ".join("%s: %s" % (r.get("outcome"), r.get("message", "")) for r in recs)
        detail = xml_safe(detail)
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
                ET.SubElement(case, "flakyFailure", message=xml_safe(r.get("message", "")),
                              type="FLAKE")
        if detail:
            ET.SubElement(case, "system-out").text = detail
    for k, v in counts.items():
        suite.set(k, str(v))
    write_junit(suite, os.path.join(out_dir, "junit.xml"))
    summary = {}
    for r in runs:
        summary[r.get("outcome", "?")] = summary.get(r.get("outcome", "?"), 0) + 1
    merged = {"environment": env, "runs": runs, "summary": dict(sorted(summary.items()), total=len(runs)),
              "lava": {"logs": [p for p, _ in jobs], "jobs": {p: j for p, j in jobs}}}
    with open(os.path.join(out_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
    print("lava-job: --fetch: %d tests (%d failed, %d skipped), %d records; %s/junit.xml, %s/results.json"
          % (counts["tests"], counts["failures"], counts["skipped"], len(runs), out_dir, out_dir))
    bad_jobs = [p for p, j in jobs if j not in (None, "pass")]
    for p in bad_jobs:
        print("lava-job: --fetch: job of %s did not complete" % p, file=sys.stderr)
    return 1 if counts["failures"] or bad_jobs else 0
