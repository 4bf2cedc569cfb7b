#!/usr/bin/env python3
"""tests/perf/test_guess_model.py — sbperf.guess_model, the independent model of the search,
on a few boards whose answers are known: a puzzle with one solution, the empty grid (counted
to the limit) and clashing givens (no solution, no guess), and the lines it refuses. Part of
`make test` (test-perf), in well under a second; tests/guesses/check.sh holds every SIMD
level's guesses to the model on the committed corpora.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_guess_model.py
"""

import os
import tempfile
import unittest

from sbperf import guess_model as gm

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def boards(*lines):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.txt")
        with open(path, "w") as f:
            f.write("# a comment\n\n" + "".join(line + "\n" for line in lines))
        return [b for _, b in gm.parse(path)]


class Model(unittest.TestCase):
    def test_known_counts(self):
        with open(os.path.join(ROOT, "datasets", "samples", "top1465.txt")) as f:
            puzzle = next(s for s in (line.strip() for line in f) if s and s[0] != "#")
        empty = "." * 81
        clash = "5...5" + "." * 76
        for triad in ("none", "both"):
            # a search works on its board: each one gets its own
            one, none_, two = boards(puzzle, clash, empty)
            s = gm.solve(one, triad=triad)
            self.assertEqual(s.count, 1, triad)
            self.assertGreaterEqual(s.guesses, 0)
            s = gm.solve(none_, triad=triad)
            self.assertEqual((s.count, s.guesses), (0, 0), triad)
            self.assertEqual(gm.solve(two, triad=triad).count, 2, triad)
        self.assertEqual(gm.solve(boards(empty)[0], limit=1).count, 1)

    def test_a_line_that_is_not_a_puzzle_is_refused(self):
        with self.assertRaisesRegex(ValueError, ":3: not an 81-cell puzzle line"):
            boards("1" * 80)


if __name__ == "__main__":
    unittest.main(verbosity=1)
