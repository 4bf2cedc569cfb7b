#!/usr/bin/env python3
"""tests/perf/test_worktree.py — sbperf.worktree: a commit's build starts from the commit's
own make defaults, ranges and subjects are read from git, a commit without the perf
driver is named as such before anything is built, a checkout's revision names its
uncommitted changes, and the toolchain id is stable. Part of
`make test` (test-history); a throwaway git repository, no build, no valgrind.

Run alone: PYTHONPATH=scripts python3 tests/perf/test_worktree.py
"""

import os
import subprocess
import tempfile
import unittest

from sbperf import worktree


class MakeEnvironment(unittest.TestCase):
    def test_an_outer_make_does_not_leak_into_a_commit_build(self):
        saved = dict(os.environ)
        try:
            os.environ.update(MAKEFLAGS=" -- BUILD=build/x FOO=1", BUILD="build/x", FOO="1",
                              CFLAGS="-O0", MAKELEVEL="1", KEEP="yes")
            env = worktree.clean_make_env()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        for k in ("MAKEFLAGS", "BUILD", "FOO", "CFLAGS", "MAKELEVEL"):
            self.assertNotIn(k, env)
        self.assertEqual(env["KEEP"], "yes")


class Git(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.repo = tmp.name
        self.git("init", "-q")
        self.shas = []
        for subject in ("one", "two", "three"):
            with open(os.path.join(self.repo, "f.txt"), "a") as f:
                f.write(subject + "\n")
            self.git("add", "f.txt")
            self.git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q",
                     "-m", subject)
            self.shas.append(self.git("rev-parse", "HEAD"))

    def git(self, *args):
        return subprocess.run(["git", "-C", self.repo] + list(args), check=True,
                              capture_output=True, text=True).stdout.strip()

    def test_ranges_oldest_first(self):
        one, two, three = self.shas
        self.assertEqual(worktree.commit_range(self.repo, "", 2), [two, three])
        self.assertEqual(worktree.commit_range(self.repo, one + ".." + three, 10), [two, three])
        self.assertEqual(worktree.commit_range(self.repo, "HEAD~1", 10), [two])
        self.assertEqual(worktree.resolve(self.repo, "HEAD"), three)
        date, subject = worktree.commit_info(self.repo, one)
        self.assertEqual(subject, "one")
        self.assertRegex(date, r"^\d{4}-\d\d-\d\dT")
        with self.assertRaises(worktree.HistoryError):
            worktree.commit_range(self.repo, "nosuchrev", 1)

    def test_the_revision_names_uncommitted_changes(self):
        head = self.shas[-1]
        self.assertEqual(worktree.revision(self.repo), head)
        with open(os.path.join(self.repo, "f.txt"), "a") as f:
            f.write("four\n")
        dirty = worktree.revision(self.repo)
        self.assertRegex(dirty, r"^%s\+dirty\.[0-9a-f]{12}$" % head)
        self.assertEqual(worktree.revision(self.repo), dirty)
        with open(os.path.join(self.repo, "f.txt"), "a") as f:
            f.write("five\n")
        self.assertNotEqual(worktree.revision(self.repo), dirty)

    def test_a_commit_without_the_driver_is_not_built(self):
        with tempfile.TemporaryDirectory() as work:
            status, why = worktree.build(self.repo, self.shas[0], work, "cc", 1, "t1")
            self.assertEqual((status, why), ("no_driver", "the commit has no bench/perf_driver.c"))
            self.assertFalse(os.path.exists(os.path.join(work, "wt")))


class Toolchain(unittest.TestCase):
    def test_the_id_names_the_facts(self):
        facts, ident = worktree.toolchain("cc")
        self.assertEqual(worktree.toolchain("cc"), (facts, ident))
        self.assertRegex(ident, r"^[0-9a-f]{12}$")
        self.assertEqual(facts["cc"], "cc")
        self.assertNotEqual(worktree.toolchain("cc -O1")[1], ident)
        # a plug-in's history: its build command and the harness's revision are facts too
        pfacts, pid = worktree.toolchain("cc", "make so", "a" * 40)
        self.assertEqual((pfacts["build"], pfacts["harness"]), ("make so", "a" * 40))
        self.assertNotIn("harness", facts)
        self.assertNotEqual(worktree.toolchain("cc", "make so", "b" * 40)[1], pid)


if __name__ == "__main__":
    unittest.main(verbosity=1)
