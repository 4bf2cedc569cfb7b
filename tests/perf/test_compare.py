#!/usr/bin/env python3
"""tests/perf/test_compare.py — sbperf.compare's tables (`make compare`) on synthetic runs:
medians over the rounds, and each level divided by the right tdoku build. Part of `make test`
(test-perf); no solver runs, no timing, no machine dependence.

What it holds sbperf.compare to:
  - avx512 and avx512bw are divided by the faster (median) of tdoku native and tdoku avx512,
    per corpus, and the peer column names that build (what -march=native makes of a CPU
    depends on the compiler, so native alone could be the weaker peer);
  - with only tdoku native measured, native is the peer;
  - avx2 by tdoku avx2, sse4 and scalar by tdoku sse4.2, never by a faster build;
  - the median is over the rounds (an outlier round does not move it);
  - the auto check names every other level of the architecture that ran faster than auto's
    (avx512 too when auto chose avx512bw, as on AMD Zen 4).

Run alone: PYTHONPATH=scripts python3 tests/perf/test_compare.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest


def tdoku_csv(pps):
    """One tdoku -c 1 row: compiler id, version, flags, file, solver, then four numbers."""
    return "GNU,12.2.0,-O3,file,tdoku,%.1f,%.3f,0.0,5.0\n" % (pps, 1e6 / pps)


def bench_json(pps, level):
    """One sudokubench bench --json document with its first row."""
    return json.dumps({
        "build": {"compiler": "gcc 12.2.0", "flags": "-O3"},
        "rows": [{"puzzles_per_sec": pps, "usec_per_puzzle": 1e6 / pps, "no_guess_pct": 0.0,
                  "guesses_per_puzzle": 5.0, "puzzles": 100, "seconds": 1.0, "simd": level}]})


class CompareTables(unittest.TestCase):
    def run_compare(self, rates, auto="avx512"):
        """rates: {(corpus, kind, level): [pps per round]}; returns sbperf.compare's medians as
        {(corpus, kind, level): median row}; self.auto gets the auto checks, self.md the
        Markdown report."""
        with tempfile.TemporaryDirectory() as raw:
            with open(os.path.join(raw, "meta.tsv"), "w") as f:
                f.write("auto\t%s\nrounds\t3\nseconds\t1\n" % auto)
            with open(os.path.join(raw, "runs.tsv"), "w") as runs:
                for (corpus, kind, level), per_round in rates.items():
                    for r, pps in enumerate(per_round, 1):
                        out = os.path.join(raw, "r%d-%s-%s-%s" % (r, corpus, kind, level))
                        with open(out, "w") as f:
                            f.write(tdoku_csv(pps) if kind == "tdoku" else bench_json(pps, level))
                        runs.write("%d\t/data/%s\t%s\t%s\t%s\n" % (r, corpus, kind, level, out))
            js, md = os.path.join(raw, "out.json"), os.path.join(raw, "out.md")
            done = subprocess.run([sys.executable, "-m", "sbperf.compare", "--raw", raw,
                                   "--json", js, "--md", md], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(js) as f:
                doc = json.load(f)
            with open(md) as f:
                self.md = f.read()
        self.auto = {c["corpus"]: c for c in doc["auto"]}
        return {(m["dataset"], m["solver"], m["level"]): m for m in doc["medians"]}

    def assert_peers(self, medians, expected):
        """Each (corpus, sudokubench level, peer, ratio) of expected is what medians hold."""
        for corpus, level, peer, ratio in expected:
            row = medians[(corpus, "sudokubench", level)]
            self.assertEqual(row["peer"], peer, (corpus, level))
            self.assertAlmostEqual(row["ratio"], ratio, msg=(corpus, level))

    def test_avx512_levels_take_the_faster_of_native_and_avx512(self):
        m = self.run_compare({
            # corpus a: tdoku's AVX-512 build is the faster
            ("a", "tdoku", "native"): [100.0, 101.0, 99.0],
            ("a", "tdoku", "avx512"): [150.0, 1.0, 160.0],   # median 150: the outlier is out
            ("a", "tdoku", "avx2"): [90.0, 90.0, 90.0],
            ("a", "sudokubench", "avx512"): [600.0, 600.0, 600.0],
            ("a", "sudokubench", "avx512bw"): [450.0, 450.0, 450.0],
            ("a", "sudokubench", "avx2"): [270.0, 270.0, 270.0],
            # corpus b: native is the faster
            ("b", "tdoku", "native"): [200.0, 200.0, 200.0],
            ("b", "tdoku", "avx512"): [180.0, 180.0, 180.0],
            ("b", "tdoku", "sse4.2"): [100.0, 100.0, 100.0],
            ("b", "sudokubench", "avx512"): [500.0, 500.0, 500.0],
            ("b", "sudokubench", "sse4"): [150.0, 150.0, 150.0],
            ("b", "sudokubench", "scalar"): [120.0, 120.0, 120.0],
        })
        self.assertEqual(m[("a", "tdoku", "avx512")]["puzzles_per_sec"], 150.0)
        self.assert_peers(m, [("a", "avx512", "tdoku avx512", 4.0),
                              ("a", "avx512bw", "tdoku avx512", 3.0),
                              ("a", "avx2", "tdoku avx2", 3.0),
                              ("b", "avx512", "tdoku native", 2.5),
                              # sse4 and scalar against sse4.2 though faster builds were measured
                              ("b", "sse4", "tdoku sse4.2", 1.5),
                              ("b", "scalar", "tdoku sse4.2", 1.2)])

    def test_native_alone_is_the_peer_and_a_missing_peer_gives_no_ratio(self):
        m = self.run_compare({
            ("a", "tdoku", "native"): [100.0, 100.0, 100.0],
            ("a", "sudokubench", "avx512"): [300.0, 300.0, 300.0],
            ("a", "sudokubench", "avx2"): [200.0, 200.0, 200.0],  # no tdoku avx2 measured
        })
        self.assert_peers(m, [("a", "avx512", "tdoku native", 3.0)])
        self.assertIsNone(m[("a", "sudokubench", "avx2")]["peer"])
        self.assertIsNone(m[("a", "sudokubench", "avx2")]["ratio"])

    def test_the_plugin_row_is_divided_by_tdoku_native_alone(self):
        m = self.run_compare({
            ("a", "tdoku", "native"): [100.0, 100.0, 100.0],
            ("a", "tdoku", "avx512"): [200.0, 200.0, 200.0],  # faster, but not the plug-in's build
            ("a", "tdoku-plugin", "native"): [95.0, 96.0, 20.0],  # median 95
            ("a", "sudokubench", "avx512"): [300.0, 300.0, 300.0],
        })
        row = m[("a", "tdoku-plugin", "native")]
        self.assertEqual(row["peer"], "tdoku native")
        self.assertAlmostEqual(row["ratio"], 0.95)
        # the plug-in row is no peer of a sudokubench level
        self.assert_peers(m, [("a", "avx512", "tdoku avx512", 1.5)])

    def test_auto_is_checked_against_every_other_level(self):
        self.run_compare({
            ("a", "sudokubench", "avx512"): [310.0, 310.0, 310.0],
            ("a", "sudokubench", "avx512bw"): [300.0, 300.0, 300.0],
            ("a", "sudokubench", "avx2"): [200.0, 200.0, 200.0],
            ("b", "sudokubench", "avx512"): [290.0, 290.0, 290.0],
            ("b", "sudokubench", "avx512bw"): [300.0, 300.0, 300.0],
            ("b", "sudokubench", "avx2"): [200.0, 200.0, 200.0],
        }, auto="avx512bw")
        a, b = self.auto["/data/a"], self.auto["/data/b"]
        self.assertEqual(sorted(a["others"]), ["avx2", "avx512"])
        self.assertFalse(a["at_least_as_fast"])
        self.assertEqual(a["faster"], ["avx512"])
        self.assertTrue(b["at_least_as_fast"])
        self.assertIn("- a: NO: slower than avx512", self.md)
        self.assertIn("- b: yes, at least as fast as every other level", self.md)


if __name__ == "__main__":
    unittest.main(verbosity=1)
