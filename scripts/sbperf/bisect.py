"""sbperf.bisect — the first commit whose instruction count rose above the gate's threshold:
`make perf-bisect` (stdlib only; docs/ci.md "Bisecting: `make perf-bisect`").

GOOD and BAD are measured first (sbperf.history: the same plan, store and cache); the entry
that rose most between them (or --entry) is then bisected by `git bisect run` in a throwaway
clone sharing the repository's objects, with one measurement of that entry as the test. The
user's checkout, branch, index and bisect state are never touched; every step's record goes
to the same history file.

Usage: python3 -m sbperf.bisect run --good REV --bad REV [--entry KEY] [options]
       python3 -m sbperf.bisect step ...   (what `git bisect run` calls: exit 0 good, 1 bad,
                                            125 skip, 128 abort)
Run it as a module (PYTHONPATH=scripts): as a file its directory would come first on the
module path and this module would stand in for the standard library's bisect.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from . import history
from .stats import pct
from .table import fmt_int
from .worktree import HistoryError, commit_info, git, resolve

EXIT_GOOD, EXIT_BAD, EXIT_SKIP, EXIT_ABORT = 0, 1, 125, 128
SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measured(target, sha, items, store, args, facts, tool_id):
    """Measures (or reuses) sha x items of target (sbperf.history.TreeCommits or
    PluginCommits); returns {entry: record} (commit-level failures as the same record for
    every entry)."""
    history.run_history(target, [sha], items, store, args, facts, tool_id)
    c = store.find(sha, tool_id)
    return {it["entry"]: c or store.find(sha, tool_id, it) for it in items}


def cmd_step(args):
    """One `git bisect run` step: the commit under test is BISECT_HEAD of the bisecting
    repository (the cwd); exit 0 when its count is within the threshold of --ref-ir, 1 when
    above, 125 when it cannot be measured, 128 (abort the bisection) on any other error."""
    try:
        target, plan, store, facts, tool_id = history.common(args)
        here = os.getcwd()
        sha = git(here, "rev-parse", "BISECT_HEAD", check=False) or git(here, "rev-parse", "HEAD")
        item = next(it for it in plan if it["entry"] == args.entry)
        rec = measured(target, sha, [item], store, args, facts, tool_id)[item["entry"]]
        subject = commit_info(target.repo, sha)[1]
        if rec is None or rec["status"] != "ok":
            print("perf-bisect: %s %s: skip (%s)" % (sha[:8], subject[:60],
                                                  rec["status"] if rec else "?"),
                  file=sys.stderr)
            return EXIT_SKIP
        d = pct(rec["solve_ir"], args.ref_ir)
        bad = d > args.threshold
        print("perf-bisect: %s %+.2f%% %s: %s" % (sha[:8], d, "BAD" if bad else "good",
                                                subject[:60]), file=sys.stderr)
        return EXIT_BAD if bad else EXIT_GOOD
    except Exception as e:  # an error must abort the bisection, never read as "bad"
        print("perf-bisect: step error: %s" % e, file=sys.stderr)
        return EXIT_ABORT


def changes(items, good, bad):
    """Returns (change in percent, item, GOOD's record, BAD's record) of every item measured
    at both ends; good and bad map each entry to its record (sbperf.bisect.measured)."""
    out = []
    for it in items:
        rg, rb = good[it["entry"]], bad[it["entry"]]
        if rg and rb and rg["status"] == "ok" and rb["status"] == "ok":
            out.append((pct(rb["solve_ir"], rg["solve_ir"]), it, rg, rb))
    return out


def step_command(args, repo, store_path, item, ref_ir):
    """Returns the command `git bisect run` calls for each commit: this module's step, with
    the options of this run (a plug-in's among them), one entry and GOOD's count as the
    reference; repo is the one that holds the baselines."""
    plugin = []
    if args.plugin_repo:
        plugin = ["--plugin-repo", os.path.abspath(args.plugin_repo), "--plugin-build",
                  args.plugin_build, "--plugin", args.plugin, "--driver", args.driver]
    return [sys.executable, "-m", "sbperf.bisect", "step", "--repo", repo,
            "--workdir", args.workdir, "--out", store_path, "--cc", args.cc,
            "--jobs", str(args.jobs), "--puzzles", str(args.puzzles),
            "--divide", str(args.divide),
            "--entry", item["entry"], "--ref-ir", str(ref_ir),
            "--threshold", str(args.threshold), "--no-wall"] + plugin + \
        ["--baseline"] + args.baseline


def step_env():
    """Returns the environment of the steps: they run in the throwaway clone, where a
    relative module path would not find this package, so scripts/ leads PYTHONPATH."""
    paths = [SCRIPTS] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def cmd_bisect(args):
    """Finds the first commit of GOOD..BAD whose count rose above the threshold."""
    target, plan, store, facts, tool_id = history.common(args)
    repo = target.repo  # the commits bisected: this repository's or the plug-in's
    good, bad = resolve(repo, args.good), resolve(repo, args.bad)
    if subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", good, bad]).returncode:
        raise HistoryError("GOOD %s is not an ancestor of BAD %s" % (args.good, args.bad))
    items = plan
    if args.entry:
        items = [it for it in plan if it["entry"] == args.entry]
        if not items:
            raise HistoryError("no entry %r in the plan; entries: %s"
                               % (args.entry, ", ".join(it["entry"] for it in plan)))
    print("perf-bisect: measuring GOOD %s and BAD %s (%d entries)"
          % (good[:8], bad[:8], len(items)), file=sys.stderr)
    g = measured(target, good, items, store, args, facts, tool_id)
    b = measured(target, bad, items, store, args, facts, tool_id)
    deltas = changes(items, g, b)
    if not deltas:
        raise HistoryError("no entry could be measured at both GOOD and BAD")
    d, item, rg, rb = max(deltas, key=lambda t: t[0])
    print("perf-bisect: %s: GOOD %s Ir, BAD %s Ir (%+.2f%%)%s"
          % (item["entry"], fmt_int(rg["solve_ir"]), fmt_int(rb["solve_ir"]), d,
             "" if args.entry else " — the worst of %d entries" % len(deltas)), file=sys.stderr)
    if d <= args.threshold:
        print("perf-bisect: no entry rose above +%.1f%% between %s and %s: nothing to bisect"
              % (args.threshold, good[:8], bad[:8]))
        return 0
    # A throwaway clone sharing the objects: the user's checkout, branch, index and bisect
    # state stay as they are; --no-checkout bisects on BISECT_HEAD without a work tree.
    clone = tempfile.mkdtemp(prefix="bisect.", dir=args.workdir)
    try:
        git(repo, "clone", "-q", "--shared", "--no-checkout", repo, clone)
        git(clone, "bisect", "start", "--no-checkout", bad, good)
        p = subprocess.run(["git", "-C", clone, "bisect", "run"]
                           + step_command(args, target.tree, store.path, item, rg["solve_ir"]),
                           capture_output=True, text=True, cwd=clone, env=step_env())
        log = p.stdout + p.stderr
        with open(os.path.join(args.workdir, "bisect.log"), "w", encoding="utf-8") as f:
            f.write(log)
        if "is the first bad commit" not in log:
            tail = "\n".join(log.strip().splitlines()[-12:])
            print("perf-bisect: no single first commit (exit %d):\n%s" % (p.returncode, tail))
            return 2
        first = git(clone, "rev-parse", "refs/bisect/bad")
    finally:
        subprocess.run(["git", "-C", clone, "bisect", "reset", "-q"], capture_output=True)
        shutil.rmtree(clone, ignore_errors=True)
    store = history.Store(store.path)  # the steps appended in other processes
    rec = store.find(first, tool_id, item)
    date, subject = commit_info(repo, first)
    parent = git(repo, "rev-parse", first + "^")
    prec = store.find(parent, tool_id, item)
    own = ""
    if prec and prec.get("status") == "ok":
        own = "; %+.2f%% over its parent %s" % (pct(rec["solve_ir"], prec["solve_ir"]),
                                               parent[:8])
    print("perf-bisect: first commit above +%.1f%% for %s:" % (args.threshold, item["entry"]))
    print("  %s %s" % (first, subject))
    print("  %s: %s -> %s Ir (%+.2f%% over GOOD %s%s)" % (
        date[:10], fmt_int(rg["solve_ir"]), fmt_int(rec["solve_ir"]),
        pct(rec["solve_ir"], rg["solve_ir"]), good[:8], own))
    return 0


def main(argv):
    """Parses the command line and runs a command; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("run", help="find the commit that crossed the threshold")
    history.add_shared_options(b)
    b.add_argument("--good", required=True)
    b.add_argument("--bad", required=True)
    b.add_argument("--entry", help="entry key (default: the worst entry)")
    b.set_defaults(func=cmd_bisect)
    s = sub.add_parser("step", help="one git bisect run step (internal)")
    history.add_shared_options(s)
    s.add_argument("--entry", required=True)
    s.add_argument("--ref-ir", type=int, required=True)
    s.set_defaults(func=cmd_step)

    args = ap.parse_args(argv)
    return history.dispatch(args, EXIT_ABORT if args.command == "step" else 2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
