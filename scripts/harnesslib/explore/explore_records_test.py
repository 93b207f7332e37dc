"""`aot-harness explore` without Halide, its records: a record's divergence class, whose bug a finding is, the
findings report and records, driver-diff's explore section, and the toolchain a project is built with.
Usage: python3 -m harnesslib.explore.explore_records_test"""

import os
import unittest

from . import explore_cpp, explore_shrink, explore_triage, explore_verdict
from .explore_test import plan

RUNTIMES = {"cpu": "none", "host": "none", "opencl": "opencl", "vulkan": "vulkan", "cuda": "cuda"}


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
