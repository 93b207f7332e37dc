"""Statistics for benchmark comparison: medians and the Mann-Whitney U test (standard library only).

mann_whitney_u(x, y) is the two-sided test of "x and y come from the same distribution" against a
shift. It returns the U statistic of x (U1 = R1 - n1(n1+1)/2, R1 = sum of the ranks of x in the pooled
sample, ties get their average rank) and the p-value:
  * exact: when there are no ties and both samples are small (n1, n2 <= EXACT_MAX), p = 2 P(U >= max(U1, U2))
    from the exact null distribution of U (counted by dynamic programming), capped at 1;
  * asymptotic: otherwise, the normal approximation with tie correction of the variance and a continuity
    correction of 0.5: z = (max(U1, U2) - n1 n2 / 2 - 0.5) / sigma, p = 2 (1 - Phi(z)), capped at 1.
These are the definitions scipy.stats.mannwhitneyu uses (method='exact' / 'asymptotic', use_continuity=True).
"""

import math
from functools import lru_cache

EXACT_MAX = 50


def median(values):
    """Median of a non-empty sequence of numbers (mean of the two middle values for even lengths)."""
    s = sorted(values)
    if not s:
        raise ValueError("median of an empty sample")
    n = len(s)
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2.0


def rank(values):
    """Ranks 1..n of `values` in their order, ties getting the average of the ranks they span.
    Returns (ranks, tie_term) where tie_term = sum over tie groups of (t^3 - t)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    tie_term = 0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2.0 + 1.0
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        t = j - i + 1
        tie_term += t**3 - t
        i = j + 1
    return ranks, tie_term


@lru_cache(maxsize=None)
def _u_counts(n1, n2):
    """Number of arrangements of n1 x's and n2 y's giving each value of U (index = U), as a tuple."""
    # f(m, n) over u: f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)  (last element is an x or a y)
    prev = [[1] for _ in range(n2 + 1)]  # m = 0: U = 0 only
    for m in range(1, n1 + 1):
        cur = [[1]]  # n = 0: U = 0 only
        for n in range(1, n2 + 1):
            a = prev[n]  # last is x: contributes n to U -> shift by n
            b = cur[n - 1]  # last is y: contributes 0
            size = m * n + 1
            row = [0] * size
            for u, c in enumerate(a):
                row[u + n] += c
            for u, c in enumerate(b):
                row[u] += c
            cur.append(row)
        prev = cur
    return tuple(prev[n2])


def exact_p(u, n1, n2):
    """Two-sided exact p-value of U = u for sample sizes n1, n2 without ties: 2 P(U >= max(u, n1 n2 - u))."""
    counts = _u_counts(n1, n2)
    total = math.comb(n1 + n2, n1)
    u_big = max(u, n1 * n2 - u)
    tail = sum(counts[int(math.ceil(u_big - 1e-9)) :])
    return min(1.0, 2.0 * tail / total)


def normal_sf(z):
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def mann_whitney_u(x, y, method="auto"):
    """Two-sided Mann-Whitney U test. Returns a dict: u (U of x), p, method ('exact' or 'asymptotic'),
    z (asymptotic only, else None), n1, n2, ties (bool). method: 'auto', 'exact' or 'asymptotic'."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("Mann-Whitney U needs two non-empty samples")
    ranks, tie_term = rank(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2.0
    u2 = n1 * n2 - u1
    ties = tie_term > 0
    if method == "auto":
        method = "exact" if (not ties and n1 <= EXACT_MAX and n2 <= EXACT_MAX) else "asymptotic"
    if method == "exact":
        return {"u": u1, "p": exact_p(u1, n1, n2), "method": "exact", "z": None, "n1": n1, "n2": n2, "ties": ties}
    n = n1 + n2
    mu = n1 * n2 / 2.0
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:  # every value equal: no evidence of a difference
        return {"u": u1, "p": 1.0, "method": "asymptotic", "z": 0.0, "n1": n1, "n2": n2, "ties": ties}
    z = (max(u1, u2) - mu - 0.5) / math.sqrt(var)
    p = min(1.0, 2.0 * normal_sf(z))
    return {"u": u1, "p": p, "method": "asymptotic", "z": z, "n1": n1, "n2": n2, "ties": ties}


def classify(change, p, alpha, min_effect, higher_is_better=False):
    """(significant, verdict) of a relative change with p-value p; verdict is 'regression', 'improvement'
    or 'unchanged'."""
    significant = p < alpha and abs(change) >= min_effect
    if not significant:
        return False, "unchanged"
    worse = change < 0 if higher_is_better else change > 0
    return True, "regression" if worse else "improvement"


def holm(pvalues):
    """Holm-Bonferroni adjusted p-values (same order as given): controls the chance of any false positive
    across the whole family of tests at the level alpha they are compared with."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adj = [0.0] * m
    running = 0.0
    for rank_, i in enumerate(order):
        running = max(running, min(1.0, (m - rank_) * pvalues[i]))
        adj[i] = running
    return adj


def compare_samples(base, cand, alpha=0.05, min_effect=0.05, higher_is_better=False):
    """Classifies a change of a benchmark from samples `base` to `cand`.
    change = median(cand) / median(base) - 1. Significant when p < alpha and |change| >= min_effect.
    verdict: 'regression', 'improvement' or 'unchanged' (direction from higher_is_better)."""
    mb, mc = median(base), median(cand)
    change = (mc / mb - 1.0) if mb else (0.0 if mc == mb else math.inf)
    test = mann_whitney_u(base, cand)
    significant, verdict = classify(change, test["p"], alpha, min_effect, higher_is_better)
    return {
        "base_median": mb,
        "cand_median": mc,
        "change": change,
        "u": test["u"],
        "p": test["p"],
        "method": test["method"],
        "n_base": len(base),
        "n_cand": len(cand),
        "significant": significant,
        "verdict": verdict,
    }
