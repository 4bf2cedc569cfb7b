#!/usr/bin/env python3
"""tests/perf/test_bisect.py — the pure parts of sbperf.bisect: which entry is bisected (the
largest rise between GOOD and BAD, over the entries measured at both), and the step that
`git bisect run` calls (this run's options, one entry, GOOD's count; scripts/ on the module
path of the throwaway clone). Part of `make test` (test-history); no git, no valgrind:
tests/perf/test_history.sh bisects a real range.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_bisect.py
"""

import argparse
import os
import subprocess
import sys
import unittest

from sbperf import bisect, history

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")


def rec(ir, status="ok"):
    return {"status": status, "solve_ir": ir}


class Changes(unittest.TestCase):
    def test_only_entries_measured_at_both_ends_count(self):
        items = [{"entry": e} for e in ("a", "b", "c", "d")]
        good = {"a": rec(100), "b": rec(100), "c": rec(100, "absent"), "d": None}
        bad = {"a": rec(103), "b": rec(110), "c": rec(200), "d": rec(200)}
        got = bisect.changes(items, good, bad)
        self.assertEqual([(round(d, 6), it["entry"]) for d, it, _, _ in got],
                         [(3.0, "a"), (10.0, "b")])
        worst = max(got, key=lambda t: t[0])
        self.assertEqual((worst[1]["entry"], worst[2], worst[3]), ("b", rec(100), rec(110)))


class Step(unittest.TestCase):
    def args(self, *argv):
        p = argparse.ArgumentParser()
        history.add_shared_options(p)
        return p.parse_args(list(argv) + ["--workdir", "/w"])

    def test_the_step_carries_this_runs_options(self):
        args = self.args("--cc", "gcc", "--jobs", "3", "--puzzles", "9", "--divide", "4",
                         "--threshold", "2.5", "--baseline", "b.json")
        cmd = bisect.step_command(args, "/repo", "/h.jsonl", {"entry": "fast/scalar/x"}, 1234)
        self.assertEqual(cmd[:4], [sys.executable, "-m", "sbperf.bisect", "step"])
        self.assertEqual(cmd[4:], ["--repo", "/repo", "--workdir", "/w", "--out", "/h.jsonl",
                                   "--cc", "gcc", "--jobs", "3", "--puzzles", "9",
                                   "--divide", "4", "--entry", "fast/scalar/x",
                                   "--ref-ir", "1234", "--threshold", "2.5", "--no-wall",
                                   "--baseline", "b.json"])

    def test_a_plugin_step_carries_the_plugin_and_the_driver(self):
        args = self.args("--plugin-repo", "/p", "--plugin-build", "make so", "--plugin",
                         "out/x.so", "--driver", "build/perf/perf_driver", "--baseline",
                         "/b/naive.json")
        cmd = bisect.step_command(args, "/tree", "/h.jsonl", {"entry": "naive/plugin/x"}, 9)
        self.assertEqual(cmd[4:6], ["--repo", "/tree"])
        self.assertEqual(cmd[-11:], ["--no-wall", "--plugin-repo", "/p", "--plugin-build",
                                     "make so", "--plugin", "out/x.so", "--driver",
                                     "build/perf/perf_driver", "--baseline", "/b/naive.json"])

    def test_the_step_finds_the_package_from_any_directory(self):
        env = bisect.step_env()
        paths = env["PYTHONPATH"].split(os.pathsep)
        self.assertEqual(os.path.realpath(paths[0]), os.path.realpath(SCRIPTS))
        p = subprocess.run([sys.executable, "-m", "sbperf.bisect", "step", "--help"],
                           cwd="/", env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--ref-ir", p.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=1)
