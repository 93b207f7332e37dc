"""The search of bisect-commit with a fake build-and-measure step (no git, no builds): the first bad commit is
found wherever it is, untestable commits are skipped, a commit the U test cannot place is measured again and
then placed by its medians, and a machine that moved is not taken for the code. Usage: python3 -m
harnesslib.bisect.bisectsearch_test [-v]"""

import random
import unittest

from . import bisectcommit, bisectsearch
from .. import data

NAME = "BM_brighten/host/small/resident"


def bench_side(median_ms, seed, n=9, spread=0.01, machine=None):
    rnd = random.Random(seed)
    side = data.empty_side("fake")
    side["bench"][NAME] = {
        "pipeline": "brighten",
        "profile": "host",
        "case": "small",
        "mode": "resident",
        "samples": [{"real_time_ms": median_ms * (1 + rnd.uniform(-spread, spread))} for _ in range(n)],
    }
    side["machine"] = machine or {}
    return side


def outcome_side(outcome):
    side = data.empty_side("fake")
    side["tests"]["brighten/host/small/host"] = {
        "pipeline": "brighten",
        "profile": "host",
        "case": "small",
        "outcome": outcome,
        "message": "max abs error 3 > 0",
    }
    return side


class FakeWorkspace:
    """What bisectcommit.Workspace does, from a table: commit -> median ms or outcome; untestable commits raise."""

    def __init__(self, medians=None, outcomes=None, untestable=(), noisy=None):
        self.medians, self.outcomes, self.untestable = medians or {}, outcomes or {}, set(untestable)
        self.noisy, self.built, self.measured = noisy or {}, {}, []
        self.repo = "."

    def build(self, sha):
        if sha in self.untestable:
            raise bisectsearch.Untestable("it does not build")
        self.built[sha] = ("bin", 0.0)
        return self.built[sha]

    def measure(self, sha, kind, repetitions):
        self.build(sha)
        self.measured.append((sha, kind, repetitions))
        if kind == "outcome":
            return outcome_side(self.outcomes.get(sha, "PASS"))
        median = self.medians[sha]
        if sha in self.noisy and repetitions == 9:  # the first measurement cannot tell
            median = self.noisy[sha]
        return bench_side(median, hash((sha, repetitions)) % 1000, n=repetitions)


class Search(unittest.TestCase):
    def test_first_bad_anywhere(self):
        for n in range(2, 12):
            for k in range(1, n):
                asked = []
                first, seen = bisectsearch.first_bad(n, lambda i: asked.append(i) or i >= k)
                self.assertEqual(first, k, (n, k))
                self.assertLessEqual(len(asked), max(1, (n - 2).bit_length()), (n, k, asked))

    def test_untestable_commits_are_skipped(self):
        def judge(i):
            if i in (2, 3):
                raise bisectsearch.Untestable("does not build")
            return i >= 4

        first, seen = bisectsearch.first_bad(6, judge)
        self.assertEqual(first, 4)
        self.assertEqual(seen.get(2, seen.get(3)), "untestable")


class Judges(unittest.TestCase):
    def test_outcome(self):
        j = bisectsearch.OutcomeJudge(outcome_side("PASS"), outcome_side("FAIL"))
        self.assertTrue(j.differ())
        self.assertEqual(j.classify(outcome_side("PASS"))[0], False)
        bad, what = j.classify(outcome_side("CRASH"))
        self.assertTrue(bad)
        self.assertIn("CRASH (GOOD: PASS)", what)

    def test_bench_ends_and_commits(self):
        j = bisectsearch.BenchJudge(bench_side(10.0, 1), bench_side(12.0, 2))
        self.assertEqual(j.names, [NAME])
        self.assertEqual(j.classify(bench_side(12.1, 3))[0], True)
        self.assertEqual(j.classify(bench_side(9.95, 4))[0], False)
        wide = bench_side(11.0, 5)  # between the ends, samples everywhere (9 to 13 ms): the test cannot tell
        wide["bench"][NAME]["samples"] = [{"real_time_ms": 9.0 + 0.5 * i} for i in range(9)]
        bad, what = j.classify(wide)
        self.assertIsNone(bad, what)
        bad, what = j.classify(wide, last_try=True)  # 11 ms: about half way to BAD in log space
        self.assertTrue(bad)
        self.assertRegex(what, r"decided by the nearer end \(5[0-9] % of the way to BAD\)")
        wide["bench"][NAME]["samples"] = [{"real_time_ms": 8.8 + 0.5 * i} for i in range(9)]
        self.assertEqual(j.classify(wide, last_try=True)[0], False)  # 10.8 ms: nearer GOOD

    def test_same_speed_is_nothing_to_bisect(self):
        self.assertFalse(bisectsearch.BenchJudge(bench_side(10.0, 1), bench_side(10.05, 2)).differ())

    def test_machine_that_moved_is_not_the_code(self):
        def block(cpu_ms):
            return {
                "host": {
                    "profiles": ["host"],
                    "calibration": {"start": {"cpu_work_1t_ms": cpu_ms}, "end": {"cpu_work_1t_ms": cpu_ms}},
                }
            }

        good, bad = bench_side(10.0, 1, machine=block(5.0)), bench_side(12.0, 2, machine=block(5.0))
        j = bisectsearch.BenchJudge(good, bad)
        # ends measured while the machine moved: followed all the same, and said so
        moved = bisectsearch.BenchJudge(good, bench_side(30.0, 2, machine=block(10.0)))
        self.assertEqual(moved.names, [NAME])
        self.assertIn(
            "the machine moved too: cpu work (1 thread) between the runs 5 ms -> 10 ms", moved.describe_ends()
        )
        slow_machine = bench_side(12.0, 3, machine=block(6.5))  # 30 % slower machine: not judged
        bad_verdict, what = j.classify(slow_machine)
        self.assertIsNone(bad_verdict, what)
        self.assertIn("machine moved", what)


class Bisect(unittest.TestCase):
    commits = ["c%d" % i for i in range(6)]

    def run_bisect(self, ws, mode="auto"):
        return bisectcommit.bisect(ws, self.commits, mode, 9, 0.05, 0.05)

    def test_planted_slowdown(self):
        for k in range(1, 6):
            ws = FakeWorkspace(medians={c: (10.0 if i < k else 12.0) for i, c in enumerate(self.commits)})
            judge, first, tried = self.run_bisect(ws)
            self.assertEqual((judge.kind, first), ("bench", k))
            self.assertLessEqual(len(ws.built), 5)

    def test_planted_wrong_result(self):
        ws = FakeWorkspace(outcomes={c: ("FAIL" if i >= 3 else "PASS") for i, c in enumerate(self.commits)})
        judge, first, tried = self.run_bisect(ws)
        self.assertEqual((judge.kind, first), ("outcome", 3))
        self.assertTrue(all(kind == "outcome" for _sha, kind, _r in ws.measured))

    def test_unclear_commit_is_measured_again(self):
        ws = FakeWorkspace(
            medians={c: (10.0 if i < 2 else 12.0) for i, c in enumerate(self.commits)}, noisy={"c2": 11.0}
        )
        judge, first, tried = self.run_bisect(ws)
        self.assertEqual(first, 2)
        self.assertIn(("c2", "bench", 18), ws.measured)

    def test_nothing_to_bisect(self):
        ws = FakeWorkspace(medians={c: 10.0 for c in self.commits})
        judge, first, tried = self.run_bisect(ws)
        self.assertIsNone(first)

    def test_an_end_that_does_not_build_is_an_error(self):
        ws = FakeWorkspace(medians={c: 10.0 for c in self.commits}, untestable={"c0"})
        with self.assertRaisesRegex(data.InputError, "GOOD .* does not build"):
            self.run_bisect(ws)


if __name__ == "__main__":
    unittest.main()
