"""Unit tests of harnesslib.runs.flakecheck: JUnit parsing of CTest's format and flake classification.
Usage: python3 -m harnesslib.runs.flakecheck_test [-v]"""

import os
import tempfile
import unittest

from . import flakecheck

JUNIT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Linux" tests="4" failures="1" disabled="0" skipped="1" hostname="" time="1" timestamp="">
  <testcase name="a/pass" classname="a/pass" time="0.1" status="run"><system-out>ok</system-out></testcase>
  <testcase name="b/fail" classname="b/fail" time="0.1" status="fail"><failure message="Failed"/></testcase>
  <testcase name="c/skip" classname="c/skip" time="0" status="notrun"><skipped message="Skipped"/></testcase>
  <testcase name="d/disabled" classname="d/disabled" time="0" status="disabled"/>
</testsuite>
"""


class Parse(unittest.TestCase):
    def test_ctest_junit(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.xml")
            with open(path, "w") as f:
                f.write(JUNIT)
            self.assertEqual(
                flakecheck.parse_junit(path),
                {"a/pass": "passed", "b/fail": "failed", "c/skip": "skipped", "d/disabled": "skipped"},
            )


class Classify(unittest.TestCase):
    def test_stable_runs_have_no_flakes(self):
        runs = [{"a": "passed", "b": "skipped"}] * 5
        self.assertEqual(flakecheck.classify(runs), ({}, []))

    def test_varied_outcome_is_a_flake(self):
        runs = [{"a": "passed"}, {"a": "failed"}, {"a": "passed"}]
        flaky, steady = flakecheck.classify(runs)
        self.assertEqual(flaky, {"a": {"failed": 1, "passed": 2}})
        self.assertEqual(steady, [])

    def test_missing_from_a_run_is_a_flake(self):
        flaky, _ = flakecheck.classify([{"a": "passed", "b": "passed"}, {"a": "passed"}])
        self.assertEqual(flaky, {"b": {"missing": 1, "passed": 1}})

    def test_always_failing_is_steady_not_flaky(self):
        flaky, steady = flakecheck.classify([{"a": "failed"}, {"a": "failed"}])
        self.assertEqual((flaky, steady), ({}, ["a"]))

    def test_bad_run_count_is_usage_error(self):
        for bad in ("0", "2.5", "0x10"):  # one line naming the range (toolmain.whole), exit 2
            with self.assertRaises(SystemExit) as cm:
                flakecheck.main([bad])
            self.assertEqual(cm.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
