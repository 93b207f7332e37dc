"""`aot-harness explore` without Halide: the same seed gives the same pipelines, schedules and files; the
interval analysis is sound (every expression of a few hundred pipelines evaluated on random inputs with
Halide's semantics stays inside its interval, and a planted overflow, zero divisor, shift or inexact
condition is reported); integer pipelines are compared exactly; shrink candidates are defined, valid and
cheaper; the grammar's coverage; a record's divergence class; whose bug a finding is.
Usage: python3 -m harnesslib.explore.explore_test"""

import math
import os
import random
import unittest

import numpy as np

from . import explore, explore_coverage, explore_cpp, explore_shrink, explore_triage, explore_verdict
from . import explore_expr as ex, explore_interval as iv
from .explore_expr import X
from .explore_model import check, tolerance

RUNTIMES = {"cpu": "none", "host": "none", "opencl": "opencl", "vulkan": "vulkan", "cuda": "cuda"}


def plan(seed, i, profiles=("opencl", "host")):
    return explore.plan(seed, i, list(profiles), RUNTIMES, 256)


def _wrap(t, v):
    lo, hi = ex.trange(t)
    return (v - lo) % (hi - lo + 1) + lo


def _sat(t, v):
    lo, hi = ex.trange(t)
    return min(max(v, lo), hi)


def evaluate(e, leaf, rng):
    """e's value with Halide's semantics (integers exact, floats in e's precision); leaf(node) for reads."""
    ev = lambda k: evaluate(k, leaf, rng)
    op, a, t = e.op, e.a, e.t
    if op == "const":
        return a["v"]
    if op == "coord":
        return rng.randrange(a["mod"])
    if op in ("load", "gather", "lut", "total", "param"):
        for k in e.args:
            ev(k)
        return leaf(e)
    if op == "cmp":
        x, y = ev(e.args[0]), ev(e.args[1])
        return int({"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y, "eq": x == y, "ne": x != y}[a["fn"]])
    if op == "select":
        c, x, y = (ev(k) for k in e.args)
        return x if c else y
    if op == "clamp":
        return min(max(ev(e.args[0]), a["lo"]), a["hi"])
    x = ev(e.args[0])
    if op in ("cast", "satcast"):
        if ex.isf(t):
            return float(np.float32(x)) if t == "float32" else float(x)
        if ex.isf(e.args[0].t):
            x = math.trunc(x) if op == "cast" else math.trunc(min(max(x, -1e300), 1e300))
        return _wrap(t, x) if op == "cast" else _sat(t, x)
    if op == "rshr":
        return _sat(t, (x + (1 << (a["k"] - 1))) >> a["k"])
    if op == "un":
        f = a["fn"]
        r = {"abs": abs(x), "neg": -x}.get(f)
        if r is None:
            r = {"sqrt": math.sqrt, "exp": math.exp, "sin": math.sin, "floor": math.floor}[f](x)
        return r if ex.isf(t) else _wrap(t, r)
    y = ev(e.args[1])
    f = a["fn"]
    if ex.isf(t):
        return (
            x / y if f == "div" else {"add": x + y, "sub": x - y, "mul": x * y, "min": min(x, y), "max": max(x, y)}[f]
        )
    if f == "div":
        q = x // y
        return _wrap(t, q + 1 if x - q * y < 0 else q)
    if f == "mod":
        return x % abs(y)
    if f in ("shl", "shr"):
        return _wrap(t, x << y if f == "shl" else x >> y)
    table = {
        "add": x + y,
        "sub": x - y,
        "mul": x * y,
        "min": min(x, y),
        "max": max(x, y),
        "and": x & y,
        "or": x | y,
        "xor": x ^ y,
        "absd": abs(x - y),
        "sat_add": _sat(t, x + y),
        "sat_sub": _sat(t, x - y),
        "hadd": (x + y) >> 1,
        "rhadd": (x + y + 1) >> 1,
        "wmul": x * y,
    }
    return _wrap(t, table[f])


class Determinism(unittest.TestCase):
    def test_same_seed_same_pipelines_and_files(self):
        a = [explore_cpp.source_file([plan(4, i)]) + explore_cpp.spec(plan(4, i)) for i in range(8)]
        b = [explore_cpp.source_file([plan(4, i)]) + explore_cpp.spec(plan(4, i)) for i in range(8)]
        self.assertEqual(a, b)
        self.assertNotEqual(a[0], explore_cpp.source_file([plan(5, 0)]) + explore_cpp.spec(plan(5, 0)))

    def test_integer_literals_are_valid_cpp(self):
        # a literal Expr cannot take unambiguously (-2147483648 is -(long)) would stop a whole source file
        import re

        for i in range(150):
            text = explore_cpp.source_file([plan(6, i)])
            for m in re.finditer(r"(?<![\w.(])(-?\d+)(?![\w.]|LL|ULL)", text):
                self.assertLess(abs(int(m.group(1))), 2**31, "%s: %s" % (i, text[m.start() - 40 : m.end() + 10]))

    def test_a_profile_added_keeps_the_others_schedules(self):
        one, two = plan(4, 3, ("opencl",)), plan(4, 3, ("opencl", "vulkan"))
        self.assertEqual(explore_cpp.schedule_lines(one, "opencl"), explore_cpp.schedule_lines(two, "opencl"))


class Soundness(unittest.TestCase):
    def test_values_stay_inside_their_intervals(self):
        rng = random.Random(1)
        checked = 0
        for i in range(150):
            p = plan(9, i)
            for s in p.stages:
                if s.expr is None:
                    continue
                for n in s.expr.nodes():
                    for _ in range(3):

                        def leaf(node):
                            lo, hi, _ = p.bounds[node.a.get("src") or node.a.get("name")]
                            if s.kind in ("conv", "total") and node is s.expr:
                                return lo
                            return rng.uniform(lo, hi) if ex.isf(node.t) else rng.randint(int(lo), int(hi))

                        v = evaluate(n, leaf, rng)
                        slack = 1e-6 * max(1.0, abs(n.lo), abs(n.hi)) if ex.isf(n.t) else 0
                        self.assertTrue(
                            n.lo - slack <= v <= n.hi + slack,
                            "%s: %s = %r outside [%r, %r]" % (p.name, n.shape(), v, n.lo, n.hi),
                        )
                        checked += 1
        self.assertGreater(checked, 3000)

    def test_planted_undefined_behaviour_is_reported(self):
        env = lambda n: (-100, 100, 0)
        load = X("load", "int8", src="in0")
        cases = {
            "signed overflow": X("bin", "int8", [load, ex.const("int8", 100)], fn="add"),
            "divisor that can be 0": X("bin", "int32", [ex.cast("int32", load), ex.cast("int32", load)], fn="div"),
            "shift by an amount": X("bin", "int32", [ex.cast("int32", load), ex.const("int32", 32)], fn="shl"),
            "condition on an inexact": X(
                "cmp",
                "bool",
                [
                    X("bin", "float32", [ex.cast("float32", load), ex.const("float32", 0.1)], fn="mul"),
                    ex.const("float32", 1.0),
                ],
                fn="lt",
            ),
            "sqrt of a possibly negative": X("un", "float32", [ex.cast("float32", load)], fn="sqrt"),
        }
        for want, e in cases.items():
            problems = []
            iv.analyze(e, env, problems)
            self.assertTrue(any(want in x for x in problems), "%s: %s" % (want, problems))
        # a float whose error has no bound (a shrink candidate can make one), cast to an integer: a problem, not a crash
        problems = []
        iv.analyze(X("cast", "int32", [X("load", "float32", src="in0")]), lambda n: (0.0, 1.0, math.inf), problems)
        self.assertTrue(any("without a finite bound" in x for x in problems), problems)
        ok = X("bin", "uint8", [ex.cast("uint8", load), ex.const("uint8", 200)], fn="add")  # wraps: defined
        problems = []
        iv.analyze(ok, env, problems)
        self.assertEqual(problems, [])
        self.assertEqual((ok.lo, ok.hi), (0, 255))

    def test_every_sampled_pipeline_is_defined_and_integer_ones_exact(self):
        exact = 0
        for i in range(120):
            p = plan(11, i)
            self.assertEqual(check(p), [], p.name)
            tol = tolerance(p)
            if not any(ex.isf(n.t) for s in p.stages if s.expr is not None for n in s.expr.nodes()) and not any(
                ex.isf(i.t) for i in p.inputs
            ):
                self.assertEqual(tol["kind"], "exact", p.name)
                exact += 1
        self.assertGreater(exact, 30)


class HalideWorkarounds(unittest.TestCase):
    def test_a_histogram_of_a_uint32_input_bins_in_int32(self):
        # Halide 21 loses the bounds of clamp(int32((int64(u32) - lo) >> k)): the cpu oracle fails to compile
        seen = 0
        for i in range(200):
            p = plan(1, i)
            srcs = {n.name: n.t for n in p.inputs}
            for s in p.stages:
                if s.kind == "hist" and srcs.get(s.src) == "uint32":
                    seen += 1
                    self.assertNotIn("int64", {n.t for n in s.expr.nodes()}, (i, s.name))
        self.assertGreater(seen, 3)

    def test_vulkan_gets_int64_for_32_bit_ops_halide_widens(self):
        # seed 1's pipelines 27 and 43 divide int32 by 7 and -255, 44 rounds a shift of an int32: Halide 21
        # lowers them through int64 and refuses the Vulkan target without vk_int64
        for i in (27, 43, 44):
            self.assertIn("vk_int64", explore_cpp.features(plan(1, i, ("vulkan",))), i)
        self.assertFalse(explore_cpp._wide_lowered(X("bin", "int32", [ex.const("int32", 1)] * 2, fn="add")))


class Schedules(unittest.TestCase):
    def test_a_producer_at_its_consumers_block_fits_the_thread_limit(self):
        # a 64x2 tile unrolled by 8 reading its producer 1 row up and down: a 65x18 block of producer threads
        # (1170 > 1024: "Failed to setup compute pipeline" on every driver, beyond a Mali-G52's 384)
        from . import explore_sched

        seen = 0
        for i in range(300):
            p = plan(7, i, ("opencl",))
            for s in p.stages:
                c = p.sched["opencl"][s.name]
                if c.where == "block":
                    seen += 1
                    self.assertLessEqual(
                        explore_sched.block_threads(p, s.name, p.sched["opencl"][c.at], c.vec), 256, (p.name, s.name)
                    )
        self.assertGreater(seen, 10)


class Shrink(unittest.TestCase):
    def test_candidates_are_defined_valid_and_cheaper(self):
        for i in range(12):
            p = explore_shrink.only_profile(plan(13, i, ("opencl",)), "opencl")
            c0 = explore_shrink.cost(p, "opencl")
            cands = explore_shrink.candidates(p, "opencl", p.name)
            self.assertTrue(cands or c0 < 1100, p.name)
            for what, q in cands:
                self.assertEqual(check(q), [], what)
                self.assertEqual(explore_shrink.sched_problems(q, "opencl"), [], what)
                self.assertLess(explore_shrink.cost(q, "opencl"), c0, what)
                self.assertEqual(sorted(q.sched), ["cpu", "opencl"])
                self.assertEqual(set(q.sched["opencl"]), {s.name for s in q.stages})

    def test_the_same_candidate_gets_the_same_name(self):
        p = explore_shrink.only_profile(plan(13, 1, ("opencl",)), "opencl")
        a = [q.name for _, q in explore_shrink.candidates(p, "opencl", "b")]
        self.assertEqual(a, [q.name for _, q in explore_shrink.candidates(p, "opencl", "b")])
        self.assertEqual(len(a), len(set(a)))


class Coverage(unittest.TestCase):
    def test_a_few_hundred_pipelines_cover_most_of_the_grammar(self):
        ps = [plan(3, i, ("opencl", "host")) for i in range(200)]
        c = explore_coverage.coverage(ps, ["opencl", "host"], RUNTIMES)
        self.assertGreater(c["fraction"], 0.9, c["missing"])


class Verdicts(unittest.TestCase):
    def test_classes(self):
        d = explore_verdict.divergence
        self.assertIsNone(d({"outcome": "PASS"}))
        self.assertIsNone(d({"outcome": "SKIP", "message": "no device"}))
        self.assertEqual(d({"outcome": "FAIL", "message": "f0: max abs error 3, not within Exact"})[0], "wrong-values")
        self.assertEqual(d({"outcome": "CRASH", "message": "signal 11"})[0], "crash")
        self.assertEqual(
            d(
                {
                    "outcome": "ERROR",
                    "message": "variant ex1_0002__opencl failed to compile: generator "
                    "ex1_0002__opencl failed for target x: Unhandled exception: Error: Unhandled intrinsic "
                    "in C backend: extract_mask_element",
                }
            ),
            ("compile-rejected", "Error: Unhandled intrinsic in C backend: extract_mask_element"),
        )
        self.assertEqual(
            d(
                {
                    "outcome": "ERROR",
                    "message": "CL: clBuildProgram failed\nBuild Log:\nerror: /t/x.cl:78:24: "
                    "too many elements in vector initialization (expected 8 elements, have 11)",
                }
            ),
            ("runtime-error", "too many elements in vector initialization (expected N elements, have N)"),
        )
        # an emulated device refusing what is beyond its limits is what that device would do
        self.assertIsNone(
            d(
                {
                    "outcome": "ERROR",
                    "message": "error -1: device limit: kernel 'k' needs a 64x18 work-group "
                    "(1152 invocations); Mali-G52 (mali-g52) allows at most 384",
                }
            )
        )
        # a failed assertion inside Halide names its function after a long first line (the known findings match it)
        v = d(
            {
                "outcome": "ERROR",
                "message": "variant ex2_0005__host failed to compile (the build kept a stub): generator "
                "ex2_0005__host failed for target host-no_runtime: it aborted on an assertion inside Halide's compiler "
                "(signal 6): a Halide bug for this schedule and target; gen_b0_6.generator: /ws/llvm/lib/IR/IRBuilder.cpp:"
                "524: llvm::CallInst* llvm::IRBuilderBase::CreateMaskedStore(llvm::Value*): Assertion `x' failed.",
            }
        )
        self.assertEqual(v[0], "compile-rejected")
        self.assertTrue(
            v[1].startswith("assertion in IRBuilder.cpp: llvm::CallInst* llvm::IRBuilderBase::CreateMaskedStore"), v
        )

    def test_blame(self):
        same = [{"driver": "Oclgrind", "same": True, "outcome": "FAIL"}]
        passes = [{"driver": "Oclgrind", "same": False, "outcome": "PASS"}]
        self.assertEqual(explore_triage.blame("wrong-values", same)[0], "halide")
        self.assertEqual(explore_triage.blame("wrong-values", passes)[0], "driver")
        self.assertEqual(explore_triage.blame("wrong-values", [])[0], "unconfirmed")
        self.assertEqual(explore_triage.blame("compile-rejected", [])[0], "halide")


class Report(unittest.TestCase):
    def fake(self):
        class A:
            seed, first, count, profiles, device = 4, 0, 3, ["opencl"], ""

        class Ex:
            a, runtimes = A(), RUNTIMES
            stats = {
                "built": 3,
                "run_seconds": 60.0,
                "build_seconds": 45.0,
                "skipped_for_time": 0,
                "harness_errors": {},
                "oracle": {},
            }

        ex = Ex()
        ex.pipelines = {p.name: p for p in (plan(4, i, ("opencl",)) for i in range(3))}
        names = sorted(ex.pipelines)
        runs = [
            {
                "pipeline": n,
                "profile": "opencl",
                "case": "small",
                "outcome": "FAIL" if n != names[2] else "PASS",
                "message": "f0: max abs error 3, not within Exact",
            }
            for n in names
        ]
        divs = []
        for r in runs[:2]:
            d = {
                "record": r,
                "pipeline": r["pipeline"],
                "profile": "opencl",
                "class": "wrong-values",
                "detail": "",
                "driver": "PoCL",
                "signature": "opencl|wrong-values|",
            }
            divs.append(d)
        divs[0]["cur"] = explore_shrink.only_profile(ex.pipelines[names[0]], "opencl")
        divs[0]["minimized"], divs[0]["steps"] = divs[0]["cur"].name, ["drop output f9"]
        return ex, {"environment": {}, "runs": runs, "summary": {"FAIL": 2, "PASS": 1, "total": 3}}, divs

    def test_findings_records_and_markdown(self):
        from . import explore_report

        ex, results, divs = self.fake()
        known = [
            {
                "runtime": "opencl",
                "class": "wrong-values",
                "message": "max abs",
                "blame": "halide",
                "evidence": "x",
                "message_pattern": __import__("re").compile("nothing"),
            }
        ]
        doc = explore_report.document(ex, results, divs, known)
        fs = doc["explore"]["findings"]
        self.assertEqual(len(fs), 1)  # the unshrunk one joins the shrunk one of its signature
        self.assertEqual(fs[0]["count"], 2)
        self.assertNotIn("known", fs[0])
        marked = [r for r in doc["runs"] if "explore" in r.get("metrics", {})]
        self.assertEqual(len(marked), 2)
        self.assertEqual(marked[0]["metrics"]["explore"]["finding"], "F1")
        md = explore_report.markdown(doc)
        self.assertIn("## F1: wrong-values on opencl (2 divergence(s))", md)
        self.assertIn("// schedule on opencl", md)
        self.assertEqual(doc["explore"]["pipelines_per_minute"], 3.0)
        self.assertEqual(doc["explore"]["seconds_build"], 45.0)
        self.assertIn("| build and run | 60 s (45 s of it building), 3.0 pipelines per minute |", md)

    def test_driver_diff_lists_each_sides_findings(self):
        from . import explore_report
        from .. import data
        from ..runs import driverdiff

        ex, results, divs = self.fake()
        doc = explore_report.document(ex, results, divs)
        old, new = data.empty_side("old"), data.empty_side("new")
        data.add_document(new, doc, "new.json")
        rows = driverdiff.explore_rows({"old_side": old, "new_side": new})
        self.assertEqual([r[:3] for r in rows], [["new", "F1", "wrong-values"]])
        del new["explore"]  # a run of the history keeps only the records
        self.assertEqual(
            [r[:3] for r in driverdiff.explore_rows({"old_side": old, "new_side": new})],
            [["new", "F1", "wrong-values"]],
        )


class Toolchain(unittest.TestCase):
    def test_builds_with_the_cmake_that_configured_the_harness(self):
        # PATH's cmake can be older than the package's cmake_minimum_required (Debian's 3.25 beside a 3.28+)
        import tempfile
        from unittest import mock
        from . import explore_build

        with tempfile.TemporaryDirectory() as d:
            cmake = os.path.join(d, "cmake-3.30", "bin", "cmake")
            os.makedirs(os.path.dirname(cmake))
            open(cmake, "w").close()
            with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
                f.write("CMAKE_COMMAND:INTERNAL=%s\nHalide_DIR:PATH=%s/lib/cmake/Halide\n" % (cmake, d))
            with mock.patch.dict(os.environ, {"AOT_HARNESS_BUILD_DIR": d, "AOT_HARNESS_CMAKE_DIR": d}):
                self.assertEqual(explore_build.Toolchain(halide=d).cmake, cmake)
                os.remove(cmake)  # a build tree moved elsewhere: PATH's
                self.assertNotEqual(explore_build.Toolchain(halide=d).cmake, cmake)

    def test_a_pipeline_whose_target_features_changed_is_written_again(self):
        import tempfile
        from unittest import mock
        from . import explore_build

        p = plan(1, 43, ("vulkan",))
        with tempfile.TemporaryDirectory() as d:
            proj = explore_build.Project(d, None)
            self.assertEqual([q.name for q in proj.add([p], "t")], [p.name])
            self.assertEqual(proj.add([p], "t"), [])
            with mock.patch.object(explore_cpp, "features", lambda q: []):
                self.assertEqual([q.name for q in proj.add([p], "t")], [p.name])
                self.assertNotIn("vk_int64", open(os.path.join(d, "project", "pipelines.cmake")).read())

    def test_the_projects_aot_harness_looks_in_its_own_build(self):
        # bisect and repro read <build>/aot-harness-variants; explore inherits another build's AOT_HARNESS_BUILD_DIR
        import tempfile
        from unittest import mock
        from . import explore_build

        with tempfile.TemporaryDirectory() as d:
            exe = os.path.join(d, "copy", "bin", "aot-harness")
            os.makedirs(os.path.dirname(exe))
            with open(exe, "w") as f:
                f.write('#!/bin/sh\necho "build=$AOT_HARNESS_BUILD_DIR"\n')
            os.chmod(exe, 0o755)
            proj = explore_build.Project(d, None, exe=exe)
            log = os.path.join(d, "log")
            with mock.patch.dict(os.environ, {"AOT_HARNESS_BUILD_DIR": "/elsewhere/build"}):
                self.assertEqual(explore_build.harness(proj, ["env"], log), 0)
            self.assertIn("build=%s\n" % os.path.join(d, "copy"), open(log).read())


if __name__ == "__main__":
    unittest.main()
