#!/usr/bin/env python3
"""tests/perf/test_report.py — sbperf.report, the history's chart and page: the reference
each entry is drawn around, the series per entry, and the page's table of changes. Part of
`make test` (test-history); no gnuplot, valgrind or git (tests/perf/test_history.sh draws
a real chart).

Run alone: PYTHONPATH=scripts python3 tests/perf/test_report.py
"""

import argparse
import os
import tempfile
import unittest

from sbperf import history, report

# Two entries as sbperf.history.load_plan makes them: the first on the baseline's own slice
# (8 puzzles, 800 Ir), the second on a reduced one (no baseline figure applies).
FULL = {"entry": "fast/scalar/d", "puzzles": 8, "slice_sha256": "a" * 64, "baseline_ir": 800,
        "baseline_rev": "b" * 40}
CAPPED = dict(FULL, puzzles=4, slice_sha256="c" * 64, baseline_ir=None)


class Reference(unittest.TestCase):
    def test_reference_of_the_chart(self):
        self.assertEqual(report.reference(FULL, [None, {"ir_per_puzzle": 7.0}]),
                         (100.0, "baseline"))
        self.assertEqual(report.reference(CAPPED, [None, {"ir_per_puzzle": 7.0}]),
                         (7.0, "first commit"))
        self.assertEqual(report.reference(CAPPED, [None, None]), (None, None))

    def test_the_baseline_revision_measured_on_the_same_slice(self):
        with tempfile.TemporaryDirectory() as d:
            store = history.Store(os.path.join(d, "h.jsonl"))
            store.append({"commit": "b" * 40, "toolchain_id": "t1", "entry": CAPPED["entry"],
                          "puzzles": 4, "slice_sha256": "c" * 64, "status": "ok",
                          "ir_per_puzzle": 90.0})
            self.assertEqual(report.reference(CAPPED, [{"ir_per_puzzle": 7.0}], store, "t1"),
                             (90.0, "baseline rev bbbbbbb"))
            # another toolchain's record is not a reference
            self.assertEqual(report.reference(CAPPED, [{"ir_per_puzzle": 7.0}], store, "t2"),
                             (7.0, "first commit"))
            ok = {"commit": "1" * 40, "toolchain_id": "t1", "entry": FULL["entry"],
                  "puzzles": 8, "slice_sha256": "a" * 64, "status": "ok",
                  "ir_per_puzzle": 101.0}
            store.append(ok)
            store.append(dict(ok, commit="2" * 40, status="failed"))
            self.assertEqual(report.series(["1" * 40, "2" * 40, "3" * 40], [FULL], store, "t1"),
                             {FULL["entry"]: [ok, None, None]})


class Page(unittest.TestCase):
    def test_changes_against_the_reference_and_the_threshold(self):
        commits = ["1" * 40, "2" * 40, "3" * 40]
        infos = [("2026-01-01T00:00:00+00:00", "first"), ("2026-01-02T00:00:00+00:00", "a <b>"),
                 ("2026-01-03T00:00:00+00:00", "third")]
        ser = {FULL["entry"]: [{"ir_per_puzzle": 100.0}, {"ir_per_puzzle": 105.0},
                               {"ir_per_puzzle": 90.0}]}
        drawn = [(FULL, "e00.dat", 100.0, "baseline")]
        args = argparse.Namespace(threshold=2.0)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "history.html")
            report.write_html(path, commits, infos, drawn, ser, args, "t1")
            with open(path, encoding="utf-8") as f:
                page = f.read()
        self.assertIn('<td title="100 Ir/puzzle">+0.00%</td>', page)
        self.assertIn('<td class="up" title="105 Ir/puzzle">+5.00%</td>', page)
        self.assertIn('<td class="down" title="90 Ir/puzzle">-10.00%</td>', page)
        self.assertIn("a &lt;b&gt;", page)  # subjects are escaped
        self.assertIn("<small>vs baseline</small>", page)


if __name__ == "__main__":
    unittest.main(verbosity=1)
