#!/usr/bin/env python3
"""tests/perf/test_gate.py — the comparator of sbperf.gate (`make perf-check`) on synthetic
inputs.

Runs in well under a second with no valgrind: baseline/current pairs built here exercise
the threshold rule, the table, the notes, the command's exit codes and stale-workload
detection. tests/perf/real_check.sh covers real callgrind runs.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_gate.py
"""

import io
import json
import os
import sys
import tempfile
import unittest

from sbperf import gate, measure


def doc(*entries, build=None):
    """Returns a measurement document with the given (id, solve_ir[, total_ir, guesses])."""
    out = []
    for e in entries:
        eid, solve = e[0], e[1]
        total = e[2] if len(e) > 2 else solve + 1000
        guesses = e[3] if len(e) > 3 else 10
        out.append({"id": eid, "puzzles": 100, "solve_ir": solve, "total_ir": total,
                    "guesses": guesses})
    return {"format": gate.FORMAT, "build": build or {"compiler": "cc 12", "flags": "-O3 -g"},
            "entries": out}


def compare(base, cur, threshold=2.0):
    """Returns (exit code, printed text) of the comparator."""
    buf = io.StringIO()
    code = gate.compare(base, cur, threshold, out=buf)
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

    def test_a_baseline_made_with_only_misses_nothing_else(self):
        planned = [("fast", "avx2", "d/a.txt"), ("fast", "sse4", "d/a.txt"),
                   ("list", "scalar", "d/a.txt")]
        known = {"fast/avx2/a"}
        self.assertEqual(gate.unbaselined(planned, known, ["fast:avx2"]), [])
        self.assertEqual(gate.unbaselined(planned, set(), ["fast:avx2"]), ["fast/avx2/a"])
        self.assertEqual(gate.unbaselined(planned, known, None),
                         ["fast/sse4/a", "list/scalar/a"])

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


    def test_a_document_reviews_as_one_entry_per_line(self):
        text = gate.dumps(BASE)
        self.assertEqual(json.loads(text), BASE)
        self.assertEqual(sum(1 for line in text.splitlines() if '"id":' in line), 2)


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
            self.assertEqual(gate.main(["compare", b, b]), 0)
            self.assertEqual(gate.main(["compare", b, c]), 1)
            self.assertEqual(gate.main(["compare", b, c, "--threshold", "150"]), 0)
            self.assertEqual(gate.main(["compare", b, bad]), 2)
            self.assertEqual(gate.main(["compare", b, os.path.join(self.dir, "none")]), 2)
        finally:
            sys.stdout, sys.stderr = saved

    def test_stale_slice_is_detected(self):
        data = self.write("d.txt", "# header\n" + "1" * 81 + "\n" + "2" * 81 + "\n")
        entry = {"id": "x", "dataset": data, "puzzles": 1,
                 "slice_sha256": measure.slice_sha256(data, 1)}
        gate.check_workload([entry])  # unchanged: no error
        self.write("d.txt", "# another header\n" + "1" * 81 + "\n" + "3" * 81 + "\n")
        gate.check_workload([entry])  # comments and lines past the slice do not matter
        self.write("d.txt", "3" * 81 + "\n")
        with self.assertRaises(measure.PerfError):
            gate.check_workload([entry])
        os.remove(data)
        with self.assertRaises(measure.PerfError):
            gate.check_workload([entry])


if __name__ == "__main__":
    unittest.main(verbosity=1)
