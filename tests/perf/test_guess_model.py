#!/usr/bin/env python3
"""tests/perf/test_guess_model.py — sbperf.guess_model, the independent model of the search,
on a few boards whose answers are known: a puzzle with one solution, the empty grid (counted
to the limit) and clashing givens (no solution, no guess), the same solutions under every
branching and digit order, --branch line's pairs, its choice against the cell rule and its
gates, --digit most's choice, the open-cell gate on every board that takes the triad rules,
and the lines it refuses. Part of `make test` (test-perf), in about two seconds;
tests/guesses/check.sh holds every SIMD level's guesses to the model on the committed
corpora.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_guess_model.py
"""

import os
import tempfile
import unittest

from sbperf import guess_model as gm

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def puzzles(*path, n):
    """The first n puzzle lines of the committed corpus at ROOT/datasets/path."""
    with open(os.path.join(ROOT, "datasets", *path)) as f:
        return [s for s in (line.strip() for line in f) if s and s[0] != "#"][:n]


def boards(*lines):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.txt")
        with open(path, "w") as f:
            f.write("# a comment\n\n" + "".join(line + "\n" for line in lines))
        return [b for _, b in gm.parse(path)]


class Model(unittest.TestCase):
    def test_known_counts(self):
        (puzzle,) = puzzles("samples", "top1465.txt", n=1)
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

    def test_every_branching_enumerates_the_same_solutions(self):
        # counted to the end (limit 0), a puzzle's solutions do not depend on the branching;
        # puzzles with several solutions, so every branch of the search is walked
        for line in puzzles("multi", "multi_2000_seed1.txt", n=3):
            counts = {br: gm.solve(boards(line)[0], limit=0, branch=br).count
                      for br in ("cell", "band", "pair", "line")}
            counts["cell, digit most"] = gm.solve(boards(line)[0], limit=0, digit="most").count
            self.assertGreaterEqual(counts["cell"], 2, line)
            self.assertEqual(len(set(counts.values())), 1, (line, counts))

    def test_pair_branching_takes_a_digit_with_two_places_in_a_house(self):
        b = boards("." * 81)[0]
        self.assertIsNone(gm.branch_pair(b))  # every digit has nine places everywhere
        # digit 1 only in r1c1 and r1c2 of row 1: the pair, the first of its cells
        for c in range(2, 9):
            b[c] &= ~1
        self.assertEqual(gm.branch_pair(b), (0, 1))

    def test_line_branching_takes_a_digit_with_two_places_in_a_line_across_boxes(self):
        b = boards("." * 81)[0]
        self.assertIsNone(gm.branch_line(b, 0))  # every digit has nine places everywhere
        # digit 1 only in r1c1 and r1c2: two places in one box, not a line pair
        for c in range(2, 9):
            b[c] &= ~1
        self.assertEqual(list(gm.line_pairs(b)), [])
        # only in r1c1 and r1c5 (boxes 1 and 2): the pair, and the cell rule's cell has nine
        # candidates, so the pair is taken; a tie on the digit's open peers: the first place
        b[1] |= 1
        b[4] |= 1
        b[1] &= ~1
        self.assertEqual(list(gm.line_pairs(b)), [(1, 0, 4)])
        self.assertEqual(gm.branch_line(b, 40), (0, 1))
        # r1c1's column loses digit 1 below it: r1c5's peers hold it more, r1c5 goes first
        for r in range(1, 9):
            b[9 * r] &= ~1
        self.assertEqual(gm.branch_line(b, 40), (4, 1))

    def test_line_branching_keeps_a_bivalue_cell_that_reaches_as_far(self):
        b = boards("." * 81)[0]
        for c in range(9):  # digit 1 in row 1 only at r1c1 and r1c5
            if c not in (0, 4):
                b[c] &= ~1
        pair = gm.reach(b, (set(gm.PEERS[0]) | set(gm.PEERS[4])) - {0, 4}, 1)
        cell = 80
        b[cell] = 0b110  # a bivalue cell whose peers all hold both its digits
        # reach 20 against the pair's 24 (columns 1 and 5 and the rest of their boxes): above
        # 7/10 of it, so the pair is taken
        self.assertEqual((gm.reach(b, gm.PEERS[cell], b[cell]), pair), (20, 24))
        self.assertEqual(gm.branch_line(b, cell), (0, 1))
        # bivalue peers count three times: ten of them (none a place of the pair's digit's
        # reach) lift the cell's to 40, and the pair, at 7/10 of it or less, leaves the cell
        # rule's choice as it is
        for p in gm.PEERS[cell][:10]:
            b[p] = 0b110
        score = gm.reach(b, gm.PEERS[cell], b[cell])
        self.assertEqual(score, 40)
        self.assertEqual(gm.reach(b, (set(gm.PEERS[0]) | set(gm.PEERS[4])) - {0, 4}, 1), 24)
        self.assertLessEqual(10 * 24, 7 * score)
        self.assertIsNone(gm.branch_line(b, cell))

    def test_line_gates_past_every_board_are_the_ungated_rule(self):
        # no board scores 1000 or has 82 open cells, and no search makes 10**6 guesses: gates
        # there leave the pairs to no board, gates at 0 (or 1000 on the score) to every one
        (line,) = puzzles("samples", "hardest_11plus_1000.txt", n=1)

        def run(**kw):
            s = gm.solve(boards(line)[0], branch="line", digit="most", **kw)
            return s.count, s.guesses

        cell = gm.solve(boards(line)[0], digit="most")
        ungated = run()
        self.assertEqual(run(line_below=1000), ungated)
        self.assertEqual(run(line_after=0, line_open=0, line_below=0), ungated)
        self.assertEqual(run(line_after=10 ** 6), (cell.count, cell.guesses))
        self.assertEqual(run(line_open=82), (cell.count, cell.guesses))
        self.assertEqual(ungated[0], 1)

    def test_digit_most_takes_the_digit_most_open_peers_hold(self):
        b = boards("." * 81)[0]
        b[0] = 0b11  # r1c1: digits 1 and 2, every peer open with all nine
        self.assertEqual(gm.first_digit(b, 0), 0b01)  # a tie: the lowest
        for c in gm.PEERS[0][:5]:
            b[c] &= ~0b01  # five peers lose digit 1: digit 2 is held by more
        self.assertEqual(gm.first_digit(b, 0), 0b10)
        b[gm.PEERS[0][5]] = 0b10  # a placed peer is not open: it does not count
        for c in gm.PEERS[0][6:11]:
            b[c] &= ~0b10
        self.assertEqual(gm.first_digit(b, 0), 0b01)

    def test_digit_order_leaves_a_unique_puzzles_count(self):
        for line in puzzles("samples", "top1465.txt", n=5):
            low, most = (gm.solve(boards(line)[0], digit=d) for d in ("low", "most"))
            self.assertEqual((low.count, most.count), (1, 1), line)

    def test_the_open_gate_holds_on_every_board_that_takes_the_rules(self):
        # a board never has 82 open cells: gated there, no board takes the triad rules and the
        # search is the one without them; gated at 0, every board takes them, as ungated
        (line,) = puzzles("samples", "hardest_11plus_1000.txt", n=1)

        def run(**kw):
            s = gm.solve(boards(line)[0], triad="both", **kw)
            return s.count, s.guesses, s.settles, s.triad_settles

        plain = gm.solve(boards(line)[0])
        self.assertEqual(run(opening=82), (plain.count, plain.guesses, plain.settles, 0))
        every = run()
        self.assertEqual(run(opening=0), every)
        self.assertEqual(every[2], every[3])  # each settle took the rules
        # at 50, boards below the root take them too (the engines' gate is the root's alone)
        gated, root = run(opening=50), run(depth="root", opening=50)
        self.assertEqual((gated[0], root[0]), (1, 1))
        self.assertLessEqual(root[3], 1)
        self.assertGreater(gated[3], 1)
        self.assertLess(gated[3], gated[2])

    def test_a_line_that_is_not_a_puzzle_is_refused(self):
        with self.assertRaisesRegex(ValueError, ":3: not an 81-cell puzzle line"):
            boards("1" * 80)


if __name__ == "__main__":
    unittest.main(verbosity=1)
