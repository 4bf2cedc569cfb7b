#!/usr/bin/env python3
"""tests/perf/test_measure.py — sbperf.measure on synthetic inputs: the callgrind profile
parser, the slices and their hashes, the callgrind command line and failing commands. Part
of `make test` (test-perf); no valgrind: tests/perf/real_check.sh covers real callgrind runs.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_measure.py
"""

import os
import sys
import tempfile
import unittest

from sbperf import measure


class Files(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def write(self, name, text):
        """Writes the file name of this test's directory; returns its path."""
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)
        return f.name

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
        self.assertEqual(measure.parse_callgrind(profile), (3700, 5000))
        self.assertEqual(measure.parse_callgrind_calls(profile), (3700, 4, 5000))  # 3 + 1 calls
        self.assertEqual(measure.parse_callgrind_calls(profile, "sb_reader_next"),
                         (400, 4, 5000))
        self.assertEqual(measure.parse_callgrind_calls(profile, "absent"), (0, 0, 5000))
        profile2 = self.write("cg2.out", "positions: instr line\nevents: Ir Dr\n"
                              "fn=main\ncfn=sb_solve\ncalls=1 0x10 5\n0x20 6 900 40\n"
                              "totals: 1000 50\n")
        self.assertEqual(measure.parse_callgrind(profile2), (900, 1000))
        with self.assertRaises(measure.PerfError):
            measure.parse_callgrind(self.write("cg3.out", "events: Ir\n"))

    def test_slices_skip_comments_and_hash_their_lines(self):
        data = self.write("d.txt", "# header\n\n" + "1" * 81 + "\n  " + "2" * 81 + "  \n")
        self.assertEqual(measure.puzzle_lines(data), ["1" * 81, "2" * 81])
        one = measure.slice_sha256(data, 1)
        self.assertEqual(len(one), 64)
        self.write("d.txt", "1" * 81 + "\n# a comment\n" + "3" * 81 + "\n")
        self.assertEqual(measure.slice_sha256(data, 1), one)  # only the slice counts
        self.assertNotEqual(measure.slice_sha256(data, 2), one)

    def test_dataset_names(self):
        self.assertEqual(measure.dataset_name("datasets/samples/top1465.txt"), "top1465")
        self.assertEqual(measure.dataset_name("x/corpus"), "corpus")


class Commands(unittest.TestCase):
    def test_the_callgrind_command_line(self):
        cmd = measure.callgrind("o.out", ["drv", "fast", "scalar", "8", "d.txt"])
        self.assertEqual(cmd, ["valgrind", "--tool=callgrind", "--callgrind-out-file=o.out",
                               "--compress-strings=no", "--compress-pos=no",
                               "drv", "fast", "scalar", "8", "d.txt"])

    def test_a_failing_command_is_a_perf_error_with_its_stderr(self):
        self.assertEqual(measure.run([sys.executable, "-c", "print(7)"]).stdout, "7\n")
        with self.assertRaisesRegex(measure.PerfError, "exited 3:\nwhy"):
            measure.run([sys.executable, "-c", "import sys; sys.stderr.write('why'); sys.exit(3)"])
        with self.assertRaisesRegex(measure.PerfError, "cannot run"):
            measure.run([os.path.join(tempfile.gettempdir(), "no-such-program-here")])


if __name__ == "__main__":
    unittest.main(verbosity=1)
