#!/usr/bin/env python3
"""tests/perf/test_gate.py — the comparator of sbperf.gate (`make perf-check`) on synthetic
inputs.

Runs in well under a second with no valgrind: baseline/current pairs built here exercise
the threshold rule, the table, the notes, the command's exit codes, stale-workload
detection, and what the gate publishes for CI: the Markdown summary, the count exports
(checked against the schemas bench's exports are held to) and the JUnit report.
tests/perf/real_check.sh covers real callgrind runs.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_gate.py
"""

import io
import json
import os
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from sbperf import gate, json_schema, measure

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


class Plugin(unittest.TestCase):
    """What a plug-in's gate adds without running anything (tests/perf/plugin_check.sh runs
    it under callgrind)."""

    def test_entries_are_named_after_the_plugin_one_per_dataset(self):
        planned = gate.planned_entries("no-driver-needed", ["a/x.txt", "b/y.txt"], "mine")
        self.assertEqual(planned, [("mine", "plugin", "a/x.txt"), ("mine", "plugin", "b/y.txt")])
        self.assertEqual([gate.entry_id(*t) for t in planned], ["mine/plugin/x", "mine/plugin/y"])
        self.assertEqual(gate.entry_name("mine/plugin/x", measure.PLUGIN_FUNCTION),
                         "mine/plugin/x@sb_engine_solve")
        self.assertEqual(measure.driver_cmd("d", "mine", "plugin", 8, "a/x.txt", "/p/mine.so"),
                         ["d", "--plugin", "/p/mine.so", "8", "a/x.txt"])
        self.assertEqual(measure.driver_cmd("d", "fast", "avx2", 8, "a/x.txt"),
                         ["d", "fast", "avx2", "8", "a/x.txt"])

    def test_a_baseline_gates_one_subject(self):
        lib, mine = dict(BASE, function="sb_solve"), dict(BASE, function="sb_engine_solve",
                                                          plugin="mine")
        gate.same_subject("b.json", lib, None, "hint")
        gate.same_subject("p.json", mine, "mine", "hint")
        for path, doc_, plugin, said in (
                ("b.json", lib, "mine", "b.json holds the baseline of the library's sb_solve, "
                 "not of plug-in 'mine': hint"),
                ("p.json", mine, None, "p.json holds the baseline of plug-in 'mine', not of "
                 "the library: hint"),
                ("p.json", mine, "other", "p.json holds the baseline of plug-in 'mine', not of "
                 "plug-in 'other': hint")):
            with self.assertRaises(measure.PerfError) as cm:
                gate.same_subject(path, doc_, plugin, "hint")
            self.assertEqual(str(cm.exception), said)

    def test_the_summary_names_the_plugin(self):
        res = gate.evaluate(BASE, BASE, 2.0)
        text = gate.summary_section("sb_engine_solve", "p.json", 2.0, res, "mine")
        self.assertIn("### perf-check sb_engine_solve, plug-in mine (`p.json`): PASS, exit code 0",
                      text)
        self.assertIn("inside `sb_engine_solve` (the harness and plug-in `mine`)", text)


def schema(name):
    """Returns the JSON schema bench/NAME.schema.json."""
    with open(os.path.join(ROOT, "bench", name + ".schema.json"), encoding="utf-8") as f:
        return json.load(f)


class Publish(unittest.TestCase):
    """--summary and --export of the compare command (check publishes the same way)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.base = self.write("b.json", BASE)
        self.slow = self.write("c.json", doc(("fast/scalar/a", 1_050_000),
                                             ("list/scalar/a", 50_000_000)))

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, document):
        with open(self.path(name), "w") as f:
            f.write(document if isinstance(document, str) else json.dumps(document))
        return self.path(name)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def gate(self, *argv):
        """Returns (exit code, stdout + stderr) of sbperf.gate's main."""
        out = io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = out
        try:
            return gate.main(list(argv)), out.getvalue()
        finally:
            sys.stdout, sys.stderr = saved

    def exports(self):
        return ["--export", "bmf:" + self.path("o/bmf.json"), "--export",
                "github:" + self.path("o/gh.json"), "--export", "junit:" + self.path("o/j.xml")]

    def test_summary_of_a_pass_holds_the_verdict_and_the_table(self):
        self.write("sum.md", "# an earlier step's section\n")
        code, _ = self.gate("compare", self.base, self.base, "--summary", self.path("sum.md"))
        self.assertEqual(code, 0)
        text = self.read("sum.md")
        self.assertTrue(text.startswith("# an earlier step's section\n"), text)  # appended
        self.assertIn("### perf-check sb_solve (`%s`): PASS, exit code 0" % self.base, text)
        self.assertIn("2 entries, 0 regressions above +2.0%, 0 not measured (exit code 0: pass)",
                      text)
        self.assertRegex(text, r"\n\| entry +\| puzzles \|.*\| verdict \|\n")
        self.assertRegex(text, r"\n\| fast/scalar/a +\|.*\+0\.00%.*\| ok +\|\n")
        self.assertNotIn("REGRESSION", text)

    def test_summary_of_a_regression_names_it_with_the_exit_code(self):
        code, _ = self.gate("compare", self.base, self.slow, "--summary", self.path("sum.md"))
        self.assertEqual(code, 1)
        text = self.read("sum.md")
        self.assertIn("### perf-check sb_solve (`%s`): FAIL, exit code 1" % self.base, text)
        self.assertIn("1 regression above +2.0%", text)
        self.assertIn("exit code 1: a count rose above the threshold", text)
        self.assertIn("**REGRESSION**: `fast/scalar/a` +5.00%.", text)
        self.assertRegex(text, r"\| fast/scalar/a +\|.*\| REGRESSION \|")
        # a second gate appends its own section after the first
        self.gate("compare", self.base, self.base, "--summary", self.path("sum.md"))
        text2 = self.read("sum.md")
        self.assertTrue(text2.startswith(text))
        self.assertIn("PASS, exit code 0", text2[len(text):])

    def test_exports_hold_the_counts_in_benchs_formats_and_the_verdicts_in_junit(self):
        code, _ = self.gate("compare", self.base, self.slow, *self.exports())
        self.assertEqual(code, 1)
        bmf = json.loads(self.read("o/bmf.json"))
        gh = json.loads(self.read("o/gh.json"))
        self.assertEqual(json_schema.validate(bmf, schema("bmf")), [])
        self.assertEqual(json_schema.validate(gh, schema("github-benchmark")), [])
        self.assertEqual(bmf, {"fast/scalar/a": {"instructions": {"value": 1_050_000}},
                               "list/scalar/a": {"instructions": {"value": 50_000_000}}})
        self.assertEqual([(e["name"], e["unit"], e["value"]) for e in gh],
                         [("fast/scalar/a", "instructions", 1_050_000),
                          ("list/scalar/a", "instructions", 50_000_000)])
        self.assertIn("baseline 1,000,000 (+5.00%): REGRESSION", gh[0]["extra"])
        self.assertNotIn("range", gh[0])  # a count has no spread
        root = ET.parse(self.path("o/j.xml")).getroot()
        self.assertEqual(root.tag, "testsuites")
        (suite,) = root.findall("testsuite")
        self.assertEqual(suite.get("name"), "perf-check " + self.base)
        self.assertEqual((suite.get("tests"), suite.get("failures"), suite.get("errors")),
                         ("2", "1", "0"))
        cases = {c.get("name"): c for c in suite.findall("testcase")}
        failure = cases["fast/scalar/a"].find("failure")
        self.assertEqual(failure.get("type"), "REGRESSION")
        self.assertEqual(failure.get("message"), "sb_solve Ir +5.00%, above +2.0%")
        self.assertIn("baseline 1,000,000, now 1,050,000", failure.text)
        self.assertEqual(list(cases["list/scalar/a"]), [])  # passed: no child

    def test_two_gates_share_the_export_files(self):
        many = self.write("m.json", dict(doc(("fast/avx2/a", 2_000_000)), function="sb_solve_many"))
        for _ in range(2):  # a rerun replaces its own entries, never duplicates them
            self.gate("compare", self.base, self.base, *self.exports())
            self.gate("compare", many, many, *self.exports())
        gh = json.loads(self.read("o/gh.json"))
        self.assertEqual([e["name"] for e in gh],
                         ["fast/scalar/a", "list/scalar/a", "fast/avx2/a@sb_solve_many"])
        self.assertEqual(json_schema.validate(gh, schema("github-benchmark")), [])
        bmf = json.loads(self.read("o/bmf.json"))
        self.assertEqual(sorted(bmf), ["fast/avx2/a@sb_solve_many", "fast/scalar/a",
                                       "list/scalar/a"])
        root = ET.parse(self.path("o/j.xml")).getroot()
        self.assertEqual([s.get("name") for s in root.findall("testsuite")],
                         ["perf-check " + self.base, "perf-check " + many])
        self.assertEqual((root.get("tests"), root.get("failures")), ("3", "0"))

    def test_skipped_and_unmeasured_entries(self):
        cur = doc(("fast/scalar/a", 1_000_000))
        cur["entries"].append({"id": "list/scalar/a", "skipped": "valgrind cannot run it"})
        code, _ = self.gate("compare", self.base, self.write("s.json", cur), *self.exports())
        self.assertEqual(code, 0)
        self.assertEqual(list(json.loads(self.read("o/bmf.json"))), ["fast/scalar/a"])
        suite = ET.parse(self.path("o/j.xml")).getroot().find("testsuite")
        self.assertEqual(suite.get("skipped"), "1")
        skipped = [c for c in suite.findall("testcase") if c.find("skipped") is not None]
        self.assertEqual([c.get("name") for c in skipped], ["list/scalar/a"])
        code, _ = self.gate("compare", self.base, self.write("u.json", doc(("fast/scalar/a", 1))),
                            "--export", "junit:" + self.path("u.xml"))
        self.assertEqual(code, 1)
        failure = ET.parse(self.path("u.xml")).getroot().find(
            "testsuite/testcase[@name='list/scalar/a']/failure")
        self.assertEqual(failure.get("type"), "NOT MEASURED")

    def test_a_gate_that_cannot_compare_says_so_with_exit_code_2(self):
        code, text = self.gate("compare", self.base, self.path("none.json"), "--summary",
                               self.path("sum.md"), *self.exports())
        self.assertEqual(code, 2)
        self.assertIn("perf-check: error: cannot read", text)
        summary = self.read("sum.md")
        self.assertIn("ERROR, exit code 2", summary)
        self.assertIn("Cannot compare (exit code 2: cannot compare)", summary)
        self.assertIn("none.json", summary)
        error = ET.parse(self.path("o/j.xml")).getroot().find("testsuite/testcase/error")
        self.assertEqual(error.get("type"), "ERROR")
        self.assertIn("none.json", error.text)
        self.assertFalse(os.path.exists(self.path("o/bmf.json")))  # no counts to export

    def test_bad_export_options_fail_before_any_work(self):
        for spec in ("xml:f.json", "bmf:", "bmf", ":f.json"):
            code, text = self.gate("compare", self.base, self.slow, "--export", spec,
                                   "--summary", self.path("sum.md"))
            self.assertEqual(code, 2, spec)
            self.assertIn("bad --export '%s'" % spec, text)
        code, text = self.gate("compare", self.base, self.slow, "--export",
                               "bmf:" + self.path("x.json"), "--export",
                               "github:" + self.path("x.json"))
        self.assertEqual(code, 2)
        self.assertIn("is named twice", text)
        self.assertFalse(os.path.exists(self.path("sum.md")))
        self.assertFalse(os.path.exists(self.path("x.json")))

    def test_a_file_that_is_not_an_export_is_not_overwritten(self):
        self.write("gh.json", {"not": "a list"})
        self.write("j.xml", "<html/>")
        for spec in ("github:" + self.path("gh.json"), "junit:" + self.path("j.xml")):
            code, text = self.gate("compare", self.base, self.base, "--export", spec)
            self.assertEqual(code, 2, spec)
            self.assertIn("the file exists and is not", text)
        self.assertEqual(json.loads(self.read("gh.json")), {"not": "a list"})
        self.assertEqual(self.read("j.xml"), "<html/>")


if __name__ == "__main__":
    unittest.main(verbosity=1)
