#!/usr/bin/env python3
"""tests/perf/test_report.py — sbperf.report, the history's charts and page: the reference
each entry is drawn around, the series per entry, the grouping by corpus and the names of
the lines, the tooltips, a corpus's table of changes, and the page and image drawn from a
made-up history (a chart per corpus, a tooltip per point, no script). Part of `make test`
(test-history); needs matplotlib (PYTHON), no valgrind or git (tests/perf/test_history.sh
draws from a real history and loads the page in Chromium).

Run alone: PYTHONPATH=scripts /usr/bin/python3 tests/perf/test_report.py
"""

import argparse
import os
import re
import tempfile
import unittest

from sbperf import charts, history, report

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


def entry(pipeline, simd, dataset, function="sb_solve"):
    """A plan item of an entry on datasets/samples/DATASET.txt, 100 puzzles."""
    key = "%s/%s/%s" % (pipeline, simd, dataset) + \
        ("" if function == "sb_solve" else "@" + function)
    return {"entry": key, "pipeline": pipeline, "simd": simd, "function": function,
            "dataset": "datasets/samples/%s.txt" % dataset, "puzzles": 100,
            "slice_sha256": "a" * 64, "baseline_ir": 100000, "baseline_rev": "f" * 40}


class Lines(unittest.TestCase):
    def test_corpus_and_line_names(self):
        many = entry("fast", "avx2", "top1465", "sb_solve_many")
        self.assertEqual(report.corpus(many), "top1465")
        self.assertEqual(report.line_label(many), "fast avx2 (sb_solve_many)")
        self.assertEqual(report.line_label(entry("list", "scalar", "top1465")), "list scalar")
        plugin = entry("naive", "plugin", "top1465", "sb_engine_solve")
        self.assertEqual(report.line_label(plugin), "plug-in naive")
        self.assertFalse(report.paired(plugin))  # a solid line, as the library's sb_solve
        self.assertTrue(report.paired(many))

    def test_grouped_by_corpus_in_first_seen_order(self):
        a, b, c = entry("fast", "scalar", "b"), entry("fast", "scalar", "a"), \
            entry("fast", "avx2", "b")
        groups = report.by_corpus([(a, 1, "x"), (b, 2, "y"), (c, 3, "z")])
        self.assertEqual([(n, [d[0]["entry"] for d in ds]) for n, ds in groups],
                         [("b", [a["entry"], c["entry"]]), ("a", [b["entry"]])])

    def test_the_tooltip_of_a_point(self):
        tip = report.tooltip(2, "2" * 40, ("2026-01-02T00:00:00+00:00", "a <b>"),
                             entry("fast", "avx2", "top1465"), {"ir_per_puzzle": 1050.4},
                             1000.0, "baseline")
        self.assertEqual(tip, "#2 2222222222 2026-01-02\na <b>\n"
                              "fast avx2: 1,050 Ir/puzzle, +5.04% vs baseline")


class Page(unittest.TestCase):
    def test_changes_against_the_reference_and_the_threshold(self):
        commits = ["1" * 40, "2" * 40, "3" * 40]
        infos = [("2026-01-01T00:00:00+00:00", "first"), ("2026-01-02T00:00:00+00:00", "a <b>"),
                 ("2026-01-03T00:00:00+00:00", "third")]
        ser = {FULL["entry"]: [{"ir_per_puzzle": 100.0}, {"ir_per_puzzle": 105.0},
                               {"ir_per_puzzle": 90.0}]}
        lines = [(dict(FULL, pipeline="fast", simd="scalar"), 100.0, "baseline")]
        page = report.table(commits, infos, lines, ser, 2.0)
        self.assertIn('<td title="100 Ir/puzzle">+0.00%</td>', page)
        self.assertIn('<td class="up" title="105 Ir/puzzle">+5.00%</td>', page)
        self.assertIn('<td class="down" title="90 Ir/puzzle">-10.00%</td>', page)
        self.assertIn("a &lt;b&gt;", page)  # subjects are escaped
        self.assertIn("<th>fast scalar<br><small>vs baseline: 100 Ir</small></th>", page)
        self.assertEqual(page.count("<tr>"), 4)  # the header and a row per commit


class Drawn(unittest.TestCase):
    def test_a_chart_per_corpus_with_a_tooltip_per_point(self):
        plan = [entry("fast", "scalar", "top1465"), entry("fast", "avx2", "top1465"),
                entry("fast", "scalar", "17_clue_2000"),
                entry("fast", "avx2", "17_clue_2000", "sb_solve_many")]
        commits = [str(i + 1) * 40 for i in range(4)]
        with tempfile.TemporaryDirectory() as d:
            store = history.Store(os.path.join(d, "h.jsonl"))
            for i, sha in enumerate(commits):
                for k, item in enumerate(plan):
                    if i == 2 and k == 1:
                        continue  # a gap: no record of this commit x entry
                    store.append({"commit": sha, "toolchain_id": "t1", "entry": item["entry"],
                                  "puzzles": 100, "slice_sha256": "a" * 64, "status": "ok",
                                  "ir_per_puzzle": 1000.0 + 10 * i, "date": "2026-01-0%d" % i,
                                  "subject": "subject <%d>" % i})
            args = argparse.Namespace(threshold=2.0, outdir=d)
            self.assertEqual(report.chart(d, commits, plan, store, "t1", args), 0)
            # named after the history file: h.jsonl draws h.png and h.html
            self.assertIsNone(charts.check(os.path.join(d, "h.png"), "history", 2))
            with open(os.path.join(d, "h.html"), encoding="utf-8") as f:
                page = f.read()
        self.assertEqual(page.count('<figure class="chart"><svg'), 2)
        self.assertEqual(page.count("<table>"), 2)
        self.assertNotIn("<script", page)
        self.assertNotIn("<img", page)
        svgs = re.findall(r"<svg.*?</svg>", page, re.S)
        # top1465: 2 lines x 4 commits less the gap; 17_clue_2000: 2 lines x 4 commits
        self.assertEqual([s.count("<title>") for s in svgs], [7, 8])
        # the reference is the baseline's 100,000 Ir on 100 puzzles
        tip = "<title>#2 2222222222 2026-01-01\nsubject &lt;1&gt;\nfast avx2: 1,010 " \
              "Ir/puzzle, +1.00% vs baseline</title>"
        self.assertTrue(tip in svgs[0], "no %r in the first chart" % tip)
        self.assertTrue("fast avx2 (sb_solve_many)" in svgs[1], "the legend names the function")
        ids = re.findall(r'\bid="([^"]+)"', page)
        self.assertEqual(len(ids), len(set(ids)))  # the two charts share no id


if __name__ == "__main__":
    unittest.main(verbosity=1)
