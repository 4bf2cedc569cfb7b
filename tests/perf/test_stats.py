#!/usr/bin/env python3
"""tests/perf/test_stats.py — sbperf.stats: the change in percent, the spread, a figure of
two sample sets over their pairs (the study's), and the Mann-Whitney U test (used by the
gate's wall-time report and the AVX-512 gate) against known values. Part of `make test`
(test-perf); no timing, no machine dependence.

Known values:
  - hand-computed exact probabilities: with n1 = n2 = 3 the 20 arrangements are equally
    likely under the null hypothesis, so complete separation has P = 1/20 one-sided;
    n1 = n2 = 4: 1/70; n1 = 3, n2 = 2 enumerated by hand;
  - the two-sided 5% critical values of U for n1 = n2 = 5..20 from the standard tables
    (e.g. Siegel & Castellan, Table J; any statistics textbook): U <= critical gives
    p <= 0.05, U = critical + 1 gives p > 0.05;
  - the normal approximation with ties against a hand computation;
  - a textbook example (Mann-Whitney on 5 vs 4 observations, U = 17 for the first sample).

Run alone: PYTHONPATH=scripts python3 tests/perf/test_stats.py
"""

import math
import unittest

from sbperf import stats

# Two-sided alpha = 0.05 critical values of U (the smaller U), n1 = n2 = n.
CRITICAL_05 = {5: 2, 6: 5, 7: 8, 8: 13, 9: 17, 10: 23, 11: 30, 12: 37, 13: 45, 14: 55,
               15: 64, 16: 75, 17: 87, 18: 99, 19: 113, 20: 127}


def samples_with_u(n, u):
    """Returns x, y (n values each, no ties) where exactly u pairs have x > y: y are the
    odd numbers 1..2n-1, and the x's sit above k_i of them with sum(k_i) = u."""
    y = [2 * j + 1 for j in range(n)]
    ks = []
    left = u
    for _ in range(n):
        k = min(n, left)
        ks.append(k)
        left -= k
    assert left == 0
    x = [2 * k + (i + 1) * 1e-3 for i, k in enumerate(ks)]
    return x, y


class Change(unittest.TestCase):
    def test_percent_change(self):
        self.assertEqual(stats.pct(105, 100), 5.0)
        self.assertEqual(stats.pct(80, 100), -20.0)
        self.assertEqual(stats.pct(0, 0), 0.0)
        self.assertEqual(stats.pct(1, 0), math.inf)

    def test_median_change_reads_the_medians(self):
        # medians 10 and 12: +20%, whatever the outliers
        self.assertAlmostEqual(stats.median_change([12, 1, 13], [10, 9, 100]), 20.0)

    def test_coefficient_of_variation(self):
        self.assertEqual(stats.cv([5.0]), 0.0)
        self.assertEqual(stats.cv([4.0, 4.0, 4.0]), 0.0)
        self.assertAlmostEqual(stats.cv([9.0, 11.0]), 100.0 * math.sqrt(2) / 10.0)


class Pairwise(unittest.TestCase):
    def test_every_pair_of_samples(self):
        # differences of {10, 12} and {1, 2, 3}: 7 8 9 9 10 11, median 9
        self.assertEqual(stats.pairwise(lambda a, b: a - b, [10, 12], [1, 2, 3]), (9, 7, 11))
        # the order of the samples does not pair them
        self.assertEqual(stats.pairwise(lambda a, b: a - b, [12, 10], [3, 1, 2]), (9, 7, 11))

    def test_a_range_across_zero(self):
        mid, lo, hi = stats.pairwise(lambda a, b: a - b, [9.0, 11.0], [10.0])
        self.assertEqual((mid, lo, hi), (0.0, -1.0, 1.0))

    def test_an_empty_sample_is_refused(self):
        with self.assertRaises(ValueError):
            stats.pairwise(lambda a, b: a - b, [], [1.0])


class Exact(unittest.TestCase):
    def test_complete_separation_3_3(self):
        u, p = stats.mann_whitney_u([1, 2, 3], [4, 5, 6])
        self.assertEqual(u, 0)
        self.assertAlmostEqual(p, 2 / 20)

    def test_complete_separation_4_4(self):
        u, p = stats.mann_whitney_u([5, 6, 7, 8], [1, 2, 3, 4])
        self.assertEqual(u, 16)
        self.assertAlmostEqual(p, 2 / 70)

    def test_complete_separation_10_10(self):
        x = [float(i) for i in range(10)]
        y = [float(i) for i in range(10, 20)]
        u, p = stats.mann_whitney_u(x, y)
        self.assertEqual(u, 0)
        self.assertAlmostEqual(p, 2 / math.comb(20, 10), places=15)

    def test_hand_enumeration_3_2(self):
        # n1 = 3, n2 = 2: 10 arrangements; U counts: 0:1 1:1 2:2 3:2 4:2 5:1 6:1.
        self.assertEqual(stats.u_distribution(3, 2), [1, 1, 2, 2, 2, 1, 1])
        # x = [1, 4, 5], y = [2, 3]: U = 0 + 2 + 2 = 4; P(U >= 4) = 4/10, two-sided 0.8.
        u, p = stats.mann_whitney_u([1, 4, 5], [2, 3])
        self.assertEqual(u, 4)
        self.assertAlmostEqual(p, 0.8)

    def test_distribution_is_symmetric_and_complete(self):
        # every interleaving counted once; symmetric under the null
        for n1, n2 in ((1, 1), (3, 4), (3, 5), (5, 5), (7, 4), (10, 10)):
            d = stats.u_distribution(n1, n2)
            self.assertEqual(len(d), n1 * n2 + 1)
            self.assertEqual(sum(d), math.comb(n1 + n2, n1))
            self.assertEqual(d, d[::-1])

    def test_textbook_example(self):
        u, p = stats.mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12])
        self.assertEqual(u, 17)
        # P(U >= 17) for n1 = 5, n2 = 4: arrangements with U = 17..20 are 1+1+2+3 = 7 of
        # C(9, 4) = 126; two-sided 14/126.
        self.assertAlmostEqual(p, 14 / 126, places=12)

    def test_critical_values_of_the_tables(self):
        for n, crit in CRITICAL_05.items():
            x, y = samples_with_u(n, crit)
            u, p = stats.mann_whitney_u(x, y)
            self.assertEqual(u, crit)
            self.assertLessEqual(p, 0.05, "n=%d U=%d" % (n, crit))
            x, y = samples_with_u(n, crit + 1)
            _, p = stats.mann_whitney_u(x, y)
            self.assertGreater(p, 0.05, "n=%d U=%d" % (n, crit + 1))

    def test_swapping_the_samples(self):
        x, y = samples_with_u(8, 20)
        u1, p1 = stats.mann_whitney_u(x, y)
        u2, p2 = stats.mann_whitney_u(y, x)
        self.assertEqual(u1 + u2, 64)
        self.assertAlmostEqual(p1, p2)

    def test_an_empty_sample_is_refused(self):
        with self.assertRaises(ValueError):
            stats.mann_whitney_u([], [1.0])


class Normal(unittest.TestCase):
    def test_ties_use_the_corrected_normal_approximation(self):
        x = [1, 2, 2, 3, 3, 3, 4, 5]
        y = [3, 4, 4, 5, 5, 6, 6, 7]
        u, p = stats.mann_whitney_u(x, y)
        # By hand: U(x over y) = 7.5; the pooled values tie as 2:2, 3:4, 4:3, 5:3, 6:2,
        # so sum(t^3 - t) = 6 + 60 + 24 + 24 + 6 = 120; var = 64/12 * (17 - 120/240) = 88;
        # z = (|7.5 - 32| - 0.5) / sqrt(88) = 24 / 9.3808 = 2.5584; p = erfc(z / sqrt 2).
        self.assertEqual(u, 7.5)
        self.assertAlmostEqual(p, math.erfc(24 / math.sqrt(88) / math.sqrt(2)), places=12)
        self.assertAlmostEqual(p, 0.01052, places=4)

    def test_normal_approximation_agrees_roughly(self):
        x = [1.0, 2.5, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0]
        y = [4.5, 5.0, 6.5, 7.5, 8.0, 9.0, 9.5, 10.0]
        _, p = stats.mann_whitney_u(x, y)  # ties: normal approximation
        self.assertTrue(0.005 < p < 0.05, p)

    def test_identical_samples(self):
        u, p = stats.mann_whitney_u([5.0] * 6, [5.0] * 6)
        self.assertEqual((u, p), (18, 1.0))

    def test_large_samples_agree_with_the_exact_test(self):
        # 20 vs 21 values without ties: n1*n2 = 420 > 400 takes the normal route, which
        # must then be close to the exact answer for the same ranks.
        x = [float(v) for v in range(0, 40, 2)]
        y = [float(v) + 7.5 for v in range(1, 43, 2)]
        u, p = stats.mann_whitney_u(x, y)
        d = stats.u_distribution(20, 21)
        k = int(u)
        exact = 2 * min(sum(d[:k + 1]), sum(d[k:])) / sum(d)
        self.assertAlmostEqual(p, exact, delta=0.01)


if __name__ == "__main__":
    unittest.main(verbosity=1)
