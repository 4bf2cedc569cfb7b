#!/usr/bin/env python3
"""tests/perf/test_history.py — the pure parts of sbperf.history: the plan from the
baselines (entry keys, slices divided and capped), the history file's cache key, and how the
progress lines name the slices. Part of `make test` (test-history); needs neither valgrind
nor git. tests/perf/test_history.sh runs perf-history and perf-bisect end to end.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_history.py
"""

import argparse
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

from sbperf import history as ph


class Plan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        os.makedirs(os.path.join(self.tmp, "bench"))
        with open(os.path.join(self.tmp, "d.txt"), "w") as f:
            f.write("# comment\n" + "\n".join("%081d" % i for i in range(10)) + "\n")
        base = {"format": "sudokubench-perf-baseline/1", "function": "sb_solve", "entries": [
            {"id": "fast/scalar/d", "pipeline": "fast", "simd": "scalar", "dataset": "d.txt",
             "puzzles": 8, "solve_ir": 800},
            {"id": "list/scalar/d", "pipeline": "list", "simd": "scalar", "dataset": "d.txt",
             "puzzles": 2, "solve_ir": 900}]}
        many = dict(base, function="sb_solve_many", entries=base["entries"][:1])
        for name, doc in (("b.json", base), ("m.json", many)):
            with open(os.path.join(self.tmp, "bench", name), "w") as f:
                json.dump(doc, f)
        self.files = ["bench/b.json", "bench/m.json"]

    def test_entries_keys_and_slices(self):
        plan = ph.load_plan(self.tmp, self.files, 0, None)
        self.assertEqual([p["entry"] for p in plan],
                         ["fast/scalar/d", "list/scalar/d", "fast/scalar/d@sb_solve_many"])
        self.assertEqual(plan[0]["baseline_ir"], 800)
        capped = ph.load_plan(self.tmp, self.files, 4, "fast:scalar")
        self.assertEqual([(p["entry"], p["puzzles"]) for p in capped],
                         [("fast/scalar/d", 4), ("fast/scalar/d@sb_solve_many", 4)])
        self.assertIsNone(capped[0]["baseline_ir"])  # another slice: no baseline figure
        self.assertNotEqual(capped[0]["slice_sha256"], plan[0]["slice_sha256"])
        divided = ph.load_plan(self.tmp, self.files, 0, None, divide=3)
        self.assertEqual([p["puzzles"] for p in divided], [3, 1, 3])  # ceil(8/3), ceil(2/3)

    def test_a_plugin_baseline_is_refused(self):
        # A plug-in's baseline (make perf-baseline PERF_PLUGIN=...) gates outside code, which
        # the repository's commits do not change: the plan says so instead of failing later.
        with open(os.path.join(self.tmp, "bench", "p.json"), "w") as f:
            json.dump({"format": "sudokubench-perf-baseline/1", "function": "sb_engine_solve",
                       "plugin": "naive", "entries": [
                           {"id": "naive/plugin/d", "pipeline": "naive", "simd": "plugin",
                            "dataset": "d.txt", "puzzles": 2, "solve_ir": 900}]}, f)
        with self.assertRaisesRegex(ph.HistoryError, "bench/p.json is the baseline of plug-in "
                                    "'naive': the history measures this repository's commits"):
            ph.load_plan(self.tmp, ["bench/p.json"], 0, None)

    def test_the_cache_key(self):
        plan = ph.load_plan(self.tmp, self.files, 0, None)
        store = ph.Store(os.path.join(self.tmp, "h.jsonl"))
        sha = "f" * 40
        rec = dict(ph.item_fields(plan[0]), commit=sha, toolchain_id="t1", status="ok")
        store.append(rec)
        self.assertIsNotNone(store.find(sha, "t1", plan[0]))
        self.assertIsNone(store.find(sha, "t2", plan[0]))  # another toolchain
        self.assertIsNone(store.find(sha, "t1", plan[1]))  # another entry
        other = ph.load_plan(self.tmp, self.files, 4, None)[0]
        self.assertIsNone(store.find(sha, "t1", other))  # another slice
        store.append({"commit": sha, "toolchain_id": "t1", "entry": None,
                      "status": "build_failed"})
        self.assertEqual(store.find(sha, "t1", plan[1])["status"], "build_failed")
        self.assertEqual(len(ph.read_records(store.path)), 2)


class Options(unittest.TestCase):
    def words(self, *argv):
        p = argparse.ArgumentParser()
        ph.add_shared_options(p)
        return ph.slice_words(p.parse_args(list(argv)))

    def test_the_slices_as_the_progress_lines_name_them(self):
        self.assertEqual(self.words(), "the baseline's slices")
        self.assertEqual(self.words("--divide", "4"), "1/4 of each baseline slice")
        self.assertEqual(self.words("--divide", "4", "--puzzles", "9"),
                         "1/4 of each baseline slice and at most 9 puzzles")


class Validate(unittest.TestCase):
    def test_the_validate_command_reads_the_schema_beside_the_baselines(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.jsonl")
            with open(path, "w") as f:
                f.write('{"format": "sudokubench-perf-history/1"}\n')
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(ph.main(["validate", path]), 1)
                os.remove(path)
                self.assertEqual(ph.main(["validate", path]), 0)  # no file: no records
        self.assertIn("h.jsonl: record 1: $: required property 'commit' is missing",
                      out.getvalue())
        self.assertIn("perf-history: 0 records, 0 schema errors", out.getvalue())


if __name__ == "__main__":
    unittest.main(verbosity=1)
