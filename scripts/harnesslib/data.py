"""Readers of the harness's JSON formats, normalised for comparison and storage.

results.json (aot-harness run --json): {"environment": {...}, "runs": [record, ...], "summary": {...}}
bench.json (Google Benchmark JSON): {"context": {...}, "benchmarks": [{"name": "BM_<p>/<profile>/<case>/<mode>/real_time",
  "run_type": "iteration"|"aggregate", "repetition_index", "real_time", "cpu_time", "time_unit",
  "pixels_per_second", "bytes_per_second", ...}]}

A "side" (one half of a comparison) is a dict {"label", "tests": {key: record}, "bench": {name: bench},
"env": {...}, "bench_context": {...}, "machine": {block: what the machine did, machine.py}} built from files (load_files_side) or from the history (history.load_side); sides.load_side picks.
"""

import argparse
import json
import os

from . import formats, jsonio
from .jsonio import InputError  # noqa: F401 - the tools' one error type, imported from here by most modules
from .paths import default_db, project_dir

# The outcome table of harness/src/base/outcome.h, least severe first: outcomes.json is the
# output of `aot-harness outcomes --json` (regenerate it when the table changes; the
# scripts/outcomes test fails until then).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "outcomes.json"), encoding="utf-8") as _f:
    OUTCOME_TABLE = json.load(_f)
OUTCOMES = [o["name"] for o in OUTCOME_TABLE]
SEVERITY = {o["name"]: o["severity"] for o in OUTCOME_TABLE}
EXIT_CODE = {o["name"]: o["exit_code"] for o in OUTCOME_TABLE}
COLOURS = {o["name"]: (o["colour"], o["text_colour"]) for o in OUTCOME_TABLE}  # badge background, text
# The project the tools work on, where out/ is by default (paths.py: the one `aot-harness <tool>` names,
# an outside project's too; else the checkout these scripts are in); DEFAULT_HISTORY is the history's one
# default (scripts/history, nightly, compare, dashboard).
REPO_ROOT = project_dir()
DEFAULT_HISTORY = default_db()
TIME_SCALE = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}  # to milliseconds


def add_history_argument(ap):
    """--db, the run history every tool that reads or writes it takes."""
    ap.add_argument(
        "--db", default=DEFAULT_HISTORY, help="history: SQLite path or postgresql:// URL (default %(default)s)"
    )


def arg_parser(prog, doc):
    """The command-line parser of a script whose module docstring is `doc`: its first paragraph is the
    description, the rest the epilog (kept as written)."""
    from .toolmain import ArgumentParser  # one-line errors, exit 2 (toolmain imports nothing of data)

    return ArgumentParser(
        prog=prog,
        description=doc.split("\n\n")[0],
        epilog=doc.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def severity(outcome):
    """Position in the outcome table; a name that is not in it is worse than every outcome (as in C++)."""
    return SEVERITY.get(outcome, len(OUTCOMES))


def worst(outcomes):
    """The most severe of `outcomes` (names; an unknown one is the worst), "PASS" for none: the one
    worst-of in Python, as worst_outcome() (harness/src/base/outcome.h) is in C++."""
    w = "PASS"
    for o in outcomes:
        if severity(o) > severity(w):
            w = o
    return w


def passed(outcome):
    """PASS, and what counts as passing: exit code 0 (XFAIL, XPASS)."""
    return EXIT_CODE.get(outcome) == 0


def failed(outcome):
    """Neither passing nor skipped: the exit code of a failed run (unknown names included)."""
    return EXIT_CODE.get(outcome) not in (0, 77)


def test_key(rec):
    return "%s/%s/%s/%s" % (rec.get("pipeline"), rec.get("profile"), rec.get("case"), rec.get("mode", "host"))


def read_json(path, fix="was the run interrupted? run it again"):
    """A JSON file through jsonio (nesting limit, one-line errors naming the file)."""
    return jsonio.load(path, fix)


kind_of = formats.kind_of


def parse_bench_name(name):
    """'BM_blur3x3/opencl/small/resident/real_time' -> (short name, pipeline, profile, case, mode)."""
    parts = name.split("/")
    if parts and parts[-1] == "real_time":
        parts = parts[:-1]
    short = "/".join(parts)
    p = parts[0][3:] if parts and parts[0].startswith("BM_") else (parts[0] if parts else "")
    fields = parts[1:4] + [""] * (3 - len(parts[1:4]))
    return short, p, fields[0], fields[1], fields[2]


def bench_driver(context, profile):
    """Driver description of `profile` from a bench context ('device.<profile>' JSON), or ''."""
    raw = context.get("device." + profile)
    if not raw:
        return ""
    try:
        d = jsonio.loads(raw, "device." + profile, "") if isinstance(raw, str) else raw
    except InputError:
        return str(raw)
    return driver_string(d)


def driver_string(dev):
    """A driver as it reports itself, from a record's device: its `identity` (the harness writes it:
    'Vulkan Mesa llvmpipe, Mesa 22.3.6 (LLVM 15.0.6)', vendor, driverName and driverInfo;
    'OpenCL Portable Computing Language [The pocl project] driver 3.1, OpenCL 3.0 PoCL 3.1 ...', platform,
    vendor, CL_DRIVER_VERSION and CL_PLATFORM_VERSION); for records written before it, the platform and
    driver version ('Oclgrind 21.10')."""
    if not isinstance(dev, dict) or not dev:
        return ""
    if dev.get("identity"):
        return dev["identity"]
    drv = dev.get("driver_version") or dev.get("driver") or ""
    plat = dev.get("platform") or dev.get("device") or ""
    if drv.startswith(plat):
        return drv
    return ("%s %s" % (plat, drv)).strip()


def test_driver(rec):
    return driver_string((rec.get("metrics") or {}).get("device") or {})


def normalise_bench(doc):
    """{"context", "bench": {short name: {pipeline, profile, case, mode, unit, label, driver, error,
    samples: [{rep, real_time_ms, cpu_time_ms, iterations, pixels_per_second, bytes_per_second}]}}}.
    Only per-repetition entries are kept (aggregates are recomputed from them)."""
    context = doc.get("context") or {}
    out = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        short, p, prof, case, mode = parse_bench_name(b.get("run_name") or b.get("name", ""))
        e = out.setdefault(
            short,
            {
                "pipeline": p,
                "profile": prof,
                "case": case,
                "mode": mode,
                "label": b.get("label", ""),
                "driver": bench_driver(context, prof),
                "error": None,
                "samples": [],
            },
        )
        if b.get("error_occurred"):
            e["error"] = b.get("error_message", "error")
            continue
        scale = TIME_SCALE.get(b.get("time_unit", "ns"), 1e-6)
        e["samples"].append(
            {
                "rep": b.get("repetition_index", len(e["samples"])),
                "real_time_ms": b["real_time"] * scale,
                "cpu_time_ms": b.get("cpu_time", 0) * scale,
                "iterations": b.get("iterations", 0),
                "pixels_per_second": b.get("pixels_per_second"),
                "bytes_per_second": b.get("bytes_per_second"),
            }
        )
    return {"context": context, "bench": out}


def empty_side(label):
    return {
        "label": label,
        "tests": {},
        "bench": {},
        "env": {},
        "bench_context": {},
        "machine": {},
        "has_results": False,
        "has_bench": False,
    }


def add_document(side, doc, path):
    kind = kind_of(doc)
    if kind == "results":
        formats.check_results(doc, path)
        side["has_results"] = True
        side["env"] = doc.get("environment") or {}
        if isinstance(doc.get("explore"), dict):  # aot-harness explore's findings
            side.setdefault("explore", []).append(doc["explore"])
        for rec in doc["runs"]:
            side["tests"][test_key(rec)] = rec
    elif kind == "bench":
        formats.check_bench(doc, path)
        side["has_bench"] = True
        nb = normalise_bench(doc)
        side["bench_context"] = nb["context"]
        side["bench"].update(nb["bench"])
        from .runs import machine

        try:
            side["machine"].update(machine.blocks_of(nb["context"]))
        except InputError as e:
            raise InputError("%s: %s" % (path, e))
    else:
        raise InputError(
            "%s is neither a results file (with 'runs') nor a Google Benchmark JSON (with 'benchmarks')" % path
        )


def load_files_side(spec):
    """One side of a comparison from files: a directory holding results.json and/or bench.json, or files
    joined with ',' (each a results or bench JSON). sides.load_side also takes run ids of the history."""
    if spec.isdigit() and not os.path.exists(spec):
        raise InputError("'%s' looks like a run id: pass --db HISTORY.sqlite" % spec)
    side = empty_side(spec)
    paths = []
    for part in spec.split(","):
        if os.path.isdir(part):
            found = [
                os.path.join(part, n) for n in ("results.json", "bench.json") if os.path.exists(os.path.join(part, n))
            ]
            if not found:
                raise InputError("directory %s has neither results.json nor bench.json" % part)
            paths += found
        else:
            paths.append(part)
    for p in paths:
        add_document(side, read_json(p), p)
    side["label"] = spec
    return side


def side_drivers(side):
    """Sorted set of driver strings seen in a side (tests' devices, bench contexts)."""
    ds = {test_driver(r) for r in side["tests"].values()}
    ds |= {b["driver"] for b in side["bench"].values()}
    return sorted(d for d in ds if d)
