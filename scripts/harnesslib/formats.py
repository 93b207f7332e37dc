"""The shapes of the files the Python tools read (results.json of `aot-harness run --json`, Google Benchmark
JSON), checked once when a file is read, so that a wrong shape is one line naming the file, the key path and
the fix (jsonio.At) and never a KeyError or TypeError deep inside a tool, a half-filled history or a value
SQLite cannot store."""

from typing import Any, Dict, List, TypedDict

from .jsonio import At, InputError, load  # noqa: F401 - InputError for the tools that import formats

RESULTS_FIX = "pass a results file `aot-harness run --json` wrote"
BENCH_FIX = "pass a Google Benchmark JSON (pipeline-benchmarks --benchmark_out=F --benchmark_out_format=json)"
TIME_UNITS = ("ns", "us", "ms", "s")
INT64 = 2**63 - 1


class RunRecord(TypedDict, total=False):
    """One element of a results file's "runs" as check_record admits it (harness/src/base/outcome.h writes it):
    the first four are always there, the rest default to "", 0 or {}."""

    pipeline: str
    profile: str
    case: str
    outcome: str  # an outcome name of outcomes.json
    mode: str
    message: str
    target: str
    result_outcome: str
    fallback_for: str
    xfail_reason: str
    stderr_tail: str
    duration_ms: float
    metrics: Dict[str, Any]
    artifacts: Dict[str, Any]


class Results(TypedDict, total=False):
    """A results file of `aot-harness run --json`, as check_results admits it."""

    environment: Dict[str, Any]
    runs: List[RunRecord]
    summary: Dict[str, Any]


class BenchEntry(TypedDict, total=False):
    """One element of a Google Benchmark JSON's "benchmarks", as check_bench admits it."""

    name: str
    run_name: str
    run_type: str  # "iteration" or "aggregate"
    label: str
    real_time: float
    cpu_time: float
    time_unit: str  # one of TIME_UNITS
    iterations: int
    repetition_index: int
    pixels_per_second: float
    bytes_per_second: float
    error_occurred: bool


def _metrics_numbers(at):
    """Every number under a record's metrics must fit the history's columns (8-byte floats)."""
    stack = [at]
    while stack:
        a = stack.pop()
        if isinstance(a.value, dict):
            stack += [v for _, v in a.members()]
        elif isinstance(a.value, list):
            stack += a.items()
        elif isinstance(a.value, int) and not isinstance(a.value, bool) and abs(a.value) > 2**1023:
            a.fail("is a number too large to store", "write a smaller value")


def _stored_num(at, lo=None):
    """A finite number the history stores as it is: an integer must fit 64 bits (SQLite binds a Python int as
    INTEGER whatever the column says, and refuses one beyond 2^63)."""
    v = at.value
    if isinstance(v, int) and not isinstance(v, bool) and not -(2**63) <= v <= INT64:
        at.fail(
            "is %d, an integer beyond 2^63 that the history cannot store" % v,
            "write a smaller value (or the number as a float, e.g. 1.8e19)",
        )
    return at.num(lo)


def check_record(at) -> None:
    """One run record (an element of "runs"): its value is then a RunRecord."""
    at.obj()
    for key in ("pipeline", "profile", "case", "outcome"):
        at.get(key).str()
    for key in ("mode", "message", "target", "result_outcome", "fallback_for", "xfail_reason", "stderr_tail"):
        at.get(key, "").str()
    _stored_num(at.get("duration_ms", 0))
    metrics = at.get("metrics", {})
    metrics.obj()
    _metrics_numbers(metrics)
    at.get("artifacts", {}).obj()


def _entries(doc, source, fix, key, what, side_key):
    """The elements of the document's list `key` (At), after checking the top level and its `side_key` object."""
    top = At(doc, source, fix)
    top.obj()
    if key not in doc:
        top.fail('not %s (no "%s" list)' % (what, key))
    top.get(side_key, {}).obj()
    return top.get(key).items()


def check_results(doc, source, fix=RESULTS_FIX) -> Results:
    """A results document: {"environment": {...}, "runs": [record, ...], ...}; returns doc."""
    for r in _entries(doc, source, fix, "runs", "a results file", "environment"):
        check_record(r)
    return doc


def check_bench(doc, source, fix=BENCH_FIX) -> Dict[str, Any]:
    """A Google Benchmark document: {"context": {...}, "benchmarks": [{...}, ...]}; returns doc."""
    for b in _entries(doc, source, fix, "benchmarks", "a Google Benchmark JSON", "context"):
        b.obj()
        b.get("name").str()
        b.get("run_name", "").str()
        b.get("label", "").str()
        if b.get("run_type", "iteration").str() != "iteration" or b.get("error_occurred", False).value:
            continue
        _stored_num(b.get("real_time"), 0)
        _stored_num(b.get("cpu_time", 0), 0)
        b.get("iterations", 0).int(0, INT64)
        b.get("repetition_index", 0).int(0, INT64)
        if b.get("time_unit", "ns").str() not in TIME_UNITS:
            b.get("time_unit").fail("'%s' is not a time unit" % b.value["time_unit"], "use ns, us, ms or s")
        for key in ("pixels_per_second", "bytes_per_second"):
            _stored_num(b.get(key, 0))
    return doc


def kind_of(doc):
    """'results', 'bench' or None for a parsed JSON document."""
    if isinstance(doc, dict) and "runs" in doc:
        return "results"
    if isinstance(doc, dict) and "benchmarks" in doc:
        return "bench"
    return None


def load_checked(path, want=("results", "bench")):
    """Reads a results or bench file (whichever `want` allows) and checks its shape: (kind, doc)."""
    doc = load(
        path,
        "pass a file the harness or pipeline-benchmarks wrote (an interrupted run may leave a "
        "partial one: run it again)",
    )
    kind = kind_of(doc)
    if kind not in want:
        names = {
            "results": 'a results file (no "runs" list)',
            "bench": 'a Google Benchmark JSON (no "benchmarks" list)',
        }
        fixes = {
            "results": "what `aot-harness run --json` wrote",
            "bench": "what pipeline-benchmarks --benchmark_out wrote",
        }
        At(doc, path).fail(
            "not " + " and not ".join(names[k] for k in want), "pass " + " or ".join(fixes[k] for k in want)
        )
    (check_results if kind == "results" else check_bench)(doc, path)
    return kind, doc
