"""sbperf.history — performance history over commits: `make perf-history` (stdlib, and
matplotlib for the charts; docs/ci.md "History: `make perf-history`").

The measurement is the gate's own (sbperf.measure): callgrind instructions inside sb_solve
(or sb_solve_many), callees included, for each entry of the gate's baseline, on the same
committed slices. What this module adds is the axis of commits: each commit is built from its
own git worktree (sbperf.worktree), its perf driver runs under callgrind, and one JSON record
per commit x entry is appended to a JSON Lines file (schema: bench/history.schema.json). The
chart and the page are sbperf.report's, the bisection sbperf.bisect's.

Usage: python3 -m sbperf.history COMMAND ...   (PYTHONPATH=scripts)

Commands
  run       measure the commits of a range into the history file (cached: a commit x entry
            already measured with the same toolchain and slice is not measured again; a
            commit that does not build is recorded once and skipped afterwards)
  chart     Ir per puzzle over the commits against the reference, a chart per corpus with
            a line per pipeline and SIMD level and the threshold band: history.html (the
            charts inline as SVG with a tooltip per point, a table per corpus) and
            history.png (matplotlib; sbperf.report)
  build     build one revision's perf driver (cached) and print its path
  validate  check a history file against the JSON Schema (sbperf.json_schema)

The plan (which entries, which slices) comes from the invoking tree's baselines
(bench/baseline.json, bench/baseline_many.json): each entry's slice is the baseline's, or
1/--divide of it (rounded up; `make perf-history` takes a quarter by default, to stay fast),
capped at --puzzles. Entries a commit does not have (a pipeline not yet in its registry, a
driver without SB_PERF_MANY) are recorded as "absent" and drawn as gaps.

A solver plug-in's history (--plugin-repo DIR --plugin-build CMD --plugin REL/PATH.so, on the
plug-in's baseline: `make perf-history PERF_PLUGIN_REPO=...`) takes the commits of DIR
instead: each is built by CMD in its own worktree of DIR, and this tree's perf driver, one
binary for every commit, measures the .so it gives as perf-check gates a plug-in (its
name checked, every answer checked first, the instructions inside sb_engine_solve). A commit
whose CMD fails or gives no .so is recorded once as build_failed. The records name the
plug-in and go to a file of its own (history-NAME.jsonl); this tree's revision, the
harness, is part of their toolchain, so a change here measures the plug-in's commits again.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import shutil
import sys
import tempfile
import threading
import time

from . import gate, json_schema, measure, report
from .stats import pct
from .table import print_table
from .worktree import (HistoryError, build, build_in_worktree, clean_make_env, commit_info,
                       commit_range, git, resolve, revision, toolchain)

FORMAT = "sudokubench-perf-history/1"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


# ------------------------------------------------------------------------------------------
# The plan
# ------------------------------------------------------------------------------------------

def load_plan(repo, baselines, cap, only, divide=1, plugin_repo=None):
    """Returns the entries to measure: every entry of the baseline files (relative to repo),
    each with its slice (the baseline's first puzzles divided by `divide`, rounded up, then
    capped at `cap` puzzles when cap > 0), the function it gates, and the revision that
    last changed its baseline file; `only` keeps PIPELINE:LEVEL pairs or entry keys. The
    baselines are the library's, or with plugin_repo (the repository of a plug-in's
    commits) one plug-in's: its name is each entry's "plugin", and the revision is sought in
    plugin_repo (none when the file lies outside it)."""
    plan = []
    keep = set(only.split(",")) if only else None
    names = set()
    for path in baselines:
        full = os.path.join(repo, path)
        if not os.path.exists(full):
            continue
        doc = gate.load(full)
        plugin = doc.get("plugin")
        if plugin and not plugin_repo:
            raise HistoryError(
                "%s is the baseline of plug-in '%s': the history measures this repository's "
                "commits; to chart the plug-in's own commits, name its repository: make "
                "perf-history PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so "
                "PERF_BASELINE=%s" % (path, plugin, path))
        if plugin_repo and not plugin:
            raise HistoryError(
                "%s is the baseline of %s, not of a plug-in: a plug-in's history is measured "
                "on its own baseline (make perf-baseline PERF_PLUGIN=FILE PERF_BASELINE=FILE, "
                "then PERF_BASELINE=FILE here)" % (path, gate.subject(doc)))
        names.add(plugin)
        rev = last_change(plugin_repo or repo, full)
        function = doc.get("function", measure.MEASURED_FUNCTION)
        for e in doc["entries"]:
            key = e["id"] if function == measure.MEASURED_FUNCTION \
                else "%s@%s" % (e["id"], function)
            if keep and "%s:%s" % (e["pipeline"], e["simd"]) not in keep and key not in keep:
                continue
            n = -(-e["puzzles"] // max(1, divide))
            n = min(n, cap) if cap > 0 else n
            dataset = os.path.join(repo, e["dataset"])
            if not os.path.exists(dataset):
                raise HistoryError("%s: %s is missing" % (key, e["dataset"]))
            plan.append({"entry": key, "id": e["id"], "function": function,
                         "pipeline": e["pipeline"], "simd": e["simd"],
                         "dataset": e["dataset"], "path": dataset, "puzzles": n,
                         "slice_sha256": measure.slice_sha256(dataset, n),
                         "baseline_ir": e["solve_ir"] if n == e["puzzles"] else None,
                         "baseline_rev": rev, "plugin": plugin})
    if len(names) > 1:
        raise HistoryError("the baselines %s are of plug-ins %s: a history follows one plug-in"
                           % (", ".join(baselines), ", ".join(sorted(names))))
    if not plan:
        raise HistoryError("no entries to measure (baselines %s, --only %s)"
                           % (", ".join(baselines), only or "-"))
    return plan


def last_change(repo, path):
    """Returns the commit of repo that last changed the file at path, or "" when path lies
    outside repo's work tree or was never committed."""
    top = git(repo, "rev-parse", "--show-toplevel", check=False)
    if not top:
        return ""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(top))
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return ""
    return git(top, "log", "-1", "--format=%H", "--", rel, check=False)


# ------------------------------------------------------------------------------------------
# The history file
# ------------------------------------------------------------------------------------------

def read_records(path):
    """Returns the records of a history file (none when it does not exist)."""
    if not os.path.exists(path):
        return []
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    raise HistoryError("%s:%d: not JSON: %s" % (path, n, e))
    return out


class Store:
    """The history file: the records read at start, and appends (one line each, flushed, so
    an interrupted run keeps what it measured)."""

    def __init__(self, path):
        self.path = path
        self.records = read_records(path)
        self.lock = threading.Lock()
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def append(self, rec):
        with self.lock:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(rec, sort_keys=True) + "\n")
            self.records.append(rec)

    def find(self, sha, tool_id, item=None):
        """Returns the record of commit x entry (or the commit-level record when item is
        None) measured with this toolchain on the same slice, else None (the newest wins)."""
        with self.lock:
            for r in reversed(self.records):
                if r.get("commit") != sha or r.get("toolchain_id") != tool_id:
                    continue
                if r.get("entry") is None and r.get("status") in ("build_failed", "no_driver"):
                    return r  # the commit itself cannot be measured
                if item is not None and r.get("entry") == item["entry"] and \
                        r.get("puzzles") == item["puzzles"] and \
                        r.get("slice_sha256") == item["slice_sha256"]:
                    return r
            return None


def registry(driver):
    """Returns (pipelines, levels valgrind runs) as this commit's driver lists them."""
    try:
        pipelines, levels = measure.registry(driver, under_valgrind=True)
    except (measure.PerfError, ValueError) as e:
        raise HistoryError("%s --list: %s" % (driver, e))
    return {name for name, _ in pipelines}, set(levels)


# ------------------------------------------------------------------------------------------
# What is measured: this repository's commits, or a solver plug-in's
# ------------------------------------------------------------------------------------------

class TreeCommits:
    """The commits of the repository that holds the baselines: each builds its own perf
    driver (sbperf.worktree.build), which runs the library's pipelines."""

    def __init__(self, repo, args, tool_id):
        self.repo = self.tree = repo
        self.args, self.tool_id = args, tool_id

    def build(self, sha):
        """Returns ("ok", the commit's driver) or (status, reason)."""
        return build(self.repo, sha, self.args.workdir, self.args.cc, self.args.jobs,
                     self.tool_id)

    def check(self, sha, driver, items):
        """Returns ({entry: (status, reason)} of the items this commit cannot measure, a
        progress note or None): the pipelines and levels its driver's registry lacks are
        absent."""
        note = None
        try:
            pipelines, levels = registry(driver)
        except HistoryError as e:
            pipelines, levels = set(), set()
            note = "%s: %s" % (sha[:8], e)
        absent = {it["entry"]: ("absent", "this commit's driver has no %s at %s"
                                % (it["pipeline"], it["simd"]))
                  for it in items if it["pipeline"] not in pipelines or it["simd"] not in levels}
        return absent, note

    def command(self, driver, item):
        """Returns the command that runs item's slice on the commit's driver."""
        return measure.driver_cmd(driver, item["pipeline"], item["simd"], item["puzzles"],
                                  item["path"])

    def fields(self):
        """Returns the fields this target adds to every record (none)."""
        return {}


class PluginCommits:
    """The commits of a solver plug-in's repository: each is built by the plug-in's own
    command in its worktree, and the tree's perf driver (one binary for every commit)
    measures the plug-in it gives as perf-check gates a plug-in: its name must be the
    baseline's, every answer on the slices is checked first, then callgrind counts the
    instructions inside sb_engine_solve (the driver's --plugin mode)."""

    def __init__(self, tree, args, name, build_id):
        self.tree, self.args, self.name, self.build_id = tree, args, name, build_id
        self.repo = os.path.abspath(args.plugin_repo)
        self.driver = os.path.join(tree, args.driver)
        self.workdir = os.path.join(args.workdir, "plugin-" + name)

    def build(self, sha):
        """Returns ("ok", the plug-in built at sha) or ("build_failed", reason)."""
        return build_in_worktree(self.repo, sha, self.workdir, self.build_id,
                                 self.args.plugin, self.args.plugin_build, clean_make_env(),
                                 "the plug-in's build command")

    def check(self, sha, plugin, items):
        """Returns ({entry: ("failed", reason)} for every item when the plug-in built at sha
        does not load as the baseline's, or answers a puzzle of the slices wrongly, else {};
        and a progress note or None)."""
        try:
            name = measure.plugin_name(self.driver, plugin)
            if name != self.name:
                raise measure.PerfError("the plug-in built at this commit is '%s', the "
                                        "baseline's '%s'" % (name, self.name))
            measure.verify_plugin(self.driver, plugin, name, [
                {"dataset": it["path"], "puzzles": it["puzzles"]} for it in items])
        except measure.PerfError as e:
            why = str(e)[-500:]
            failed = {it["entry"]: ("failed", why) for it in items}
            return failed, "%s: not measured: %s" % (sha[:8], why.splitlines()[0])
        return {}, None

    def command(self, plugin, item):
        """Returns the command that runs item's slice through the plug-in on the driver."""
        return measure.driver_cmd(self.driver, item["pipeline"], item["simd"], item["puzzles"],
                                  item["path"], plugin)

    def fields(self):
        """Returns the fields this target adds to every record: the plug-in's name, its
        repository and the path of its build's product."""
        return {"plugin": {"name": self.name, "repo": self.repo, "path": self.args.plugin}}


# ------------------------------------------------------------------------------------------
# Measuring one commit x entry
# ------------------------------------------------------------------------------------------

def measure_item(cmd, item, wall):
    """Runs one entry's driver command under callgrind; returns the measured fields, or
    raises measure.PerfError. An entry whose function has no cost (a driver older than
    SB_PERF_MANY never calls sb_solve_many) comes back with solve_ir 0."""
    env = dict(os.environ)
    env.pop("SB_PERF_MANY", None)
    if item["function"] == "sb_solve_many":
        env["SB_PERF_MANY"] = "1"
    with tempfile.TemporaryDirectory(prefix="perf_history.") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        p = measure.run(measure.callgrind(out, cmd), env=env)
        figures = json.loads(p.stdout.strip().splitlines()[-1])
        solve_ir, total_ir = measure.parse_callgrind(out, item["function"])
    result = {"solve_ir": solve_ir, "total_ir": total_ir,
              "ir_per_puzzle": round(solve_ir / max(1, item["puzzles"]), 1)}
    for k in ("guesses", "solved", "unsolvable", "multiple"):
        result[k] = figures.get(k)
    if figures.get("puzzles") != item["puzzles"]:
        raise measure.PerfError("driver solved %s puzzles, the slice has %d"
                           % (figures.get("puzzles"), item["puzzles"]))
    result["wall_s"] = None
    if wall:
        start = time.perf_counter()
        measure.run(cmd, env=env)
        result["wall_s"] = round(time.perf_counter() - start, 4)
    return result


def base_record(target, sha, info, facts, tool_id):
    """Returns the fields every record of a commit carries (target's own among them)."""
    rec = {"format": FORMAT, "commit": sha, "date": info[0], "subject": info[1],
           "toolchain": facts, "toolchain_id": tool_id,
           "measured_at": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%dT%H:%M:%SZ"), "host": measure.cpu_model()}
    rec.update(target.fields())
    return rec


def item_fields(item):
    """Returns the entry fields of a record."""
    return {k: item[k] for k in ("entry", "function", "pipeline", "simd", "dataset", "puzzles",
                                 "slice_sha256")}


class Progress:
    """Progress lines on stderr: one per built commit and per finished commit; on a terminal
    a live counter of measured entries as well."""

    def __init__(self, total):
        self.total, self.done = total, 0
        self.tty = sys.stderr.isatty()
        self.lock = threading.Lock()
        self.start = time.perf_counter()

    def line(self, text):
        with self.lock:
            if self.tty:
                sys.stderr.write("\r\033[K")
            sys.stderr.write("perf-history: %s\n" % text)
            sys.stderr.flush()

    def tick(self, what):
        with self.lock:
            self.done += 1
            if self.tty:
                sys.stderr.write("\r\033[Kperf-history: %d/%d entries measured (%.0f s) %s"
                                 % (self.done, self.total, time.perf_counter() - self.start,
                                    what))
                sys.stderr.flush()


def run_history(target, commits, plan, store, args, facts, tool_id):
    """Measures every commit x entry not yet in the store; target (TreeCommits or
    PluginCommits) builds each commit and says what its build can measure. Builds run one
    commit at a time in this thread (make -jJOBS) while a pool of JOBS callgrind processes
    measures the commits already built. Returns the number of records written."""
    todo = []
    for sha in commits:
        if store.find(sha, tool_id) is not None:
            continue
        items = [it for it in plan if store.find(sha, tool_id, it) is None]
        if items:
            todo.append((sha, items))
    cached = len(commits) - len(todo)
    progress = Progress(sum(len(items) for _, items in todo))
    if cached:
        progress.line("%d of %d commits already measured with toolchain %s, reused"
                      % (cached, len(commits), tool_id))
    written = [0]
    remaining = {}
    done_lock = threading.Lock()

    def finished(sha, rec):
        store.append(rec)
        with done_lock:
            written[0] += 1
            remaining[sha] -= 1
            last = remaining[sha] == 0
        progress.tick("%s %s" % (sha[:8], rec["entry"]))
        if last:
            progress.line("%s done (%.0f s since start)" % (sha[:8],
                                                            time.perf_counter() - progress.start))

    def work(sha, info, built, item, unmeasurable):
        rec = base_record(target, sha, info, facts, tool_id)
        rec.update(item_fields(item))
        if item["entry"] in unmeasurable:
            status, reason = unmeasurable[item["entry"]]
            rec.update(status=status, reason=reason)
        else:
            try:
                got = measure_item(target.command(built, item), item, args.wall)
                if got["solve_ir"] == 0:
                    rec.update(status="absent", reason="no cost inside %s (this commit's "
                               "driver does not call it)" % item["function"])
                else:
                    rec.update(status="ok", **got)
            except (measure.PerfError, ValueError, KeyError, IndexError) as e:
                rec.update(status="failed", reason=str(e)[-500:])
        finished(sha, rec)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = []
        for n, (sha, items) in enumerate(todo, 1):
            info = commit_info(target.repo, sha)
            t0 = time.perf_counter()
            progress.line("[%d/%d] %s building: %s" % (n, len(todo), sha[:8], info[1][:70]))
            status, what = target.build(sha)
            if status != "ok":
                rec = base_record(target, sha, info, facts, tool_id)
                rec.update(entry=None, status=status, reason=what)
                store.append(rec)
                written[0] += 1
                progress.line("[%d/%d] %s %s: %s; skipped" % (n, len(todo), sha[:8],
                                                                status.replace("_", " "), what))
                progress.total -= len(items)
                continue
            unmeasurable, note = target.check(sha, what, items)
            if note:
                progress.line(note)
            progress.line("[%d/%d] %s built in %.1f s; measuring %d entries"
                          % (n, len(todo), sha[:8], time.perf_counter() - t0, len(items)))
            with done_lock:
                remaining[sha] = len(items)
            for item in items:
                futures.append(pool.submit(work, sha, info, what, item, unmeasurable))
        for f in futures:
            f.result()
    return written[0]


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

def plugin_options(args):
    """Returns whether the options ask for a plug-in's history (--plugin-repo), after
    checking that its build command and product are given; raises HistoryError naming what
    is missing."""
    given = [o for o in ("plugin_repo", "plugin_build", "plugin") if getattr(args, o)]
    if not given:
        return False
    if len(given) < 3:
        raise HistoryError("a plug-in's history takes its repository, its build command and "
                           "the path of the .so it gives: PERF_PLUGIN_REPO=DIR "
                           "PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so (--plugin-repo, "
                           "--plugin-build, --plugin)")
    if os.path.isabs(args.plugin):
        raise HistoryError("PERF_PLUGIN=%s: with PERF_PLUGIN_REPO it is the path of the .so "
                           "relative to the plug-in's repository" % args.plugin)
    return True


def history_file(args, plugin):
    """Returns the history file: --out, else REPORTS/history.jsonl, or history-NAME.jsonl for
    plug-in NAME (REPORTS: --reports, else REPO/build/reports)."""
    if args.out:
        return os.path.abspath(args.out)
    reports = args.reports or os.path.join(args.repo, "build", "reports")
    return os.path.abspath(os.path.join(reports, "history-%s.jsonl" % plugin if plugin
                                        else "history.jsonl"))


def common(args):
    """Returns (target, plan, store, facts, tool_id) from the shared options: target the
    commits measured (this repository's, or with --plugin-repo a plug-in's: PluginCommits),
    the plan from this repository's baselines."""
    repo = os.path.abspath(args.repo)
    git(repo, "rev-parse", "--git-dir")
    args.workdir = os.path.abspath(args.workdir or os.path.join(repo, "build", "history"))
    os.makedirs(args.workdir, exist_ok=True)
    of_plugin = plugin_options(args)
    if of_plugin:
        git(args.plugin_repo, "rev-parse", "--git-dir")
    plan = load_plan(repo, args.baseline, args.puzzles, args.only, args.divide,
                     os.path.abspath(args.plugin_repo) if of_plugin else None)
    name = plan[0]["plugin"]
    store = Store(history_file(args, name))
    if shutil.which("valgrind") is None:
        raise HistoryError("valgrind not found (Debian package valgrind; run 'make deps-perf')")
    if not of_plugin:
        facts, tool_id = toolchain(args.cc)
        return TreeCommits(repo, args, tool_id), plan, store, facts, tool_id
    # The plug-in's worktree is built again when its command or compiler changes; its
    # counts are measured again when the harness (this tree) changes as well.
    build_facts = "%s (the plug-in's command, in its worktree) giving %s; measured by %s" % (
        args.plugin_build, args.plugin, args.driver)
    _, build_id = toolchain(args.cc, build_facts)
    facts, tool_id = toolchain(args.cc, build_facts, revision(repo))
    target = PluginCommits(repo, args, name, build_id)
    if not os.path.exists(target.driver):
        raise HistoryError("no perf driver at %s (make %s)" % (target.driver, args.driver))
    return target, plan, store, facts, tool_id


def cmd_run(args):
    """Measures a range of commits into the history file, then draws the chart."""
    start = time.perf_counter()
    target, plan, store, facts, tool_id = common(args)
    commits = commit_range(target.repo, args.rev, args.count)
    if not commits:
        raise HistoryError("no commits in %r" % args.rev)
    # On reduced slices the baseline's figures do not apply: the revision that wrote the
    # baseline is measured on the same slices instead and gives the chart its reference.
    refs = sorted({it["baseline_rev"] for it in plan if it["baseline_ir"] is None and
                   it["baseline_rev"] and it["baseline_rev"] not in commits})
    print("perf-history: %d commits%s x %d entries (%s%s), toolchain %s, %d jobs -> %s"
          % (len(commits), " of plug-in '%s' (%s)" % (plan[0]["plugin"], target.repo)
             if plan[0]["plugin"] else "", len(plan), slice_words(args),
             ", only " + args.only if args.only else "", tool_id, args.jobs,
             os.path.relpath(store.path)), file=sys.stderr)
    if refs:
        print("perf-history: reference: the baseline's revision %s, measured on the same "
              "slices" % ", ".join(r[:8] for r in refs), file=sys.stderr)
    n = run_history(target, refs + commits, plan, store, args, facts, tool_id)
    print("perf-history: %d records written, %d commits in %.0f s"
          % (n, len(commits), time.perf_counter() - start), file=sys.stderr)
    summary(commits, plan, store, tool_id)
    if args.chart:
        return report.chart(target.repo, commits, plan, store, tool_id, args)
    return 0


def slice_words(args):
    """Returns how the slices relate to the baseline's, for the progress lines."""
    if args.divide <= 1 and not args.puzzles:
        return "the baseline's slices"
    words = []
    if args.divide > 1:
        words.append("1/%d of each baseline slice" % args.divide)
    if args.puzzles:
        words.append("at most %d puzzles" % args.puzzles)
    return " and ".join(words)


def summary(commits, plan, store, tool_id):
    """Prints a compact table: per commit, the status counts and the largest change of any
    entry over the previous measured commit."""
    prev = {}
    rows = [("commit", "date", "ok", "absent", "other", "largest change vs previous", "subject")]
    for sha in commits:
        c = store.find(sha, tool_id)
        if c is not None:
            rows.append((sha[:8], c["date"][:10], "-", "-", c["status"], "-", c["subject"][:60]))
            continue
        recs = [store.find(sha, tool_id, it) for it in plan]
        recs = [r for r in recs if r is not None]
        if not recs:
            continue
        counts = {"ok": 0, "absent": 0}
        worst = None
        for r in recs:
            counts[r["status"] if r["status"] in counts else "other"] = \
                counts.get(r["status"] if r["status"] in counts else "other", 0) + 1
            if r["status"] == "ok":
                p = prev.get(r["entry"])
                if p:
                    d = pct(r["solve_ir"], p)
                    if worst is None or abs(d) > abs(worst[0]):
                        worst = (d, r["entry"])
                prev[r["entry"]] = r["solve_ir"]
        rows.append((sha[:8], recs[0]["date"][:10], str(counts["ok"]), str(counts["absent"]),
                     str(counts.get("other", 0)),
                     "%+.2f%% %s" % worst if worst else "-", recs[0]["subject"][:60]))
    print_table(rows, sys.stdout)


def cmd_chart(args):
    """Draws the chart of a range from the records already in the history file."""
    target, plan, store, _, tool_id = common(args)
    commits = commit_range(target.repo, args.rev, args.count)
    return report.chart(target.repo, commits, plan, store, tool_id, args)


def cmd_build(args):
    """Builds one revision's driver (cached) and prints its path; exit 2 when it cannot."""
    repo = os.path.abspath(args.repo)
    args.workdir = os.path.abspath(args.workdir or os.path.join(repo, "build", "history"))
    _, tool_id = toolchain(args.cc)
    sha = resolve(repo, args.rev)
    status, what = build(repo, sha, args.workdir, args.cc, args.jobs, tool_id)
    if status != "ok":
        print("perf-history: %s (%s): %s: %s" % (args.rev, sha[:8], status, what),
              file=sys.stderr)
        return 2
    print(what)
    return 0


def cmd_validate(args):
    """Validates every record of a history file against the schema."""
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    bad = 0
    records = read_records(args.history)
    for n, rec in enumerate(records, 1):
        for err in json_schema.validate(rec, schema):
            print("%s: record %d: %s" % (args.history, n, err))
            bad += 1
    print("perf-history: %d records, %d schema errors" % (len(records), bad))
    return 1 if bad else 0


def add_shared_options(p):
    """Adds the options every command that measures takes (sbperf.bisect's as well)."""
    p.add_argument("--repo", default=".", help="the repository (default: the cwd)")
    p.add_argument("--workdir", help="worktrees, logs, ccache (default REPO/build/history)")
    p.add_argument("--out", help="history file (default REPORTS/history.jsonl, or "
                   "history-NAME.jsonl for plug-in NAME)")
    p.add_argument("--reports", help="directory of the default history file (default "
                   "REPO/build/reports)")
    p.add_argument("--baseline", nargs="+",
                   default=["bench/baseline.json", "bench/baseline_many.json"],
                   help="baselines whose entries and slices form the plan")
    p.add_argument("--divide", type=int, default=1,
                   help="take 1/N of each baseline slice, rounded up (default 1: all)")
    p.add_argument("--puzzles", type=int, default=0,
                   help="cap every slice at N puzzles (0: no cap)")
    p.add_argument("--only", help="comma list of PIPELINE:LEVEL or entry keys")
    p.add_argument("--cc", default="cc", help="compiler for the builds (recorded)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--threshold", type=float, default=2.0)
    p.add_argument("--no-wall", dest="wall", action="store_false",
                   help="skip the native timing run (wall time is information only)")
    p.add_argument("--rev", default="", help="A..B, one revision, or empty: --count")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--outdir", help="chart directory (default: the history file's)")
    p.add_argument("--plugin-repo", metavar="DIR",
                   help="chart the commits of this solver plug-in's repository instead, on "
                   "the plug-in's --baseline (make perf-baseline PERF_PLUGIN=...)")
    p.add_argument("--plugin-build", metavar="CMD",
                   help="with --plugin-repo: the shell command that builds the plug-in, run "
                   "in the root of each commit's worktree")
    p.add_argument("--plugin", metavar="REL/PATH.so",
                   help="with --plugin-repo: the .so CMD gives, relative to the worktree")
    p.add_argument("--driver", default="build/perf/perf_driver",
                   help="with --plugin-repo: the perf driver that measures every commit's "
                   "plug-in, relative to REPO (default build/perf/perf_driver)")


def main(argv):
    """Parses the command line and runs a command; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="measure a range of commits")
    add_shared_options(r)
    r.add_argument("--no-chart", dest="chart", action="store_false")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("chart", help="draw the chart of a range")
    add_shared_options(c)
    c.set_defaults(func=cmd_chart)
    u = sub.add_parser("build", help="build a revision's driver, print its path")
    u.add_argument("--repo", default=".")
    u.add_argument("--workdir")
    u.add_argument("--cc", default="cc")
    u.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    u.add_argument("rev")
    u.set_defaults(func=cmd_build)
    v = sub.add_parser("validate", help="validate a history file against the schema")
    v.add_argument("history")
    v.add_argument("--schema", default=os.path.join(ROOT, "bench", "history.schema.json"))
    v.set_defaults(func=cmd_validate)

    return dispatch(ap.parse_args(argv))


def dispatch(args, error_exit=2):
    """Runs a parsed command (sbperf.bisect's as well); a condition under which nothing can be
    measured is a message and error_exit."""
    try:
        return args.func(args)
    except (HistoryError, measure.PerfError) as e:
        print("perf-history: error: %s" % e, file=sys.stderr)
        return error_exit


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
