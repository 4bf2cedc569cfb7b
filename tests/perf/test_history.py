#!/usr/bin/env python3
"""tests/perf/test_history.py — the parts of sbperf.history that run no solver: the plan
from the baselines (entry keys, slices divided and capped; a plug-in's baseline only with its
repository), the history file's cache key and name, how the progress lines name the slices,
and a plug-in's commits (options, worktree builds by its own command in throwaway git
repositories, its records, the check of its name through a stand-in driver). Part of
`make test` (test-history); needs git, not valgrind. tests/perf/test_history.sh runs
perf-history and perf-bisect end to end, tests/perf/plugin_history.sh on a plug-in's commits.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_history.py
"""

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from sbperf import history as ph

PLUGIN_BASELINE = {"format": "sudokubench-perf-baseline/1", "function": "sb_engine_solve",
                   "plugin": "naive", "entries": [
                       {"id": "naive/plugin/d", "pipeline": "naive", "simd": "plugin",
                        "dataset": "d.txt", "puzzles": 2, "solve_ir": 900}]}


def git(repo, *args):
    """Runs git in repo as a throwaway identity; returns stdout stripped."""
    return subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c",
                           "user.email=t@example.org", "-c", "commit.gpgsign=false"]
                          + list(args), check=True, capture_output=True, text=True).stdout.strip()


def shared_args(*argv):
    """Returns the shared options parsed from argv."""
    p = argparse.ArgumentParser()
    ph.add_shared_options(p)
    return p.parse_args(list(argv))


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

    def write_plugin_baseline(self, path):
        with open(path, "w") as f:
            json.dump(PLUGIN_BASELINE, f)

    def test_a_plugin_baseline_is_refused_without_its_repository(self):
        # A plug-in's baseline (make perf-baseline PERF_PLUGIN=...) gates outside code, which
        # the repository's commits do not change: the plan says so, and how to chart the
        # plug-in's own commits, instead of failing later.
        self.write_plugin_baseline(os.path.join(self.tmp, "bench", "p.json"))
        with self.assertRaises(ph.HistoryError) as cm:
            ph.load_plan(self.tmp, ["bench/p.json"], 0, None)
        self.assertEqual(str(cm.exception), "bench/p.json is the baseline of plug-in 'naive': "
                         "the history measures this repository's commits; to chart the "
                         "plug-in's own commits, name its repository: make perf-history "
                         "PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' "
                         "PERF_PLUGIN=REL/PATH.so PERF_BASELINE=bench/p.json")

    def test_a_plugin_history_plans_its_baseline_only(self):
        self.write_plugin_baseline(os.path.join(self.tmp, "bench", "p.json"))
        plan = ph.load_plan(self.tmp, ["bench/p.json"], 0, None, plugin_repo=self.tmp)
        self.assertEqual([(p["entry"], p["function"], p["plugin"], p["puzzles"]) for p in plan],
                         [("naive/plugin/d@sb_engine_solve", "sb_engine_solve", "naive", 2)])
        self.assertEqual(plan[0]["baseline_ir"], 900)
        self.assertEqual(plan[0]["baseline_rev"], "")  # not a git repository: no revision
        with self.assertRaisesRegex(ph.HistoryError, "bench/b.json is the baseline of the "
                                    "library's sb_solve, not of a plug-in"):
            ph.load_plan(self.tmp, ["bench/b.json"], 0, None, plugin_repo=self.tmp)
        other = dict(PLUGIN_BASELINE, plugin="other")
        with open(os.path.join(self.tmp, "bench", "o.json"), "w") as f:
            json.dump(other, f)
        with self.assertRaisesRegex(ph.HistoryError, "are of plug-ins naive, other: a "
                                    "history follows one plug-in"):
            ph.load_plan(self.tmp, ["bench/p.json", "bench/o.json"], 0, None,
                         plugin_repo=self.tmp)

    def test_the_reference_is_the_plugin_commit_that_wrote_its_baseline(self):
        # A baseline committed in the plug-in's repository names the commit that wrote it;
        # one outside it (or in this tree) names none: it is not a commit of the plug-in.
        repo = os.path.join(self.tmp, "plugin")
        os.makedirs(os.path.join(repo, "perf"))
        git(repo, "init", "-q")
        self.write_plugin_baseline(os.path.join(repo, "perf", "naive.json"))
        git(repo, "add", "perf/naive.json")
        git(repo, "commit", "-q", "-m", "baseline")
        wrote = git(repo, "rev-parse", "HEAD")
        plan = ph.load_plan(self.tmp, [os.path.join(repo, "perf", "naive.json")], 1, None,
                            plugin_repo=repo)
        self.assertEqual((plan[0]["baseline_rev"], plan[0]["baseline_ir"]), (wrote, None))
        self.write_plugin_baseline(os.path.join(self.tmp, "bench", "p.json"))
        plan = ph.load_plan(self.tmp, ["bench/p.json"], 0, None, plugin_repo=repo)
        self.assertEqual(plan[0]["baseline_rev"], "")

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

    def test_the_harness_revision_is_in_a_plugin_records_cache_key(self):
        # A plug-in's commits are measured by this tree's driver: the same commit x entry
        # measured under another revision of this tree is not reused.
        self.write_plugin_baseline(os.path.join(self.tmp, "bench", "p.json"))
        item = ph.load_plan(self.tmp, ["bench/p.json"], 0, None, plugin_repo=self.tmp)[0]
        _, one = ph.toolchain("cc", "cc -shared", "a" * 40)
        _, two = ph.toolchain("cc", "cc -shared", "b" * 40)
        _, three = ph.toolchain("cc", "cc -shared -O3", "a" * 40)
        self.assertEqual(len({one, two, three}), 3)
        store = ph.Store(os.path.join(self.tmp, "h.jsonl"))
        store.append(dict(ph.item_fields(item), commit="f" * 40, toolchain_id=one, status="ok"))
        self.assertIsNotNone(store.find("f" * 40, one, item))
        self.assertIsNone(store.find("f" * 40, two, item))
        self.assertIsNone(store.find("f" * 40, three, item))


class PluginOptions(unittest.TestCase):
    def test_the_three_go_together(self):
        self.assertFalse(ph.plugin_options(shared_args()))
        self.assertTrue(ph.plugin_options(shared_args(
            "--plugin-repo", "/p", "--plugin-build", "make", "--plugin", "out/x.so")))
        for argv in (["--plugin-repo", "/p"], ["--plugin", "x.so"],
                     ["--plugin-repo", "/p", "--plugin", "x.so"]):
            with self.assertRaisesRegex(ph.HistoryError, "PERF_PLUGIN_REPO=DIR "
                                        "PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so"):
                ph.plugin_options(shared_args(*argv))
        with self.assertRaisesRegex(ph.HistoryError, "relative to the plug-in's repository"):
            ph.plugin_options(shared_args("--plugin-repo", "/p", "--plugin-build", "make",
                                          "--plugin", "/abs/x.so"))

    def test_the_history_file_is_named_after_the_plugin(self):
        args = shared_args("--repo", "/r")
        self.assertEqual(ph.history_file(args, None), "/r/build/reports/history.jsonl")
        self.assertEqual(ph.history_file(args, "naive"), "/r/build/reports/history-naive.jsonl")
        args = shared_args("--repo", "/r", "--reports", "/b/reports")
        self.assertEqual(ph.history_file(args, "naive"), "/b/reports/history-naive.jsonl")
        args = shared_args("--repo", "/r", "--reports", "/b", "--out", "/h/x.jsonl")
        self.assertEqual(ph.history_file(args, "naive"), "/h/x.jsonl")


class PluginCommits(unittest.TestCase):
    """A plug-in's commits built by its own command in worktrees of a throwaway repository;
    the command writes a stand-in for the .so (nothing is compiled or loaded)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.repo = os.path.join(self.tmp, "plugin")
        os.makedirs(self.repo)
        git(self.repo, "init", "-q")
        with open(os.path.join(self.repo, "src.c"), "w") as f:
            f.write("one\n")
        git(self.repo, "add", "src.c")
        git(self.repo, "commit", "-q", "-m", "one")
        self.sha = git(self.repo, "rev-parse", "HEAD")
        self.runs = os.path.join(self.tmp, "runs")

    def target(self, build, product="out/p.so", name="naive"):
        args = shared_args("--repo", self.tmp, "--workdir", os.path.join(self.tmp, "work"),
                           "--plugin-repo", self.repo, "--plugin-build", build,
                           "--plugin", product, "--driver", "driver")
        return ph.PluginCommits(self.tmp, args, name, "b1")

    def test_a_commit_is_built_once_by_its_command_in_its_worktree(self):
        t = self.target("echo run >>%s; mkdir -p out && cp src.c out/p.so" % self.runs)
        wt = os.path.join(self.tmp, "work", "plugin-naive", "wt", self.sha[:12])
        self.assertEqual(t.build(self.sha), ("ok", os.path.join(wt, "out", "p.so")))
        self.assertEqual(t.build(self.sha), ("ok", os.path.join(wt, "out", "p.so")))
        with open(self.runs) as f:
            self.assertEqual(f.read(), "run\n")  # the second build reused the first
        self.assertEqual(git(self.repo, "status", "--porcelain"), "")  # checkout untouched

    def test_a_failing_command_or_no_product_is_build_failed(self):
        status, why = self.target("echo 'src.c:1: error: no' >&2; exit 3").build(self.sha)
        self.assertEqual(status, "build_failed")
        self.assertRegex(why, r"^the plug-in's build command exited 3 \(log .*/logs/%s.log\): "
                         r"src.c:1: error: no$" % self.sha[:12])
        status, why = self.target("true", "out/q.so", "other").build(self.sha)
        self.assertEqual(status, "build_failed")
        self.assertTrue(why.startswith("the plug-in's build command gave no out/q.so"), why)

    def test_records_name_the_plugin_and_runs_go_through_the_driver(self):
        t = self.target("true")
        self.assertEqual(t.fields(), {"plugin": {"name": "naive", "repo": self.repo,
                                                 "path": "out/p.so"}})
        item = {"pipeline": "naive", "simd": "plugin", "puzzles": 3, "path": "/d.txt"}
        self.assertEqual(t.command("/w/p.so", item),
                         [os.path.join(self.tmp, "driver"), "--plugin", "/w/p.so", "3", "/d.txt"])

    def test_a_plugin_of_another_name_is_not_measured(self):
        # The stand-in driver answers --plugin-name as perf_driver does, with another name.
        driver = os.path.join(self.tmp, "driver")
        with open(driver, "w") as f:
            f.write("#!/bin/sh\necho '{\"plugin\":\"other\"}'\n")
        os.chmod(driver, 0o755)
        items = [{"entry": "naive/plugin/d@sb_engine_solve", "path": "/d.txt", "puzzles": 2}]
        skip, note = self.target("true").check(self.sha, "/w/p.so", items)
        why = "the plug-in built at this commit is 'other', the baseline's 'naive'"
        self.assertEqual(skip, {"naive/plugin/d@sb_engine_solve": ("failed", why)})
        self.assertEqual(note, "%s: not measured: %s" % (self.sha[:8], why))


class Options(unittest.TestCase):
    def words(self, *argv):
        return ph.slice_words(shared_args(*argv))

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
