"""scripts/merge on the PoCL fixture split into shards by the harness's shard function: the merge is the
whole run again (same records, same summary); overlapping, missing and foreign inputs are refused.
Usage: python3 -m harnesslib.runs.merge_test"""

import copy
import json
import os
import sys
import tempfile
import unittest

from ..testing import fixtures as fx
from ..lava import lavajob


class Merge(unittest.TestCase):
    def setUp(self):
        self.full = fx.load("pocl", "results.json")
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def shards(self, n):
        paths = []
        for i in range(1, n + 1):
            d = copy.deepcopy(self.full)
            d["runs"] = [
                r for r in d["runs"] if lavajob.shard_of("%s/%s/%s" % (r["pipeline"], r["profile"], r["case"]), n) == i
            ]
            d["environment"]["shard"] = "%d/%d" % (i, n)  # as aot-harness run --shard writes it
            paths.append(fx.write(os.path.join(self.tmp.name, "s%d.json" % i), d))
        return paths

    def test_shards_merge_back_into_the_run(self):
        out = os.path.join(self.tmp.name, "merged.json")
        r = fx.run_script("merge", *self.shards(3), "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.load(open(out))
        key = lambda r: json.dumps(r, sort_keys=True)
        self.assertEqual(sorted(map(key, doc["runs"])), sorted(map(key, self.full["runs"])))
        want = {}
        for x in self.full["runs"]:
            want[x["outcome"]] = want.get(x["outcome"], 0) + 1
        self.assertEqual({k: v for k, v in doc["summary"].items() if k not in ("total", "worst")}, want)
        self.assertEqual(doc["summary"]["total"], len(self.full["runs"]))
        self.assertEqual([s["shard"] for s in doc["shards"]], ["1/3", "2/3", "3/3"])
        # compare reads the merged file like any results file: no flips against the unsharded run
        c = fx.run_script("compare", fx.fixture("pocl", "results.json"), out, "--json")
        self.assertEqual(c.returncode, 0, c.stderr)
        t = json.loads(c.stdout)["tests"]
        self.assertEqual((t["flips"], t["only_base"], t["only_cand"]), ([], [], []))

    def test_overlap_missing_and_foreign_are_refused(self):
        s = self.shards(3)
        for args, msg in (
            (s + [s[0]], "overlap"),
            (s[:2], "missing 3/3"),
            ([s[0], fx.fixture("pocl", "bench.json")], "not a results file"),
        ):
            r = fx.run_script("merge", *args, "--out", os.path.join(self.tmp.name, "m.json"))
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(msg, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1)
        r = fx.run_script("merge", *s[:2], "--allow-partial", "--out", "-")
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    sys.exit(0 if unittest.main(argv=[sys.argv[0], "-v"], exit=False).result.wasSuccessful() else 1)
