"""What `explore` makes of a run record: whether the pipeline diverged on that profile from the cpu oracle,
and how (its class), so that the shrinker keeps a smaller pipeline only when it diverges the same way and
the report can group findings.

Classes: wrong-values (FAIL against the cpu golden), nondeterministic (repeats differ, or a FLAKE),
no-write (canary left, guard band broken), compile-rejected (the generator failed for this profile while
the cpu variant built: Halide refused the pipeline for this target), runtime-error (ERROR while running:
the driver refused the kernel or the runtime failed), crash, timeout, teardown. A pipeline whose cpu
variant cannot make a golden is `oracle-failed`: not a divergence (explore's or Halide's CPU backend's
problem), counted apart; so is a run an emulated device refused as beyond its limits (`beyond-device`).
"""

import re

PASSING = ("PASS", "XFAIL", "XPASS")


def divergence(rec):
    """(class, detail) of a record that is a divergence, else None."""
    o = rec.get("outcome", "ERROR")
    msg = rec.get("message", "") or ""
    if o in PASSING or o == "SKIP":
        return None
    if o == "FLAKE" or o == "NONDET":
        return ("nondeterministic", _first(msg))
    if o == "CRASH":
        return ("crash", _first(msg))
    if o == "TIMEOUT":
        return ("timeout", _first(msg))
    if o == "TEARDOWN_FAULT":
        return ("teardown", _first(msg))
    if o == "FAIL":
        low = msg.lower()
        if "repeat" in low and ("differ" in low or "identical" in low):
            return ("nondeterministic", _first(msg))
        if "canary" in low or "guard" in low or "never written" in low:
            return ("no-write", _first(msg))
        return ("wrong-values", _first(msg))
    if oracle_failed(rec) or beyond_device(rec):
        return None
    if _build_failure(msg):
        return ("compile-rejected", halide_error(msg))
    return ("runtime-error", driver_error(msg))


def beyond_device(rec):
    """A run an emulated device (run --device, a profile's personality) refused as beyond its limits (a work-group
    too large, float64 it lacks): what that device would do, not a divergence."""
    return rec.get("outcome") == "ERROR" and bool(re.match(r"(error -?\d+: )?device limit: ", rec.get("message") or ""))


def oracle_failed(rec):
    """A record that could not be judged because the cpu oracle gave no golden."""
    msg = (rec.get("message") or "").lower()
    return rec.get("outcome") == "ERROR" and (
        "golden" in msg and ("no golden" in msg or "missing" in msg or "not blessed" in msg or "bless" in msg)
    )


def _build_failure(msg):
    return "generator" in msg and ("failed for target" in msg or "stub" in msg or "did not build" in msg)


def halide_error(msg):
    """Halide's own words in a generator failure ("Unhandled intrinsic in C backend: ..."), or where an
    assertion inside it (LLVM's) failed: the file and function, which a long first line would cut off."""
    m = re.search(r"aborted on an assertion[^\n]*?([\w.+-]+\.(?:cpp|h|hpp)):\d+: ([^\n]*)", msg)
    if m:
        return _scrub("assertion in %s: %s" % (m.group(1), m.group(2)))
    m = re.search(r"(Internal Error[^\n]*|Error: [^\n]*|Unhandled exception: [^\n]*)", msg)
    text = m.group(1) if m else _first(msg)
    text = re.sub(r"^Unhandled exception: ", "", text)
    return _scrub(text)


def driver_error(msg):
    """The first line of a driver's build log that says what is wrong, else the message's first line."""
    for line in msg.splitlines():
        m = re.search(r"\berror\b[^:]*:(?:\d+:\d+)?[^:]*:\s*(.*)", line)
        if m and "Build Log" not in line and "clBuildProgram" not in line:
            return _scrub(re.sub(r"\S*/\S*", "", line.split("error:", 1)[-1]).strip())
    return _first(msg)


def _first(msg):
    return _scrub((msg or "").strip().splitlines()[0] if msg and msg.strip() else "")


def _scrub(text):
    """Without the names and numbers that differ between two instances of one bug."""
    text = re.sub(r"\bex\d+_\d+(_[0-9a-f]+)?\b", "P", text)
    text = re.sub(r"\b(f|conv|hist|cdf|lut|total)\d+\b", "S", text)
    text = re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "N", text)
    return text[:200]


def signature(cls, detail, profile):
    """What two divergences share when they are likely one bug, before shrinking."""
    return "%s|%s|%s" % (profile, cls, detail if cls in ("compile-rejected", "runtime-error", "crash") else "")
