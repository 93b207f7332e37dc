"""scripts/verdict-diff on the PoCL fixture: a file against itself is identical (exit 0); a changed
message, a changed outcome and a missing run are each reported (exit 1); an unreadable file is exit 2.
Usage: python3 -m harnesslib.runs.verdicts_test"""

import copy
import os
import tempfile
import unittest

from ..testing import fixtures as fx


class VerdictDiff(unittest.TestCase):
    def setUp(self):
        self.full = fx.load("pocl", "results.json")
        self.tmp = tempfile.TemporaryDirectory()
        self.a = fx.write(os.path.join(self.tmp.name, "a.json"), self.full)

    def tearDown(self):
        self.tmp.cleanup()

    def other(self, change):
        d = copy.deepcopy(self.full)
        change(d)
        return fx.write(os.path.join(self.tmp.name, "b.json"), d)

    def test_same_file_is_identical(self):
        r = fx.run_script("verdict-diff", self.a, self.a)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("identical verdicts", r.stdout)

    def test_times_do_not_count(self):
        def retime(d):
            for run in d["runs"]:
                run["duration_ms"] = run.get("duration_ms", 0) * 3 + 1
                run["stderr_tail"] = "other output"

        self.assertEqual(fx.run_script("verdict-diff", self.a, self.other(retime)).returncode, 0)

    def test_each_difference_is_reported(self):
        for change, words in (
            (lambda d: d["runs"][0].update(message="something else"), "something else"),
            (lambda d: d["runs"][1].update(outcome="CRASH"), "CRASH"),
            (lambda d: d["runs"].pop(2), "only in the first"),
        ):
            r = fx.run_script("verdict-diff", self.a, self.other(change))
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn(words, r.stdout)
            self.assertIn("1 of %d runs differ" % len(self.full["runs"]), r.stdout)

    def test_unreadable_file(self):
        r = fx.run_script("verdict-diff", self.a, os.path.join(self.tmp.name, "missing.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read", r.stderr)


if __name__ == "__main__":
    unittest.main()
