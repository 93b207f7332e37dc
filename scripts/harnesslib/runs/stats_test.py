"""Unit tests of harnesslib.runs.stats: known samples with hand-computed U and p, scipy.stats.mannwhitneyu's answers
on 60 random samples recorded in scripts/fixtures/stats/ (so that no machine needs scipy), and, where python3-scipy
is importable, a live cross-check on 300 more.
Usage: python3 -m harnesslib.runs.stats_test [-v]"""

import math
import random
import unittest

from . import stats
from ..testing import fixtures


class Known(unittest.TestCase):
    def test_median(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        self.assertRaises(ValueError, stats.median, [])

    def test_ranks_with_ties(self):
        ranks, tie = stats.rank([10, 20, 20, 30])
        self.assertEqual(ranks, [1, 2.5, 2.5, 4])
        self.assertEqual(tie, 2**3 - 2)

    def test_complete_separation_exact(self):
        # x all below y: U = 0; 2 * 1/C(6,3) = 0.1 by hand.
        r = stats.mann_whitney_u([1, 2, 3], [4, 5, 6])
        self.assertEqual((r["u"], r["method"]), (0, "exact"))
        self.assertAlmostEqual(r["p"], 0.1)
        # 9 vs 9 separated: 2 / C(18, 9) = 2 / 48620
        r = stats.mann_whitney_u(list(range(9)), list(range(10, 19)))
        self.assertAlmostEqual(r["p"], 2 / 48620.0)

    def test_exact_small_by_hand(self):
        # x = [1, 3], y = [2, 4]: ranks of x 1 + 3 = 4, U = 4 - 3 = 1. Distribution of U for n1 = n2 = 2 over the
        # 6 arrangements: U = 0, 1, 2, 2, 3, 4 -> P(U >= max(1, 3) = 3) = 2/6, p = 2/3.
        r = stats.mann_whitney_u([1, 3], [2, 4])
        self.assertEqual(r["u"], 1)
        self.assertAlmostEqual(r["p"], 2 / 3.0)

    def test_asymptotic_with_ties_by_hand(self):
        # x = [1, 2, 2, 3], y = [2, 3, 4, 5]: pooled ranks 1, 3, 3, 3, 3, 5.5, 5.5, 7, 8 ... computed:
        # values sorted 1 2 2 2 3 3 4 5 -> ranks 1, 3, 3, 3, 5.5, 5.5, 7, 8; R1 = 1 + 3 + 3 + 5.5 = 12.5,
        # U1 = 12.5 - 10 = 2.5, U2 = 13.5; ties: (27 - 3) + (8 - 2) = 30; n = 8;
        # sigma^2 = 16/12 * (9 - 30/56) = 11.2857; z = (13.5 - 8 - 0.5)/sqrt(11.2857) = 1.48835; p = 0.13666.
        r = stats.mann_whitney_u([1, 2, 2, 3], [2, 3, 4, 5])
        self.assertEqual((r["u"], r["method"]), (2.5, "asymptotic"))
        self.assertAlmostEqual(r["z"], 5 / math.sqrt(16 / 12.0 * (9 - 30 / 56.0)), places=12)
        self.assertAlmostEqual(r["p"], 0.136658, places=5)

    def test_all_equal(self):
        r = stats.mann_whitney_u([1, 1, 1], [1, 1])
        self.assertEqual(r["p"], 1.0)

    def test_holm(self):
        # sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, max(0.04, 0.06), max(.., 0.06), 0.5
        self.assertEqual([round(p, 10) for p in stats.holm([0.03, 0.01, 0.5, 0.02])], [0.06, 0.04, 0.5, 0.06])

    def test_compare_samples_verdicts(self):
        base = [10.0, 10.2, 9.9, 10.1, 10.05, 9.95, 10.15, 10.0, 9.98]
        slow = [v * 1.2 for v in base]
        self.assertEqual(stats.compare_samples(base, slow)["verdict"], "regression")
        self.assertEqual(stats.compare_samples(slow, base)["verdict"], "improvement")
        self.assertEqual(stats.compare_samples(base, [v * 1.01 for v in base])["verdict"], "unchanged")  # < 5 %
        r = stats.compare_samples(base, slow, min_effect=0.25)
        self.assertEqual(r["verdict"], "unchanged")
        self.assertAlmostEqual(r["change"], 0.2)


class AgainstRecordedScipy(unittest.TestCase):
    def test_recorded_samples(self):
        cases = fixtures.load("stats", "mannwhitneyu_scipy.json")["cases"]
        self.assertEqual(len(cases), 60)
        self.assertTrue({"exact", "asymptotic"} <= {c["method"] for c in cases})
        for c in cases:
            ours = stats.mann_whitney_u(c["x"], c["y"])
            self.assertEqual(ours["method"], c["method"])
            self.assertAlmostEqual(ours["u"], c["u"], places=9)
            self.assertAlmostEqual(ours["p"], c["p"], places=12)


class AgainstScipy(unittest.TestCase):
    def test_random_samples(self):
        try:
            from scipy.stats import mannwhitneyu
        except ImportError:
            self.skipTest("python3-scipy not installed")
        rng = random.Random(5)
        for t in range(300):
            n1, n2 = rng.randint(1, 15), rng.randint(1, 15)
            tied = t % 2 == 0
            x = [rng.randint(0, 6) if tied else rng.random() for _ in range(n1)]
            y = [rng.randint(0, 6) if tied else rng.random() + 0.2 for _ in range(n2)]
            ours = stats.mann_whitney_u(x, y)
            ref = mannwhitneyu(x, y, alternative="two-sided", use_continuity=True, method=ours["method"])
            self.assertAlmostEqual(ours["u"], ref.statistic, places=9)
            self.assertAlmostEqual(ours["p"], ref.pvalue, places=12)


if __name__ == "__main__":
    unittest.main()
