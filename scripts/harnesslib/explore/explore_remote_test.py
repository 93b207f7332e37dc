"""`explore --remote-shrink` without Halide or a GPU box: the walk over ingested verdicts follows the same
shrink as the local rounds to as small a reproducer, asks only for candidates it has no verdict of, and
the moves known to diverge made together and the lookahead (candidates further along in the same bundle)
save round trips; results files are ingested and checked.
Usage: python3 -m harnesslib.explore.explore_remote_test"""

import json
import os
import tempfile
import unittest

from . import explore, explore_remote, explore_rounds, explore_shrink
from .. import jsonio
from .explore_shrink_test import RUNTIMES, FakeExplorer, signed_lane_shift


def remote(p, lookahead, width=6):
    """Shrinks p's divergence on vulkan through walk() and a fake GPU box; returns (divs, bundles)."""
    fx = FakeExplorer([p], signed_lane_shift)
    with tempfile.TemporaryDirectory() as d:
        v = explore_remote.Verdicts(d)
        v.doc["records"]["%s|vulkan" % p.name] = fx.bless_and_run([p.name], ["vulkan"], "")["runs"][0]
        bundles = 0
        while True:
            divs = explore_rounds.by_output(explore_remote.divergences(fx.pipelines, ["vulkan"], v))
            needed = {}
            for dv in divs:
                start = explore_shrink.only_profile(p, "vulkan")
                needed.update({q.name: q for q in explore_remote.walk(dv, start, v, width, lookahead, 200)})
            if not needed:
                return divs, bundles
            bundles += 1
            fx.build(list(needed.values()), "b")  # the bundle, run on the GPU box: its verdicts come back
            for r in fx.bless_and_run(sorted(needed), ["vulkan"], "")["runs"]:
                v.doc["records"]["%s|vulkan" % r["pipeline"]] = r


class Walk(unittest.TestCase):
    def test_as_small_a_reproducer_as_the_local_shrink_in_fewer_round_trips(self):
        p = explore.plan(1, 28, ["vulkan"], RUNTIMES, 256)
        fx = FakeExplorer([p], signed_lane_shift)
        local = explore_rounds.shrink_all(fx, [fx.divergence(p.name, "vulkan")])[0]
        divs, bundles = remote(p, lookahead=2)
        q = divs[0]["cur"]
        self.assertEqual(explore_shrink.cost(q, "vulkan"), explore_shrink.cost(local["cur"], "vulkan"))
        self.assertEqual(q.stages[0].expr.shape(), "satcast:int16(bin.shr:int32(load.src:int32(),coord:int32))")
        self.assertTrue(any(w.startswith("together: ") for w in divs[0]["steps"]), divs[0]["steps"])
        # the local rounds: 17 builds of 6 candidates; the GPU box: 9 calls of about as many candidates in all
        # (the moves made together, the lookahead)
        self.assertLess(bundles, fx.builds * 2 // 3, (bundles, fx.builds))


class Ingest(unittest.TestCase):
    def test_results_files(self):
        with tempfile.TemporaryDirectory() as d:
            good, empty = os.path.join(d, "r.json"), os.path.join(d, "e.json")
            with open(good, "w") as f:
                json.dump(
                    {"runs": [{"pipeline": "ex1_0003", "profile": "vulkan", "outcome": "FAIL", "message": "x"}]}, f
                )
            with open(empty, "w") as f:
                json.dump({"runs": []}, f)
            v = explore_remote.Verdicts(d)
            self.assertEqual(v.ingest(good), 1)
            with self.assertRaises(jsonio.InputError):
                v.ingest(empty)
            v.save()
            self.assertEqual(explore_remote.Verdicts(d).get("ex1_0003", "vulkan")["outcome"], "FAIL")

    def test_runs_of_other_pipelines_under_the_same_names_are_told(self):
        # results made by another explore version (other grammar or schedules) cannot be shrunk from here
        from . import explore_build

        ps = {p.name: p for p in (explore.plan(1, i, ["vulkan", "cuda"], RUNTIMES, 256) for i in (2, 3))}
        with tempfile.TemporaryDirectory() as d:
            v = explore_remote.Verdicts(d)
            v.doc["content"] = {
                "%s|vulkan" % n: explore_build.content_hash(explore_shrink.only_profile(p, "vulkan"))
                for n, p in ps.items()
            }
            # the same pipelines planned for vulkan alone: the vulkan variants are the same
            alone = {p.name: p for p in (explore.plan(1, i, ["vulkan"], RUNTIMES, 256) for i in (2, 3))}
            self.assertEqual(explore_remote.ran_elsewhere(v, alone, ["vulkan"]), [])
            v.doc["content"]["ex1_0002|vulkan"] = "0" * 12
            self.assertEqual(explore_remote.ran_elsewhere(v, alone, ["vulkan"]), ["ex1_0002|vulkan"])


if __name__ == "__main__":
    unittest.main()
