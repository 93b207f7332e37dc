"""What `explore` does with a minimized divergence: the first stage that differs (`aot-harness bisect`),
a repro bundle for the vendor (`aot-harness repro`), and whose bug it is: the same pipeline and schedule
run on every other driver of the same API found here (another OpenCL ICD as the only one, another Vulkan
ICD, a wrapper such as scripts/with-mesa25) and, for comparison, on the other GPU backends built for it.

Blame: a generator that fails for the target is Halide's (no driver is involved); a divergence that
another driver of the same API reproduces is Halide's (the code Halide made is wrong on both); one that
another driver of the API runs correctly is the driver's; with no second driver of the API here it is
unconfirmed, and the evidence says what was and was not tried.
"""

import glob
import os
import re
import shutil
import tempfile

from . import explore_build, explore_verdict
from .. import data

OCLGRIND_ICD = "/usr/lib/oclgrind/liboclgrind-rt-icd.so"


class Driver:
    """A way to run a command on one driver: environment variables and/or a wrapper command."""

    def __init__(self, name, env=None, wrapper=(), cleanup=None):
        self.name, self.env, self.wrapper, self.cleanup = name, env or {}, list(wrapper), cleanup


def drivers(runtime, project_dir, extra=()):
    """The drivers of `runtime` this machine has, each alone (name, env, wrapper)."""
    out = []
    if runtime == "opencl":
        icds = sorted(glob.glob("/etc/OpenCL/vendors/*.icd"))
        libs = [(os.path.basename(f)[:-4], open(f).read().strip()) for f in icds]
        if os.path.exists(OCLGRIND_ICD) and not any(l == OCLGRIND_ICD for _, l in libs):
            libs.append(("oclgrind", OCLGRIND_ICD))
        for name, lib in libs:
            d = tempfile.mkdtemp(prefix="explore-icd-")
            with open(os.path.join(d, name + ".icd"), "w") as f:
                f.write(lib + "\n")
            out.append(Driver(name, {"OCL_ICD_VENDORS": d, "OCL_ICD_FILENAMES": ""}, cleanup=d))
    elif runtime == "vulkan":
        # the system's CPU drivers (the others need their GPU), without a wrapper's libraries (with-mesa25's)
        lib = ":".join(d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d and "mesa-25" not in d)
        for f in sorted(glob.glob("/usr/share/vulkan/icd.d/*.json")):
            if "lvp" in os.path.basename(f) or "swiftshader" in f:
                out.append(Driver(os.path.basename(f).split(".")[0], {"VK_DRIVER_FILES": f, "LD_LIBRARY_PATH": lib}))
        mesa25 = os.path.join(project_dir or "", "scripts", "with-mesa25")
        if os.path.exists(mesa25) and os.path.exists(os.path.join(project_dir, ".deps", "mesa-25", "lvp_icd.json")):
            out.append(Driver("lavapipe-mesa25", wrapper=[mesa25]))
    for spec in extra:  # --second-driver NAME=WRAPPER
        name, _, wrapper = spec.partition("=")
        out.append(Driver(name, wrapper=wrapper.split()))
    return out


def release(ds):
    for d in ds:
        if d.cleanup:
            shutil.rmtree(d.cleanup, ignore_errors=True)


def run_on(project, name, profile, driver, out_json, log):
    """The record of pipeline `name` on `profile` run through `driver` (None: as explore ran it)."""
    if os.path.exists(out_json):
        os.remove(out_json)
    explore_build.bless_and_run(
        project,
        [name],
        [profile],
        out_json,
        log,
        env=driver.env if driver else None,
        wrapper=driver.wrapper if driver else (),
    )
    recs = [r for r in explore_build.jsonio.load(out_json, "see %s" % log)["runs"] if r.get("profile") == profile]
    return recs[0] if recs else None


def second_drivers(project, name, profile, runtime, cls, first_driver, work, extra=()):
    """[{driver, outcome, same, message}] of the minimized pipeline on every other driver of the API."""
    rows = []
    ds = drivers(runtime, os.environ.get("AOT_HARNESS_PROJECT_DIR", ""), extra)
    try:
        for d in ds:
            out = os.path.join(work, "driver-%s-%s.json" % (name, d.name))
            rec = run_on(project, name, profile, d, out, os.path.join(work, "drivers.log"))
            if rec is None:
                continue
            ident = data.test_driver(rec) or d.name
            if ident == first_driver or rec.get("outcome") == "SKIP":
                continue
            v = explore_verdict.divergence(rec)
            rows.append(
                {
                    "driver": ident,
                    "via": d.name,
                    "outcome": rec.get("outcome"),
                    "same": bool(v and v[0] == cls),
                    "message": (rec.get("message") or "")[:300],
                }
            )
    finally:
        release(ds)
    return rows


def blame(cls, drivers_rows):
    """(whose, why) from the class and the other drivers' outcomes."""
    if cls == "compile-rejected":
        return "halide", "Halide's compiler refuses the pipeline for this target: no driver is involved"
    same = [r["driver"] for r in drivers_rows if r["same"]]
    ok = [r["driver"] for r in drivers_rows if r["outcome"] in ("PASS", "XPASS")]
    if same:
        return "halide", "reproduces on %s too" % "; ".join(same)
    if ok:
        return "driver", "passes on %s" % "; ".join(ok)
    if drivers_rows:
        return "unconfirmed", "the other drivers: %s" % "; ".join(
            "%s %s" % (r["driver"], r["outcome"]) for r in drivers_rows
        )
    return "unconfirmed", "no second driver of this API here"


def bisect(project, name, profile, work, log):
    """The bisect's verdict line ('first stage that differs: ...') or why it could not run."""
    keep = os.path.join(work, "bisect-%s-%s" % (name, profile))
    _plugin(project)
    out = os.path.join(work, "bisect-%s-%s.txt" % (name, profile))
    rc = explore_build.harness(project, ["bisect", name, "--profile", profile, "--case", "small", "--keep", keep], out)
    text = open(out, errors="replace").read() if os.path.exists(out) else ""
    m = re.search(r"^first stage that differs:.*$", text, re.M)
    if m:
        return m.group(0)
    if rc == 0:
        return "no stage differs in the bisect's builds (the divergence needs the variant's own build)"
    lines = [l for l in text.splitlines() if l.strip()]
    return "bisect could not run: %s" % (lines[-1][:300] if lines else "exit %d" % rc)


def _plugin(project):
    """An outside project built from a package without the bisect plugin borrows this build's."""
    mine = os.path.join(project.build, "bin", "libharness_bisect_plugin.so")
    theirs = os.path.join(os.environ.get("AOT_HARNESS_BIN", ""), "libharness_bisect_plugin.so")
    if not os.path.exists(mine) and os.path.exists(theirs):
        os.symlink(theirs, mine)


def repro(project, name, profile, dest):
    """Path of the repro bundle of name/profile/small, or None."""
    os.makedirs(dest, exist_ok=True)
    path = os.path.join(dest, "repro-%s-%s-small.tar.gz" % (name, profile))
    explore_build.harness(
        project, ["repro", "%s/%s/small" % (name, profile), "--out", path], os.path.join(dest, "repro.log")
    )
    return path if os.path.exists(path) else None
