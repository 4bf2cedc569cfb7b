#!/usr/bin/env python3
"""tests/perf/test_history_schema.py — bench/history.schema.json and its validator
(scripts/json_schema.py), plus the pure parts of scripts/perf_history.py (the plan from a
baseline, the cache key, the chart's reference). Part of `make test`; runs in well under a
second and needs neither valgrind nor git."""

import copy
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
import json_schema  # noqa: E402
import perf_history as ph  # noqa: E402

with open(os.path.join(ROOT, "bench", "history.schema.json"), encoding="utf-8") as f:
    SCHEMA = json.load(f)

OK = {"format": "sudokubench-perf-history/1", "commit": "0123456789abcdef" * 2 + "01234567",
      "date": "2026-11-24T05:16:52+00:00", "subject": "a commit", "status": "ok",
      "entry": "fast/scalar/17_clue_2000", "function": "sb_solve", "pipeline": "fast",
      "simd": "scalar", "dataset": "datasets/samples/17_clue_2000.txt", "puzzles": 64,
      "slice_sha256": "ab" * 32, "solve_ir": 2668596, "total_ir": 3000000,
      "ir_per_puzzle": 41696.8, "guesses": 21, "solved": 64, "unsolvable": 0, "multiple": 0,
      "wall_s": 0.01, "toolchain": {"cc": "cc", "compiler": "cc 12", "valgrind": "valgrind-3.19.0",
                                    "build": "make"},
      "toolchain_id": "a8ec116902e2", "measured_at": "2026-11-24T05:25:08Z", "host": "cpu"}


def errors(rec):
    return json_schema.validate(rec, SCHEMA)


class Schema(unittest.TestCase):
    def test_a_measured_record_is_valid(self):
        self.assertEqual(errors(OK), [])

    def test_many_entries_and_absent_records(self):
        rec = dict(OK, entry="fast/avx2/top1465@sb_solve_many", function="sb_solve_many")
        self.assertEqual(errors(rec), [])
        absent = {k: v for k, v in OK.items() if k not in (
            "solve_ir", "total_ir", "ir_per_puzzle", "guesses", "solved", "unsolvable",
            "multiple", "wall_s")}
        absent.update(status="absent", reason="no such pipeline")
        self.assertEqual(errors(absent), [])
        del absent["reason"]
        self.assertTrue(any("'reason'" in e for e in errors(absent)))

    def test_a_commit_that_does_not_build(self):
        rec = {k: OK[k] for k in ("format", "commit", "date", "subject", "toolchain",
                                  "toolchain_id", "measured_at")}
        rec.update(entry=None, status="build_failed", reason="make exited 2")
        self.assertEqual(errors(rec), [])
        rec["entry"] = "fast/scalar/x"
        self.assertTrue(errors(rec))

    def test_missing_and_wrong_fields_are_reported(self):
        for key in ("commit", "entry", "toolchain", "date"):
            rec = dict(OK)
            del rec[key]
            self.assertTrue(any(repr(key) in e for e in errors(rec)), key)
        for key, value in (("solve_ir", "12"), ("solve_ir", 0), ("puzzles", 1.5),
                           ("commit", "abc"), ("status", "great"), ("simd", "avx9"),
                           ("guesses", True), ("date", "yesterday")):
            self.assertTrue(errors(dict(OK, **{key: value})), (key, value))
        self.assertTrue(errors(dict(OK, extra=1)))
        rec = copy.deepcopy(OK)
        rec["toolchain"]["cc"] = 5
        self.assertTrue(errors(rec))
        rec = dict(OK)
        del rec["solve_ir"]  # an ok record must carry its count
        self.assertTrue(any("'solve_ir'" in e for e in errors(rec)))

    def test_the_validator_refuses_keywords_it_does_not_implement(self):
        with self.assertRaises(ValueError):
            json_schema.validate(1, {"multipleOf": 2})

    def test_validator_keywords(self):
        v = json_schema.validate
        self.assertEqual(v([1, 2], {"type": "array", "items": {"type": "integer"}}), [])
        self.assertTrue(v([1, "2"], {"type": "array", "items": {"type": "integer"}}))
        self.assertEqual(v(3, {"anyOf": [{"type": "string"}, {"minimum": 2}]}), [])
        self.assertTrue(v(1, {"oneOf": [{"minimum": 0}, {"maximum": 5}]}))
        self.assertTrue(v("x", {"not": {"type": "string"}}))
        self.assertEqual(v(None, {"type": ["string", "null"], "pattern": "^a"}), [])


class Plan(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
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

    def test_reference_of_the_chart(self):
        plan = ph.load_plan(self.tmp, self.files, 0, None)
        self.assertEqual(ph.reference(plan[0], [None, {"ir_per_puzzle": 7.0}]),
                         (100.0, "baseline"))
        capped = ph.load_plan(self.tmp, self.files, 4, None)
        self.assertEqual(ph.reference(capped[0], [None, {"ir_per_puzzle": 7.0}]),
                         (7.0, "first commit"))

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


class MakeEnvironment(unittest.TestCase):
    def test_an_outer_make_does_not_leak_into_a_commit_build(self):
        saved = dict(os.environ)
        try:
            os.environ.update(MAKEFLAGS=" -- BUILD=build/x FOO=1", BUILD="build/x", FOO="1",
                              CFLAGS="-O0", MAKELEVEL="1", KEEP="yes")
            env = ph.clean_make_env()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        for k in ("MAKEFLAGS", "BUILD", "FOO", "CFLAGS", "MAKELEVEL"):
            self.assertNotIn(k, env)
        self.assertEqual(env["KEEP"], "yes")


if __name__ == "__main__":
    unittest.main(verbosity=1)
