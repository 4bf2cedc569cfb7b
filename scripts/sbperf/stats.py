"""sbperf.stats — the figures the gates, the history and the study share: change in percent,
spread, a figure of two sample sets with its range, and the Mann-Whitney U test (stdlib
only).

The instruction-count gate and the history compare counts by their change in percent; the
wall-time report of the gate and the AVX-512 timed gate compare samples by median, spread
(coefficient of variation) and a rank test, which needs no assumption about the shape of the
timing distribution.
"""

import math
import statistics


def pct(new, old):
    """Returns the change from old to new in percent (0 when old is 0 and so is new)."""
    if old == 0:
        return 0.0 if new == 0 else math.inf
    return (new - old) * 100.0 / old



def cv(xs):
    """Returns the coefficient of variation in percent (0 for fewer than two samples)."""
    return 100.0 * statistics.stdev(xs) / statistics.mean(xs) if len(xs) > 1 else 0.0



def mann_whitney_u(x, y):
    """Returns (U of x, two-sided p) of the Mann-Whitney U test that x and y come from the
    same distribution. Exact null distribution when there are no ties and the samples are
    small (n1*n2 <= 400), else the normal approximation with tie and continuity
    corrections."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("empty sample")
    u = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)
    pooled = sorted(x + y)
    ties = [pooled.count(v) for v in set(pooled)]
    if max(ties) == 1 and n1 * n2 <= 400:
        counts = u_distribution(n1, n2)
        total = sum(counts)
        k = int(round(u))
        lower = sum(counts[:k + 1]) / total
        upper = sum(counts[k:]) / total
        return u, min(1.0, 2.0 * min(lower, upper))
    n = n1 + n2
    mean = n1 * n2 / 2.0
    tie_term = sum(t ** 3 - t for t in ties) / (n * (n - 1))
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term)
    if var <= 0:
        return u, 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2.0)))


def u_distribution(n1, n2):
    """Returns the counts of arrangements giving each U = 0..n1*n2 when neither sample is
    favoured: the number of ways to interleave n1 x's and n2 y's with U x-over-y pairs."""
    # table[j][u]: interleavings of i x's and j y's with U = u, built row by row over i.
    table = [[1] + [0] * (n1 * n2) for _ in range(n2 + 1)]
    for i in range(1, n1 + 1):
        new = [[0] * (n1 * n2 + 1) for _ in range(n2 + 1)]
        for j in range(n2 + 1):
            for u in range(i * j + 1):
                # the largest value is an x (beats all j y's) or a y (beats nothing)
                a = table[j][u - j] if u >= j else 0
                b = new[j - 1][u] if j > 0 else 0
                new[j][u] = a + b
        table = new
    return table[n2]



def pairwise(f, xs, ys):
    """Returns (median, min, max) of f(x, y) over every pair of a sample x of xs and a
    sample y of ys: a figure computed from two timings, each taken as repeated samples, with
    the range its samples allow (the samples of two rows are not paired by their order)."""
    if not xs or not ys:
        raise ValueError("empty sample")
    values = [f(x, y) for x in xs for y in ys]
    return statistics.median(values), min(values), max(values)


def median_change(new, old):
    """Returns the change from the median of the samples old to the median of new, in
    percent: how the timed gates read two sample sets."""
    return pct(statistics.median(new), statistics.median(old))
