#!/usr/bin/env python3
"""tests/perf/test_compare_ir.py — sbperf.compare_ir's table (`make compare-ir`) on synthetic
counts: instruction counts joined with the timed medians, the ratios to the tdoku peer, and
the slices. Part of `make test` (test-perf); no valgrind, no timing.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_compare_ir.py
"""

import os
import tempfile
import unittest

from sbperf import compare_ir as cir
from sbperf import measure


class CompareIr(unittest.TestCase):
    """sbperf.compare_ir's table: counts joined with the timed medians."""

    @staticmethod
    def median(corpus, solver, level, pps, guesses=5.0):
        return {"corpus": corpus, "dataset": os.path.basename(corpus), "solver": solver,
                "level": level, "puzzles_per_sec": pps, "guesses_per_puzzle": guesses}

    def test_ratios_multiply_to_the_speed_ratio(self):
        medians = [self.median("c/a.txt", "tdoku", "sse4.2", 100.0),
                   self.median("c/a.txt", "tdoku", "native", 150.0),
                   self.median("c/a.txt", "sudokubench", "sse4", 125.0),
                   self.median("c/a.txt", "sudokubench", "scalar", 110.0),
                   self.median("c/a.txt", "sudokubench", "avx512", 400.0)]
        counts = {("c/a.txt", "tdoku", "sse4.2"): {"instr_per_puzzle": 60000.0},
                  ("c/a.txt", "tdoku", "native"): {"why": "valgrind cannot run it"},
                  ("c/a.txt", "sudokubench", "sse4"): {"instr_per_puzzle": 50000.0},
                  ("c/a.txt", "sudokubench", "scalar"): {"instr_per_puzzle": 48000.0},
                  ("c/a.txt", "sudokubench", "avx512"): {"why": "valgrind cannot run it"}}
        rows = {(r["solver"], r["level"]): r for r in cir.join_rows(medians, counts)}
        sse4 = rows[("sudokubench", "sse4")]
        self.assertEqual(sse4["peer"], "tdoku sse4.2")
        self.assertAlmostEqual(sse4["instr_ratio"], 1.2)   # 60k / 50k
        self.assertAlmostEqual(sse4["speed_ratio"], 1.25)  # 125 / 100
        self.assertAlmostEqual(sse4["rate_ratio"], 125 * 50000.0 / (100 * 60000.0))
        for r in (sse4, rows[("sudokubench", "scalar")]):
            self.assertAlmostEqual(r["instr_ratio"] * r["rate_ratio"], r["speed_ratio"])
        self.assertEqual(rows[("tdoku", "sse4.2")]["instr_per_sec"], 6e6)
        # A level valgrind cannot run keeps its speed ratio and says why it has no count.
        big = rows[("sudokubench", "avx512")]
        self.assertEqual(big["peer"], "tdoku native")
        self.assertAlmostEqual(big["speed_ratio"], 400 / 150)
        self.assertIsNone(big["instr_ratio"])
        self.assertIsNone(big["rate_ratio"])
        self.assertEqual(big["not_counted"], "valgrind cannot run it")
        text = cir.markdown({"cpu": "test cpu", "orientation": "as given"}, list(rows.values()))
        self.assertIn("| sudokubench sse4 | 50,000 | 125 | 0.01 G | 5.00 | tdoku sse4.2 "
                      "| 1.20x | 1.04x | 1.25x |", text)
        self.assertIn("(valgrind cannot run it)", text)

    def test_no_peer_row_leaves_the_ratios_empty(self):
        medians = [self.median("b.txt", "sudokubench", "sse4", 125.0)]
        counts = {("b.txt", "sudokubench", "sse4"): {"instr_per_puzzle": 50000.0}}
        (row,) = cir.join_rows(medians, counts)
        self.assertIsNone(row["peer"])
        self.assertIsNone(row["speed_ratio"])
        self.assertAlmostEqual(row["instr_per_sec"], 6.25e6)

    def test_slice_keeps_the_first_puzzle_lines(self):
        with tempfile.TemporaryDirectory() as d:
            src, out = os.path.join(d, "in.txt"), os.path.join(d, "out.txt")
            with open(src, "w") as f:
                f.write("# a comment\n\n" + "".join("%081d\n" % i for i in range(5)))
            self.assertEqual(cir.write_slice(src, 3, out), 3)
            with open(out) as f:
                self.assertEqual(f.read(), "".join("%081d\n" % i for i in range(3)))
            self.assertEqual(cir.write_slice(src, 50, out), 5)
            with open(src, "w") as f:
                f.write("# nothing else\n")
            with self.assertRaises(measure.PerfError):
                cir.write_slice(src, 3, out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
