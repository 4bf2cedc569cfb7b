#!/usr/bin/env python3
"""tests/perf/test_json_schema.py — sbperf.json_schema, the stdlib validator, and
bench/history.schema.json, the history's record format, held to each other: valid records
pass, each kind of wrong record is reported, and the validator refuses keywords it does not
implement. Part of `make test` (test-history); well under a second.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_json_schema.py
"""

import copy
import io
import json
import os
import sys
import tempfile
import unittest

from sbperf import json_schema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCHEMA_PATH = os.path.join(ROOT, "bench", "history.schema.json")
with open(SCHEMA_PATH, encoding="utf-8") as f:
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


    def test_the_command_checks_every_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "h.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(OK) + "\n\n" + json.dumps(OK) + "\n")
            out = io.StringIO()
            saved, sys.stdout = sys.stdout, out
            try:
                self.assertEqual(json_schema.main([SCHEMA_PATH, path]), 0)
                with open(path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(dict(OK, status="great")) + "\n")
                self.assertEqual(json_schema.main([SCHEMA_PATH, path]), 1)
            finally:
                sys.stdout = saved
            self.assertIn("h.jsonl:4:", out.getvalue())


if __name__ == "__main__":
    unittest.main(verbosity=1)
