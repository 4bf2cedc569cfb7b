#!/usr/bin/env python3
"""tests/perf/test_avx512.py — the decision rule of sbperf.avx512, the timed gate of the
AVX-512 kernel: a regression needs both a significant Mann-Whitney U (p < alpha) and a median
slowdown above the minimum effect. Part of `make test` (test-perf); no timing, no machine
dependence (the samples are made here).

Run alone: PYTHONPATH=scripts python3 tests/perf/test_avx512.py
"""

import contextlib
import io
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

from sbperf import avx512


class Decision(unittest.TestCase):
    base = [100.0 + i * 0.1 for i in range(20)]

    def test_no_change_passes(self):
        verdict, p, d = avx512.decide(self.base, list(self.base), 0.05, 3.0)
        self.assertEqual(verdict, "ok")

    def test_five_percent_slower_fails(self):
        head = [v * 1.05 for v in self.base]
        verdict, p, d = avx512.decide(self.base, head, 0.05, 3.0)
        self.assertEqual(verdict, "REGRESSION")
        self.assertAlmostEqual(d, 5.0, places=6)
        self.assertLess(p, 1e-6)

    def test_significant_but_small_passes(self):
        head = [v * 1.02 for v in self.base]  # p tiny, but 2% < the 3% minimum effect
        verdict, p, _ = avx512.decide(self.base, head, 0.05, 3.0)
        self.assertLess(p, 0.05)
        self.assertEqual(verdict, "ok")

    def test_large_but_not_significant_passes(self):
        base = [100, 140, 90, 150, 95, 145]
        head = [v * 1.05 for v in [140, 100, 150, 90, 145, 95]]
        verdict, p, d = avx512.decide(base, head, 0.05, 3.0)
        self.assertGreater(d, 3.0)
        self.assertGreater(p, 0.05)
        self.assertEqual(verdict, "ok")

    def test_faster_is_reported_not_failed(self):
        head = [v * 0.9 for v in self.base]
        verdict, _, _ = avx512.decide(self.base, head, 0.05, 3.0)
        self.assertEqual(verdict, "faster")


class Slices(unittest.TestCase):
    def test_the_slices_are_the_baselines_fast_ones(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "b.json")
            with open(path, "w") as f:
                json.dump({"format": "sudokubench-perf-baseline/1", "entries": [
                    {"pipeline": "fast", "simd": "scalar", "dataset": "x.txt", "puzzles": 8},
                    {"pipeline": "fast", "simd": "avx2", "dataset": "x.txt", "puzzles": 16},
                    {"pipeline": "fast", "simd": "scalar", "dataset": "a.txt", "puzzles": 4},
                    {"pipeline": "list", "simd": "scalar", "dataset": "l.txt", "puzzles": 2}]},
                    f)
            self.assertEqual(avx512.slices(path), [("a.txt", 4), ("x.txt", 16)])


class NotGated(unittest.TestCase):
    def test_a_cpu_without_avx512_passes_and_says_so(self):
        with tempfile.TemporaryDirectory() as d:
            driver = os.path.join(d, "driver")
            with open(driver, "w") as f:
                f.write("#!/bin/sh\necho '{\"pipeline\":\"fast\",\"generic\":0}'\n"
                        "echo '{\"simd\":\"scalar\",\"supported\":1}'\n"
                        "echo '{\"simd\":\"avx512\",\"supported\":0}'\n")
            os.chmod(driver, 0o755)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = avx512.main(["gate", "--head", driver, "--base", driver])
        self.assertEqual(code, avx512.EXIT_PASS)
        self.assertIn("NOT GATED: this CPU has no AVX-512 (levels scalar)", out.getvalue())

    def test_not_gated_is_published_as_a_skipped_case(self):
        with tempfile.TemporaryDirectory() as d:
            driver = os.path.join(d, "driver")
            with open(driver, "w") as f:
                f.write("#!/bin/sh\necho '{\"simd\":\"avx2\",\"supported\":1}'\n")
            os.chmod(driver, 0o755)
            summary, junit = os.path.join(d, "s.md"), os.path.join(d, "r/j.xml")
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = avx512.main(["gate", "--head", driver, "--base", driver, "--summary",
                                    summary, "--export", "junit:" + junit])
                bad = avx512.main(["gate", "--head", driver, "--export", "bmf:x.json"])
            with open(summary) as f:
                text = f.read()
            case = ET.parse(junit).getroot().find("testsuite/testcase")
        self.assertEqual((code, bad), (avx512.EXIT_PASS, avx512.EXIT_ERROR))
        self.assertIn("bad --export 'bmf:x.json': FORMAT:FILE with FORMAT one of junit",
                      err.getvalue())
        self.assertIn("### perf-check avx512 (timed): NOT GATED, exit code 0", text)
        self.assertIn("this CPU has no AVX-512 (levels avx2)", text)
        self.assertEqual(case.get("name"), "fast/avx512")
        self.assertIn("this CPU has no AVX-512", case.find("skipped").get("message"))


if __name__ == "__main__":
    unittest.main(verbosity=1)
