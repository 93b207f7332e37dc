"""Builds and runs `explore`'s pipelines: the CMake project of explore_cpp.py in a work directory, built
through the installed AotHarness package (this repository's build is installed into the work directory
first), then the cpu goldens (`bless`) and the runs of the project's own aot-harness, whose results file
is the record of every run.

Batches: every pipeline of a call goes into one project build (K generators per source file, one
generator executable per file at -O0); later calls (the shrinker's rounds) add source files to the same
project, so that ninja rebuilds only what is new and every variant built before is reused.
"""

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import time

from . import explore_cpp
from .. import jsonio, paths
from ..jsonio import InputError


class Toolchain:
    """Where the package, Halide and the running aot-harness are (from aot-harness's environment)."""

    def __init__(self, halide=None):
        # `aot-harness explore` says where its build and package are; scripts/explore is this checkout's
        self.exe = os.environ.get("AOT_HARNESS_EXE", "")
        self.build_dir = os.environ.get("AOT_HARNESS_BUILD_DIR") or os.path.join(paths.project_dir(), "build")
        self.cmake_dir = os.environ.get("AOT_HARNESS_CMAKE_DIR") or os.path.join(paths.project_dir(), "cmake")
        if not os.path.exists(os.path.join(self.build_dir, "CMakeCache.txt")):
            raise InputError(
                "no harness build at %s; build it first (./scripts/test, or cmake --build build), "
                "or run an outside project's build/bin/aot-harness explore" % self.build_dir
            )
        self.halide = halide or os.environ.get("AOT_HARNESS_HALIDE_DIR") or self._halide_from_cache()
        if not self.halide or not os.path.isdir(self.halide):
            raise InputError(
                "cannot find Halide's CMake package (no Halide_DIR in %s/CMakeCache.txt); pass "
                "--halide <Halide install prefix or the halide wheel's folder>" % self.build_dir
            )
        # the CMake that configured the harness: the package's cmake_minimum_required may be newer than PATH's
        self.cmake = self._cache_value("CMAKE_COMMAND:INTERNAL") or shutil.which("cmake") or "cmake"
        self.installed = os.path.exists(os.path.join(self.cmake_dir, "AotHarnessConfig.cmake"))

    def _cache_value(self, key):
        cache = os.path.join(self.build_dir, "CMakeCache.txt")
        with open(cache, errors="replace") as f:
            for line in f:
                if line.startswith(key + "="):
                    v = line.split("=", 1)[1].strip()
                    return v if os.path.exists(v) else ""
        return ""

    def _halide_from_cache(self):
        cache = os.path.join(self.build_dir, "CMakeCache.txt")
        if not os.path.exists(cache):
            return ""
        with open(cache, errors="replace") as f:
            for line in f:
                if line.startswith("Halide_DIR:"):
                    d = line.split("=", 1)[1].strip()  # <prefix>/lib64/cmake/Halide
                    return os.path.dirname(os.path.dirname(os.path.dirname(d)))
        return ""

    def prefix(self, work):
        """The AotHarness package's prefix: the installed one, or this repository's build installed into
        work/prefix (again whenever the build is newer)."""
        if self.installed:
            return os.path.normpath(os.path.join(self.cmake_dir, "..", "..", ".."))
        prefix = os.path.join(work, "prefix")
        stamp = os.path.join(prefix, ".installed-from")
        lib = os.path.join(self.build_dir, "harness", "libharness.a")
        if not os.path.exists(stamp) or (os.path.exists(lib) and os.path.getmtime(lib) > os.path.getmtime(stamp)):
            run(
                [self.cmake, "--install", self.build_dir, "--prefix", prefix],
                os.path.join(work, "install.log"),
                "installing the harness package from %s" % self.build_dir,
            )
            with open(stamp, "w") as f:
                f.write(self.build_dir + "\n")
        return prefix


def content_hash(p):
    """What a pipeline is (its C++, spec and target features: these are in pipelines.cmake, not the C++)."""
    text = explore_cpp.generator_source(p) + explore_cpp.spec(p) + " ".join(explore_cpp.features(p))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def built_key(work, seed, profiles):
    """The project in work to run `profiles` of `seed` from: its own (s<seed>-<profiles>) when built, else one
    built for more profiles (each profile's schedules come from its own rng: the variants are the same)."""
    own = "s%d-%s" % (seed, "-".join(profiles))
    if os.path.exists(os.path.join(work, own, "project", "pipelines.json")):
        return own
    for key in sorted(os.listdir(work)) if os.path.isdir(work) else []:
        index = os.path.join(work, key, "project", "pipelines.json")
        if not key.startswith("s%d-" % seed) or not os.path.exists(index):
            continue
        sampled = [
            e["cmake"]
            for n, e in jsonio.load(index, "delete it")["pipelines"].items()
            if re.match(r"ex%d_\d+$" % seed, n)
        ]
        built = [set(re.search(r" PROFILES (.*?) PROFILE_PARAMS", c).group(1).split()) for c in sampled]
        if built and all(set(profiles) <= b for b in built):
            return key
    return own


def run(cmd, log, what, env=None, timeout=None, cwd=None):
    """Runs cmd with its output in log; a failure is an InputError naming the log."""
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(shlex.quote(c) for c in cmd))
        f.flush()
        try:
            rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=timeout, cwd=cwd)
        except subprocess.TimeoutExpired:
            raise InputError("%s took longer than %d s (log: %s)" % (what, timeout, log))
    if rc != 0:
        raise InputError("%s failed (exit %d); see %s" % (what, rc, log))


class Project:
    """The generated CMake project in work/project and its build in work/build."""

    def __init__(self, work, toolchain, per_file=16, exe=None):
        self.work, self.tc, self.per_file, self.given_exe = work, toolchain, per_file, exe
        self.src = os.path.join(work, "project")
        self.build = os.path.join(work, "build")
        self.golden = os.path.join(self.src, "golden")
        self.log = os.path.join(work, "build.log")
        self.index_file = os.path.join(self.src, "pipelines.json")
        os.makedirs(os.path.join(self.src, "specs"), exist_ok=True)
        # name -> {hash of its C++ and spec, source file, pipelines.cmake line}
        self.index = jsonio.load(self.index_file, "delete the work dir") if os.path.exists(self.index_file) else {}
        self.index.setdefault("pipelines", {})

    def exe(self):
        return os.path.abspath(self.given_exe) if self.given_exe else os.path.join(self.build, "bin", "aot-harness")

    def names(self):
        return set(self.index["pipelines"])

    def add(self, pipelines, tag):
        """Writes the sources and specs of the pipelines the project does not have as they are now (a name
        whose C++ or spec changed gets a new source file; the old one's generator keeps the rest)."""
        entries = self.index["pipelines"]
        new = []
        for p in pipelines:
            source, spec = explore_cpp.generator_source(p), explore_cpp.spec(p)
            h = content_hash(p)
            if entries.get(p.name, {}).get("hash") != h:
                new.append((p, h, source, spec))
        for k in range(0, len(new), self.per_file):
            chunk = new[k : k + self.per_file]
            name = "gen_%s_%s.cpp" % (tag, hashlib.sha1("".join(c[1] for c in chunk).encode()).hexdigest()[:8])
            write(os.path.join(self.src, name), explore_cpp.HEADER + "\n" + "\n".join(c[2] for c in chunk))
            for p, h, _, spec in chunk:
                write(os.path.join(self.src, "specs", p.name + ".json"), spec)
                entries[p.name] = {"hash": h, "source": name, "cmake": explore_cpp.pipeline_cmake(p, name)}
        sources = {}
        for n in sorted(entries):
            sources.setdefault(entries[n]["source"], []).append(entries[n]["cmake"])
        lines = ["# Written by aot-harness explore: one generator executable per source file, its pipelines."]
        for src in sorted(sources):
            lines += [explore_cpp.generator_cmake(src)] + sources[src]
        write(os.path.join(self.src, "pipelines.cmake"), "\n".join(lines) + "\n")
        write(self.index_file, json.dumps(self.index, indent=1, sort_keys=True) + "\n")
        write(os.path.join(self.src, "CMakeLists.txt"), explore_cpp.cmake_lists(len(sources), len(entries)))
        return [c[0] for c in new]

    def compile(self, timeout=None):
        """Configures (the first time) and builds; returns the seconds it took."""
        t0 = time.time()
        if self.tc is None:
            raise InputError("this explore cannot build (--exe, --generate-only, or no Halide here)")
        prefix = self.tc.prefix(self.work)
        env = dict(os.environ)
        if not os.path.exists(os.path.join(self.build, "build.ninja")):
            gen = ["-G", "Ninja"] if shutil.which("ninja") else []
            run(
                [self.tc.cmake, "-S", self.src, "-B", self.build]
                + gen
                + ["-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=%s;%s" % (prefix, self.tc.halide)],
                self.log,
                "configuring the explore project",
                env=env,
                timeout=timeout,
            )
        jobs = os.environ.get("AOT_HARNESS_EXPLORE_JOBS") or str(os.cpu_count() or 2)
        run(
            [self.tc.cmake, "--build", self.build, "-j", jobs],
            self.log,
            "building the explore project",
            env=env,
            timeout=timeout,
        )
        return time.time() - t0


def write(path, text):
    """Writes text unless the file already holds it (so that ninja rebuilds only what changed)."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    jsonio.write_atomic(path, text)


def harness(project, args, log, timeout=None, env=None):
    """Runs the project's aot-harness on the project's goldens; returns its exit code (output in log)."""
    e = dict(os.environ)
    e["AOT_HARNESS_GOLDEN_DIR"] = project.golden
    # the project's aot-harness finds its variants' build descriptions (bisect, repro) in its own build,
    # not in that of the aot-harness that runs explore (whose AOT_HARNESS_BUILD_DIR this process inherits)
    e["AOT_HARNESS_BUILD_DIR"] = os.path.dirname(os.path.dirname(project.exe()))
    e.update(env or {})
    with open(log, "a") as f:
        f.write("$ aot-harness %s\n" % " ".join(shlex.quote(a) for a in args))
        f.flush()
        try:
            return subprocess.call([project.exe()] + args, stdout=f, stderr=subprocess.STDOUT, env=e, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124


def bless_and_run(project, names, profiles, out_json, log, run_args=(), env=None, wrapper=()):
    """Blesses the cpu goldens of `names` and runs them on `profiles`; returns the results file's records
    (the file stays at out_json). `wrapper` is a command the run goes through (another driver)."""
    pat = ",".join(names)
    harness(project, ["bless", "--pipeline", pat], log)
    # no --case: a pipeline whose cpu variant did not build has only a `default` case, and naming `small`
    # would stop the run of every pipeline
    args = ["run", "--pipeline", pat, "--profile", ",".join(profiles), "--json", out_json]
    args += list(run_args)
    if wrapper:
        e = dict(os.environ)
        e["AOT_HARNESS_GOLDEN_DIR"] = project.golden
        e["AOT_HARNESS_BUILD_DIR"] = os.path.dirname(os.path.dirname(project.exe()))
        e.update(env or {})
        with open(log, "a") as f:
            subprocess.call(list(wrapper) + [project.exe()] + args, stdout=f, stderr=subprocess.STDOUT, env=e)
    else:
        harness(project, args, log, env=env)
    if not os.path.exists(out_json):
        raise InputError("aot-harness run wrote no results (see %s)" % log)
    return jsonio.load(out_json, "see %s" % log)
