#!/usr/bin/env python3
"""test_perf_check.py — the comparator of scripts/perf_check.py on synthetic inputs.

Runs in well under a second with no valgrind: baseline/current pairs built here exercise
the threshold rule, the table, the notes, stale-workload detection, the callgrind profile
parser, compare_ir.py's table (`make compare-ir`) and the Mann-Whitney U test. tests/perf/real_check.sh covers real callgrind runs.
"""

import importlib.util
import io
import json
import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "perf_check.py")
spec = importlib.util.spec_from_file_location("perf_check", SCRIPT)
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)
sys.modules["perf_check"] = pc  # compare_ir.py imports it by name: the same module
spec = importlib.util.spec_from_file_location(
    "compare_ir", os.path.join(HERE, "..", "..", "scripts", "compare_ir.py"))
cir = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cir)


def doc(*entries, build=None):
    """Returns a measurement document with the given (id, solve_ir[, total_ir, guesses])."""
    out = []
    for e in entries:
        eid, solve = e[0], e[1]
        total = e[2] if len(e) > 2 else solve + 1000
        guesses = e[3] if len(e) > 3 else 10
        out.append({"id": eid, "puzzles": 100, "solve_ir": solve, "total_ir": total,
                    "guesses": guesses})
    return {"format": pc.FORMAT, "build": build or {"compiler": "cc 12", "flags": "-O3 -g"},
            "entries": out}


def compare(base, cur, threshold=2.0):
    """Returns (exit code, printed text) of the comparator."""
    buf = io.StringIO()
    code = pc.compare(base, cur, threshold, out=buf)
    return code, buf.getvalue()


def row(text, eid):
    """Returns the table row of entry eid."""
    return next(line for line in text.splitlines() if line.startswith("| " + eid + " "))


BASE = doc(("fast/scalar/a", 1_000_000), ("list/scalar/a", 50_000_000))


class Gate(unittest.TestCase):
    def test_unchanged_passes(self):
        code, text = compare(BASE, BASE)
        self.assertEqual(code, 0)
        self.assertIn("0 regressions", text)
        self.assertTrue(text.rstrip().endswith("PASS"))
        self.assertIn("+0.00%", row(text, "fast/scalar/a"))

    def test_injected_slowdown_fails_and_names_the_entry(self):
        cur = doc(("fast/scalar/a", 1_050_000), ("list/scalar/a", 50_000_000))
        code, text = compare(BASE, cur)
        self.assertEqual(code, 1)
        self.assertIn("REGRESSION", row(text, "fast/scalar/a"))
        self.assertIn("+5.00%", row(text, "fast/scalar/a"))
        self.assertIn("ok", row(text, "list/scalar/a"))
        self.assertIn("1 regression above +2.0%", text)
        self.assertTrue(text.rstrip().endswith("FAIL"))

    def test_threshold_is_strictly_more_than(self):
        for rise, want in ((19_999, 0), (20_000, 0), (20_001, 1)):
            cur = doc(("fast/scalar/a", 1_000_000 + rise), ("list/scalar/a", 50_000_000))
            self.assertEqual(compare(BASE, cur)[0], want, rise)

    def test_threshold_is_configurable(self):
        cur = doc(("fast/scalar/a", 1_040_000), ("list/scalar/a", 50_000_000))
        self.assertEqual(compare(BASE, cur, threshold=2.0)[0], 1)
        self.assertEqual(compare(BASE, cur, threshold=5.0)[0], 0)

    def test_improvement_passes_with_a_note(self):
        cur = doc(("fast/scalar/a", 800_000), ("list/scalar/a", 50_000_000))
        code, text = compare(BASE, cur)
        self.assertEqual(code, 0)
        self.assertIn("improved", row(text, "fast/scalar/a"))
        self.assertIn("make perf-baseline", text)

    def test_total_only_rise_does_not_trip(self):
        # Parsing or I/O got slower: only the informational total moves.
        cur = doc(("fast/scalar/a", 1_000_000, 9_000_000), ("list/scalar/a", 50_000_000))
        code, text = compare(BASE, cur)
        self.assertEqual(code, 0)

    def test_missing_entry_fails(self):
        code, text = compare(BASE, doc(("fast/scalar/a", 1_000_000)))
        self.assertEqual(code, 1)
        self.assertIn("NOT MEASURED", row(text, "list/scalar/a"))

    def test_skipped_entry_is_a_note(self):
        cur = doc(("fast/scalar/a", 1_000_000))
        cur["entries"].append({"id": "list/scalar/a", "skipped": "valgrind cannot run it"})
        code, text = compare(BASE, cur)
        self.assertEqual(code, 0)
        self.assertIn("skipped", row(text, "list/scalar/a"))
        self.assertIn("list/scalar/a: skipped: valgrind cannot run it", text)

    def test_new_entry_is_a_note(self):
        cur = doc(("fast/scalar/a", 1_000_000), ("list/scalar/a", 50_000_000),
                  ("new/scalar/a", 5))
        code, text = compare(BASE, cur)
        self.assertEqual(code, 0)
        self.assertIn("new/scalar/a: not in the baseline", text)

    def test_guess_change_and_toolchain_change_are_notes(self):
        cur = doc(("fast/scalar/a", 1_000_000, 1_001_000, 11), ("list/scalar/a", 50_000_000),
                  build={"compiler": "cc 13", "flags": "-O3 -g"})
        code, text = compare(BASE, cur)
        self.assertEqual(code, 0)
        self.assertIn("guesses 10 -> 11", text)
        self.assertIn("toolchain differs (compiler)", text)

    def test_table_is_aligned_markdown(self):
        _, text = compare(BASE, BASE)
        table = [l for l in text.splitlines() if l.startswith("|")]
        self.assertEqual(len({len(l) for l in table}), 1, table)
        self.assertRegex(table[1], r"^\|-+\|-+:\|")  # entry left, numbers right


class Files(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_compare_command_exit_codes(self):
        b = self.write("b.json", json.dumps(BASE))
        c = self.write("c.json", json.dumps(doc(("fast/scalar/a", 2_000_000),
                                                ("list/scalar/a", 50_000_000))))
        bad = self.write("bad.json", json.dumps({"format": "other"}))
        quiet = io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = quiet
        try:
            self.assertEqual(pc.main(["compare", b, b]), 0)
            self.assertEqual(pc.main(["compare", b, c]), 1)
            self.assertEqual(pc.main(["compare", b, c, "--threshold", "150"]), 0)
            self.assertEqual(pc.main(["compare", b, bad]), 2)
            self.assertEqual(pc.main(["compare", b, os.path.join(self.dir, "none")]), 2)
        finally:
            sys.stdout, sys.stderr = saved

    def test_stale_slice_is_detected(self):
        data = self.write("d.txt", "# header\n" + "1" * 81 + "\n" + "2" * 81 + "\n")
        entry = {"id": "x", "dataset": data, "puzzles": 1,
                 "slice_sha256": pc.slice_sha256(data, 1)}
        pc.check_workload([entry])  # unchanged: no error
        self.write("d.txt", "# another header\n" + "1" * 81 + "\n" + "3" * 81 + "\n")
        pc.check_workload([entry])  # comments and lines past the slice do not matter
        self.write("d.txt", "3" * 81 + "\n")
        with self.assertRaises(pc.PerfError):
            pc.check_workload([entry])
        os.remove(data)
        with self.assertRaises(pc.PerfError):
            pc.check_workload([entry])

    def test_callgrind_parser_sums_inclusive_calls(self):
        profile = self.write("cg.out", "\n".join([
            "version: 1", "creator: callgrind-3.19.0", "positions: line", "events: Ir",
            "summary: 5000",
            "fl=driver.c", "fn=main", "10 100",
            "cfl=solver.c", "cfn=sb_solve", "calls=3 50", "12 3000",
            "cfn=sb_reader_next", "calls=4 70", "13 400",
            "fn=other", "20 5",
            "cfn=sb_solve", "calls=1 50", "21 700",
            "fl=solver.c", "fn=sb_solve", "50 3700",
            "totals: 5000", ""]))
        self.assertEqual(pc.parse_callgrind(profile), (3700, 5000))
        self.assertEqual(pc.parse_callgrind_calls(profile), (3700, 4, 5000))  # 3 + 1 calls
        self.assertEqual(pc.parse_callgrind_calls(profile, "sb_reader_next"), (400, 4, 5000))
        self.assertEqual(pc.parse_callgrind_calls(profile, "absent"), (0, 0, 5000))
        profile2 = self.write("cg2.out", "positions: instr line\nevents: Ir Dr\n"
                              "fn=main\ncfn=sb_solve\ncalls=1 0x10 5\n0x20 6 900 40\n"
                              "totals: 1000 50\n")
        self.assertEqual(pc.parse_callgrind(profile2), (900, 1000))
        with self.assertRaises(pc.PerfError):
            pc.parse_callgrind(self.write("cg3.out", "events: Ir\n"))


class CompareIr(unittest.TestCase):
    """scripts/compare_ir.py's table: counts joined with the timed medians."""

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
            with self.assertRaises(pc.PerfError):
                cir.write_slice(src, 3, out)


class MannWhitney(unittest.TestCase):
    def test_textbook_example(self):
        # U of x = 17 of 20 pairs; exact two-sided p = 2 * 7/126.
        u, p = pc.mann_whitney_u([19, 22, 16, 29, 24], [20, 11, 17, 12])
        self.assertEqual(u, 17)
        self.assertAlmostEqual(p, 14 / 126, places=12)

    def test_complete_separation(self):
        x = [float(i) for i in range(10)]
        y = [float(i) for i in range(10, 20)]
        u, p = pc.mann_whitney_u(x, y)
        self.assertEqual(u, 0)
        self.assertAlmostEqual(p, 2 / math.comb(20, 10), places=15)

    def test_identical_samples_with_ties(self):
        u, p = pc.mann_whitney_u([5.0] * 6, [5.0] * 6)
        self.assertEqual((u, p), (18, 1.0))

    def test_normal_approximation_agrees_roughly(self):
        x = [1.0, 2.5, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0]
        y = [4.5, 5.0, 6.5, 7.5, 8.0, 9.0, 9.5, 10.0]
        _, p = pc.mann_whitney_u(x, y)  # ties: normal approximation
        self.assertTrue(0.005 < p < 0.05, p)

    def test_distribution_counts_every_interleaving(self):
        for n1, n2 in ((1, 1), (3, 4), (5, 5)):
            counts = pc.u_distribution(n1, n2)
            self.assertEqual(sum(counts), math.comb(n1 + n2, n1))
            self.assertEqual(counts, counts[::-1])  # symmetric under the null


if __name__ == "__main__":
    runner = unittest.TextTestRunner(verbosity=1, stream=sys.stdout)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__]))
    failed = len(result.failures) + len(result.errors)
    print("perf-check comparator: %d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(0 if result.wasSuccessful() else 1)
