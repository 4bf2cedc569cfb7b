"""sbperf.worktree — a commit's perf driver, built in its own git worktree (stdlib only).

The history, the bisection and the AVX-512 gate measure other revisions than the checkout.
Each revision is built from a detached worktree WORKDIR/wt/SHA12, kept so that a commit is
built once, with ccache when installed (consecutive commits share most sources); the user's
checkout, branch, index and bisect state are never touched. The toolchain facts (compiler,
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


def toolchain(cc):
    """Returns the facts that make counts comparable (compiler and valgrind versions, the
    make invocation) and a short id of them: records of another toolchain are kept but
    neither reused nor charted together."""
    def first_line(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "unknown"
    facts = {"cc": cc, "compiler": first_line(cc.split() + ["--version"]).strip(),
             "valgrind": first_line(["valgrind", "--version"]).strip(),
             "build": "make %s (the commit's own Makefile and default CFLAGS)" % DRIVER_TARGET}
    ident = hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:12]
    return facts, ident


# ------------------------------------------------------------------------------------------
# Building a commit
# ------------------------------------------------------------------------------------------

_worktree_lock = threading.Lock()


def build(repo, sha, workdir, cc, jobs, tool_id):
    """Builds sha's perf driver in its own worktree WORKDIR/wt/SHA12 (kept for reuse);
    returns ("ok", driver) or (status, reason) with status build_failed or no_driver."""
    if subprocess.run(["git", "-C", repo, "cat-file", "-e", "%s:%s" % (sha, DRIVER_SRC)],
                      capture_output=True).returncode != 0:
        return "no_driver", "the commit has no %s" % DRIVER_SRC
    wt = os.path.join(workdir, "wt", sha[:12])
    driver = os.path.join(wt, DRIVER_TARGET)
    stamp = os.path.join(wt, ".perf-history-built")
    if os.path.exists(stamp) and os.path.exists(driver):
        with open(stamp, encoding="utf-8") as f:
            if f.read().strip() == tool_id:
                return "ok", driver
    with _worktree_lock:
        if not os.path.exists(os.path.join(wt, ".git")):
            if os.path.exists(wt):
                shutil.rmtree(wt)
            git(repo, "worktree", "prune")
            git(repo, "worktree", "add", "--detach", "-q", wt, sha)
    log = os.path.join(workdir, "logs", sha[:12] + ".log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    env = clean_make_env()
    make_cc = cc
    if shutil.which("ccache") and os.environ.get("PERF_HISTORY_CCACHE", "1") != "0":
        # Consecutive commits share most sources: ccache turns their compiles into copies.
        # The worktree's path must not enter the hash (-g would put it there by default).
        make_cc = "ccache " + cc
        env.setdefault("CCACHE_DIR", os.path.join(workdir, "ccache"))
        env["CCACHE_NOHASHDIR"] = "1"
        env["CCACHE_BASEDIR"] = wt
    with open(log, "w", encoding="utf-8") as f:
        p = subprocess.run(["make", "-C", wt, "-j%d" % max(1, jobs), "CC=" + make_cc,
                            DRIVER_TARGET], stdout=f, stderr=subprocess.STDOUT, env=env)
    if p.returncode != 0 or not os.path.exists(driver):
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if "No rule to make target" in text and "perf_driver" in text:
            return "no_driver", "its Makefile has no %s target" % DRIVER_TARGET
        tail = [ln for ln in text.splitlines() if "error" in ln.lower()][:3]
        return "build_failed", "make exited %d (log %s)%s" % (
            p.returncode, os.path.relpath(log), (": " + " | ".join(tail)) if tail else "")
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(tool_id + "\n")
    return "ok", driver


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
