"""Data work of scripts/device-ctest (the shell script does the staging and the transport).

python3 -m harnesslib.devices.devicectest plan --stage DIR --ctest CTEST --out-plan F [-- ctest args]
    For a device without ctest: asks the local ctest which tests of the staged tree the ctest arguments
    select (`ctest -N --show-only=json-v1`), and writes DIR/run_tests.sh, a POSIX sh script that runs
    them on the device one by one (paths relative to the staged tree, the tests' ENVIRONMENT applied)
    and appends `index <TAB> exit code <TAB> start <TAB> end` to out/fallback-results.tsv, each
    test's output to out/logs/<index>.log. F gets the plan (names, skip codes) as JSON.
python3 -m harnesslib.devices.devicectest junit --plan F --dir OUT
    Turns OUT/fallback-results.tsv and OUT/logs/ into OUT/junit.xml, in ctest's --output-junit format.
python3 -m harnesslib.devices.devicectest collect --dir OUT [--runner R] [--target T]
    Merges OUT/results/*.json (one `aot-harness run --json` file per test) into OUT/results.json, reads
    OUT/junit.xml (and the device's clocks and temperatures before and after, OUT/machine-*.json), prints a
    ctest-like summary (also OUT/summary.txt). Exit 0 when no test failed, 1 when
    one did, 2 when there is no JUnit file or no test ran.
"""

import argparse
import datetime
import json
import os
import socket
import subprocess
import sys
import xml.etree.ElementTree as ET

from .. import data, formats, jsonio, toolmain


from .junitxml import read_junit, write as write_junit, xml_safe  # noqa: F401 (read_junit: tests)


def sh_quote(s):
    return "'" + str(s).replace("'", "'\"'\"'") + "'"


def _prop(test, name, default=None):
    for p in test.get("properties", []):
        if p.get("name") == name:
            return p.get("value")
    return default


def relocate(arg, stage):
    """An argument of a test's command with the staged tree's absolute prefix made relative."""
    stage = stage.rstrip("/")
    if arg == stage:
        return "."
    if arg.startswith(stage + "/"):
        return arg[len(stage) + 1 :]
    return arg


def plan(stage, ctest, ctest_args):
    stage = os.path.realpath(stage)
    r = subprocess.run(
        [ctest, "-N", "--show-only=json-v1"] + list(ctest_args), cwd=stage, capture_output=True, text=True
    )
    if r.returncode != 0:
        raise data.InputError(
            "'%s -N %s' failed in the staged tree: %s; check the ctest arguments"
            % (ctest, " ".join(ctest_args), r.stderr.strip() or r.stdout.strip())
        )
    info = jsonio.loads(r.stdout, "ctest -N --show-only=json-v1", "use CMake 3.14 or newer")
    tests = []
    for t in info.get("tests", []):
        cmd = [relocate(a, stage) for a in t.get("command") or []]
        if not cmd:
            continue  # a test whose executable was not found: ctest would report it as not run
        # Programs of this machine (ctest resolved `sh` to /usr/bin/sh) are looked up in the device's PATH;
        # executables inside the staged tree are run by their relative path ("bin/x" -> "./bin/x").
        if cmd[0].startswith("/"):
            cmd[0] = os.path.basename(cmd[0])
        if "/" in cmd[0] and not cmd[0].startswith(("/", "./")):
            cmd[0] = "./" + cmd[0]
        skip = _prop(t, "SKIP_RETURN_CODE")
        tests.append(
            {
                "name": t["name"],
                "command": cmd,
                "environment": _prop(t, "ENVIRONMENT", []) or [],
                "skip_return_code": int(skip) if skip not in (None, "") else None,
                "will_fail": bool(_prop(t, "WILL_FAIL", False)),
            }
        )
    return tests


def write_script(tests, path):
    lines = [
        "#!/bin/sh",
        "# Written by scripts/device-ctest for a device without ctest: runs the selected tests one by one.",
        'cd "$(dirname "$0")" || exit 2',
        "mkdir -p out/logs",
        ": > out/fallback-results.tsv",
        "now() { t=$(date +%s%N 2>/dev/null); case $t in *N*|'') date +%s ;; *) echo \"$t\" ;; esac; }",
        "total=%d" % len(tests),
        "run_test() {",
        "  i=$1; name=$2; shift 2",
        "  start=$(now)",
        '  "$@" > "out/logs/$i.log" 2>&1',
        "  rc=$?",
        "  end=$(now)",
        '  printf \'%s\\t%s\\t%s\\t%s\\n\' "$i" "$rc" "$start" "$end" >> out/fallback-results.tsv',
        '  echo "$i/$total Test #$i: $name ... exit $rc"',
        "}",
    ]
    for i, t in enumerate(tests, 1):
        words = [sh_quote(i), sh_quote(t["name"])]
        if t["environment"]:
            words.append("env")
            words += [sh_quote(e) for e in t["environment"]]
        words += [sh_quote(a) for a in t["command"]]
        lines.append("run_test " + " ".join(words))
    lines.append("exit 0")
    jsonio.write_atomic(path, "\n".join(lines) + "\n")
    os.chmod(path, 0o755)


def _seconds(start, end):
    try:
        a, b = int(start), int(end)
    except ValueError:
        return 0.0
    # Nanoseconds (date +%s%N) or seconds (date +%s), whichever the device's date gave.
    scale = 1e9 if len(str(a)) > 12 else 1.0
    return max(0.0, (b - a) / scale)


def junit_from_fallback(plan_tests, out_dir):
    rows = {}
    tsv = os.path.join(out_dir, "fallback-results.tsv")
    if os.path.exists(tsv):
        with open(tsv) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 4 and parts[0].isdigit():
                    rows[int(parts[0])] = (int(parts[1]) if parts[1].lstrip("-").isdigit() else 2, parts[2], parts[3])
    suite = ET.Element(
        "testsuite", name="device-ctest", hostname="", timestamp=datetime.datetime.now().isoformat(timespec="seconds")
    )
    counts = {"tests": 0, "failures": 0, "skipped": 0, "disabled": 0}
    total_time = 0.0
    for i, t in enumerate(plan_tests, 1):
        counts["tests"] += 1
        case = ET.SubElement(suite, "testcase", name=xml_safe(t["name"]), classname=xml_safe(t["name"]))
        log = ""
        log_path = os.path.join(out_dir, "logs", "%d.log" % i)
        if os.path.exists(log_path):
            with open(log_path, errors="replace") as f:
                log = f.read()
        if i not in rows:
            case.set("time", "0")
            case.set("status", "notrun")
            ET.SubElement(case, "failure", message="did not run (no result on the device)")
            counts["failures"] += 1
            continue
        rc, start, end = rows[i]
        secs = _seconds(start, end)
        total_time += secs
        case.set("time", "%g" % secs)
        if t["skip_return_code"] is not None and rc == t["skip_return_code"]:
            case.set("status", "notrun")
            ET.SubElement(case, "skipped", message="SKIP_RETURN_CODE=%d" % rc)
            counts["skipped"] += 1
        elif (rc == 0) != t["will_fail"]:
            case.set("status", "run")
        else:
            case.set("status", "fail")
            ET.SubElement(case, "failure", message="Failed (exit code %d)" % rc)
            counts["failures"] += 1
        ET.SubElement(case, "system-out").text = xml_safe(log)
    for k, v in counts.items():
        suite.set(k, str(v))
    suite.set("time", "%g" % total_time)
    write_junit(suite, os.path.join(out_dir, "junit.xml"))


def merge_results(out_dir, runner, target):
    rdir = os.path.join(out_dir, "results")
    merged = {"environment": None, "runs": [], "summary": {}, "device": {"runner": runner, "target": target}}
    states = {}
    for when in ("before", "after"):  # the device's clocks and temperatures around the run (device-ctest)
        path = os.path.join(out_dir, "machine-%s.json" % when)
        if os.path.exists(path):
            try:
                states[when] = (data.read_json(path).get("now") or {}).get("after")
            except (data.InputError, AttributeError):
                print(
                    "device-ctest: warning: %s is not what `aot-harness machine --json` writes" % path, file=sys.stderr
                )
    if states:
        merged["device"]["machine"] = states
    if os.path.isdir(rdir):
        for fn in sorted(os.listdir(rdir)):
            if not fn.endswith(".json"):
                continue
            try:
                d = formats.check_results(data.read_json(os.path.join(rdir, fn)), os.path.join(rdir, fn))
            except data.InputError as e:
                print("device-ctest: warning: %s" % e, file=sys.stderr)
                continue
            if merged["environment"] is None:
                merged["environment"] = d.get("environment")
            for run in d.get("runs", []):
                run.setdefault("ctest_name", fn[:-5].replace("__", "/"))
                merged["runs"].append(run)
    counts = {}
    for run in merged["runs"]:
        counts[run.get("outcome", "?")] = counts.get(run.get("outcome", "?"), 0) + 1
    merged["summary"] = dict(sorted(counts.items()), total=len(merged["runs"]))
    jsonio.write_atomic(os.path.join(out_dir, "results.json"), json.dumps(merged, indent=1, sort_keys=True))
    return merged


def collect(out_dir, runner, target):
    junit = os.path.join(out_dir, "junit.xml")
    merged = merge_results(out_dir, runner, target)
    if not os.path.exists(junit):
        print("device-ctest: no JUnit file came back (%s); see the logs in %s" % (junit, out_dir), file=sys.stderr)
        return 2
    cases = read_junit(junit)
    outcome = {}
    for run in merged["runs"]:
        outcome[run.get("ctest_name")] = run
    lines = ["device-ctest --runner %s%s: %d tests" % (runner, " --target " + target if target else "", len(cases))]
    width = max([len(c[0]) for c in cases] + [10])
    for name, status, secs, msg in cases:
        rec = outcome.get(name)
        detail = ("%s: %s" % (rec.get("outcome"), rec.get("message", ""))) if rec else msg
        lines.append("  %-8s %-*s %8.2f s  %s" % (status, width, name, secs, detail[:160]))
    failed = [c[0] for c in cases if c[1] == "Failed"]
    skipped = sum(1 for c in cases if c[1] == "Skipped")
    passed = len(cases) - len(failed)
    pct = int(100 * passed / len(cases)) if cases else 0
    lines.append("%d%% tests passed, %d tests failed out of %d (%d skipped)" % (pct, len(failed), len(cases), skipped))
    if failed:
        lines.append("The following tests FAILED: " + ", ".join(failed))
    from ..runs import machine

    for when, state in sorted((merged["device"].get("machine") or {}).items(), reverse=True):
        lines.append("machine %s the run: %s" % (when, machine.state_line(state)))
    lines.append("junit:   %s" % junit)
    lines.append("results: %s (%d runs)" % (os.path.join(out_dir, "results.json"), len(merged["runs"])))
    text = "\n".join(lines) + "\n"
    jsonio.write_atomic(os.path.join(out_dir, "summary.txt"), text)
    sys.stdout.write(text)
    if not cases:
        print("device-ctest: no test ran (did the ctest arguments select any?)", file=sys.stderr)
        return 2
    return 1 if failed else 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    ap = toolmain.ArgumentParser(
        prog="devicectest", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--stage", required=True)
    p.add_argument("--ctest", default="ctest")
    p.add_argument("--out-plan", required=True)
    j = sub.add_parser("junit")
    j.add_argument("--plan", required=True)
    j.add_argument("--dir", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--dir", required=True)
    c.add_argument("--runner", default="")
    c.add_argument("--target", default="")
    a = ap.parse_args(argv)
    if a.cmd == "plan":
        tests = plan(a.stage, a.ctest, extra)
        write_script(tests, os.path.join(a.stage, "run_tests.sh"))
        jsonio.write_atomic(
            a.out_plan, json.dumps({"tests": tests, "ctest_args": extra, "host": socket.gethostname()}, indent=1)
        )
        print("device-ctest: %d tests selected for the device's run_tests.sh" % len(tests))
        return 0
    if a.cmd == "junit":
        junit_from_fallback(
            jsonio.At(data.read_json(a.plan), a.plan, "make it with devicectest plan").get("tests").list(), a.dir
        )
        return 0
    return collect(a.dir, a.runner, a.target)


if __name__ == "__main__":
    sys.exit(toolmain.run("device-ctest", main))
