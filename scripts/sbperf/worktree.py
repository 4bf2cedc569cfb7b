"""sbperf.worktree — a commit's perf driver, built in its own git worktree (stdlib only).

The history, the bisection and the AVX-512 gate measure other revisions than the checkout.
Each revision is built from a detached worktree WORKDIR/wt/SHA12, kept so that a commit is
built once, with ccache when installed (consecutive commits share most sources); the user's
checkout, branch, index and bisect state are never touched. The worktree and its build are
any repository's and any command's (build_in_worktree): a solver plug-in's history builds
the plug-in's own commits by its own command. The toolchain facts (compiler,
valgrind, the make invocation) identify which builds and counts may be compared.
"""

import hashlib
import json
import os
import shutil
import subprocess
import threading

DRIVER_SRC = "bench/perf_driver.c"
DRIVER_TARGET = "build/perf/perf_driver"


class HistoryError(Exception):
    """A condition under which nothing can be measured (exit 2)."""


# ------------------------------------------------------------------------------------------
# git
# ------------------------------------------------------------------------------------------

def git(repo, *args, check=True):
    """Runs git in repo; returns stdout stripped (raises HistoryError on failure)."""
    p = subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True)
    if check and p.returncode != 0:
        raise HistoryError("git %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout.strip()


def resolve(repo, rev):
    """Returns the full hash of a commit-ish."""
    return git(repo, "rev-parse", "--verify", "-q", rev + "^{commit}")


def commit_range(repo, rev, count):
    """Returns the commits of rev, oldest first: A..B as git means it, a single revision
    alone, or (rev empty) the last `count` commits of HEAD."""
    if not rev:
        out = git(repo, "rev-list", "--max-count=%d" % count, "HEAD")
        return list(reversed(out.split()))
    if ".." in rev:
        return git(repo, "rev-list", "--reverse", rev).split()
    return [resolve(repo, rev)]


def commit_info(repo, sha):
    """Returns (committer date ISO 8601, subject) of a commit."""
    out = git(repo, "show", "-s", "--format=%cI%n%s", sha)
    date, _, subject = out.partition("\n")
    return date, subject


def toolchain(cc, build=None, harness=None):
    """Returns the facts that make counts comparable (compiler and valgrind versions, the
    build: by default the make invocation of the commit's driver) and a short id of them:
    records of another toolchain are kept but neither reused nor charted together. harness
    (a plug-in's history) is the revision of the tree whose driver measures every commit."""
    def first_line(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "unknown"
    facts = {"cc": cc, "compiler": first_line(cc.split() + ["--version"]).strip(),
             "valgrind": first_line(["valgrind", "--version"]).strip(),
             "build": build or "make %s (the commit's own Makefile and default CFLAGS)"
             % DRIVER_TARGET}
    if harness:
        facts["harness"] = harness
    ident = hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:12]
    return facts, ident


def revision(repo):
    """Returns the revision of the checkout at repo: HEAD's hash, followed by +dirty.SHA12
    (the sha256 of the diff of its tracked files against HEAD) when they differ, so that
    uncommitted changes to the code give another revision."""
    head = git(repo, "rev-parse", "HEAD")
    diff = subprocess.run(["git", "-C", repo, "diff", "--binary", "HEAD"],
                          capture_output=True).stdout
    return head + ("+dirty." + hashlib.sha256(diff).hexdigest()[:12] if diff else "")


# ------------------------------------------------------------------------------------------
# Building a commit
# ------------------------------------------------------------------------------------------

_worktree_lock = threading.Lock()
STAMP = ".perf-history-built"


def worktree_path(workdir, sha):
    """Returns the worktree of commit sha under workdir: WORKDIR/wt/SHA12."""
    return os.path.join(workdir, "wt", sha[:12])


def log_path(workdir, sha):
    """Returns the build log of commit sha under workdir: WORKDIR/logs/SHA12.log."""
    return os.path.join(workdir, "logs", sha[:12] + ".log")


def checkout(repo, sha, workdir):
    """Returns the worktree of sha (worktree_path), adding it as a detached worktree of repo
    when it is missing: the checkout, branch and index of repo stay as they are."""
    wt = worktree_path(workdir, sha)
    with _worktree_lock:
        if not os.path.exists(os.path.join(wt, ".git")):
            if os.path.exists(wt):
                shutil.rmtree(wt)
            git(repo, "worktree", "prune")
            git(repo, "worktree", "add", "--detach", "-q", wt, sha)
    return wt


def build_in_worktree(repo, sha, workdir, stamp_id, product, command, env, label):
    """Builds sha in its own worktree (kept for reuse) by running command there: an argv
    list, or a string run by the shell in the worktree's root; its output goes to the log
    (log_path). Returns ("ok", the full path of product, a path relative to the worktree's
    root) or ("build_failed", reason: label's exit code or the missing product, the log and
    its first error lines). A worktree whose stamp says product was built with stamp_id is not built
    again."""
    wt = worktree_path(workdir, sha)
    out = os.path.join(wt, product)
    stamp = os.path.join(wt, STAMP)
    if os.path.exists(stamp) and os.path.exists(out):
        with open(stamp, encoding="utf-8") as f:
            if f.read().strip() == stamp_id:
                return "ok", out
    checkout(repo, sha, workdir)
    log = log_path(workdir, sha)
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "w", encoding="utf-8") as f:
        p = subprocess.run(command, shell=isinstance(command, str), cwd=wt, stdout=f,
                           stderr=subprocess.STDOUT, env=env)
    if p.returncode != 0 or not os.path.exists(out):
        with open(log, encoding="utf-8", errors="replace") as f:
            tail = [ln for ln in f.read().splitlines() if "error" in ln.lower()][:3]
        what = "exited %d" % p.returncode if p.returncode else "gave no %s" % product
        return "build_failed", "%s %s (log %s)%s" % (
            label, what, os.path.relpath(log), (": " + " | ".join(tail)) if tail else "")
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(stamp_id + "\n")
    return "ok", out


def build(repo, sha, workdir, cc, jobs, tool_id):
    """Builds sha's perf driver in its own worktree WORKDIR/wt/SHA12 (kept for reuse);
    returns ("ok", driver) or (status, reason) with status build_failed or no_driver."""
    if subprocess.run(["git", "-C", repo, "cat-file", "-e", "%s:%s" % (sha, DRIVER_SRC)],
                      capture_output=True).returncode != 0:
        return "no_driver", "the commit has no %s" % DRIVER_SRC
    env = clean_make_env()
    make_cc = cc
    if shutil.which("ccache") and os.environ.get("PERF_HISTORY_CCACHE", "1") != "0":
        # Consecutive commits share most sources: ccache turns their compiles into copies.
        # The worktree's path must not enter the hash (-g would put it there by default).
        make_cc = "ccache " + cc
        env.setdefault("CCACHE_DIR", os.path.join(workdir, "ccache"))
        env["CCACHE_NOHASHDIR"] = "1"
        env["CCACHE_BASEDIR"] = worktree_path(workdir, sha)
    status, what = build_in_worktree(
        repo, sha, workdir, tool_id, DRIVER_TARGET,
        ["make", "-j%d" % max(1, jobs), "CC=" + make_cc, DRIVER_TARGET], env, "make")
    if status != "ok":
        with open(log_path(workdir, sha), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "No rule to make target" in text and "perf_driver" in text:
            return "no_driver", "its Makefile has no %s target" % DRIVER_TARGET
    return status, what


# Variables the project's Makefile reads that would change where or how a commit builds.
BUILD_VARS = ("BUILD", "CFLAGS", "OPT", "SAN", "CROSS", "HOSTCC", "AR", "OBJCOPY", "CC")


def clean_make_env():
    """Returns the environment for a commit's make: a make that runs this script exports its
    command-line variables (make perf-history BUILD=build/x puts BUILD in the environment and
    in MAKEFLAGS), and the commit's Makefile would build elsewhere or otherwise; it must
    start from its own defaults."""
    flags = os.environ.get("MAKEFLAGS", "")
    named = {w.split("=", 1)[0] for w in flags.partition(" -- ")[2].split() if "=" in w}
    drop = named | set(BUILD_VARS) | {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES",
                                      "MAKEFILES", "GNUMAKEFLAGS"}
    return {k: v for k, v in os.environ.items() if k not in drop}
