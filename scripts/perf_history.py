#!/usr/bin/env python3
"""perf_history.py — performance history over commits: `make perf-history`, `make perf-bisect`
(stdlib only; docs/ci.md "History and bisect").

The measurement is the gate's own (scripts/perf_check.py): callgrind instructions inside
sb_solve (or sb_solve_many), callees included, for each entry of the gate's baseline, on
the same committed slices. What this script adds is the axis of commits: each commit is
built from its own git worktree under WORKDIR/wt/ (the user's checkout, branch, index and
bisect state are never touched), its perf driver runs under callgrind, and one JSON record
per commit x entry is appended to a JSON Lines file (schema: bench/history.schema.json).

Commands
  run       measure the commits of a range into the history file (cached: a commit x entry
            already measured with the same toolchain and slice is not measured again; a
            commit that does not build is recorded once and skipped afterwards)
  chart     Ir per puzzle over the commits, per entry, with the baseline and the threshold
            band: history.png, history.svg (gnuplot, scripts/history.gp) and history.html
  bisect    `git bisect run` in a throwaway clone, with this measurement as the test:
            the first commit whose count for the entry rose above the threshold over GOOD
  step      the test `git bisect run` calls (exit 0 good, 1 bad, 125 skip, 128 abort)
  build     build one revision's perf driver (cached) and print its path
  validate  check a history file against the JSON Schema (scripts/json_schema.py)

The plan (which entries, which slices) comes from the invoking tree's baselines
(bench/baseline.json, bench/baseline_many.json): each entry's slice is the baseline's, or
1/--divide of it (rounded up; `make perf-history` takes a quarter by default, to stay fast),
capped at --puzzles. The chart draws each entry around a reference: the baseline's own
figure when the slice is the baseline's, else the revision that wrote the baseline,
measured here on the same slice (so the band is still the gate's), else the range's first
commit. Entries a commit does not have (a pipeline not yet in its registry, a driver
without SB_PERF_MANY) are recorded as "absent" and drawn as gaps.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
import perf_check as pc  # noqa: E402  (the gate's parser and helpers)

FORMAT = "sudokubench-perf-history/1"
DRIVER_SRC = "bench/perf_driver.c"
DRIVER_TARGET = "build/perf/perf_driver"
EXIT_GOOD, EXIT_BAD, EXIT_SKIP, EXIT_ABORT = 0, 1, 125, 128


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


# ------------------------------------------------------------------------------------------
# The plan and the toolchain
# ------------------------------------------------------------------------------------------

def load_plan(repo, baselines, cap, only, divide=1):
    """Returns the entries to measure: every entry of the baseline files (relative to repo),
    each with its slice (the baseline's first puzzles divided by `divide`, rounded up, then
    capped at `cap` puzzles when cap > 0), the function it gates, and the revision that
    last changed its baseline file; `only` keeps PIPELINE:LEVEL pairs or entry keys."""
    plan = []
    keep = set(only.split(",")) if only else None
    for path in baselines:
        full = os.path.join(repo, path)
        if not os.path.exists(full):
            continue
        doc = pc.load(full)
        rev = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%H", "--", path],
                             capture_output=True, text=True).stdout.strip()
        function = doc.get("function", pc.MEASURED_FUNCTION)
        for e in doc["entries"]:
            key = e["id"] if function == pc.MEASURED_FUNCTION else "%s@%s" % (e["id"], function)
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
                         "slice_sha256": pc.slice_sha256(dataset, n),
                         "baseline_ir": e["solve_ir"] if n == e["puzzles"] else None,
                         "baseline_rev": rev})
    if not plan:
        raise HistoryError("no entries to measure (baselines %s, --only %s)"
                           % (", ".join(baselines), only or "-"))
    return plan


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


def registry(driver):
    """Returns (pipelines, levels valgrind runs) as this commit's driver lists them."""
    try:
        pipelines, levels = pc.registry(driver, under_valgrind=True)
    except (pc.PerfError, ValueError) as e:
        raise HistoryError("%s --list: %s" % (driver, e))
    return {name for name, _ in pipelines}, set(levels)


# ------------------------------------------------------------------------------------------
# Measuring one commit x entry
# ------------------------------------------------------------------------------------------

def measure(driver, item, wall):
    """Runs one entry under callgrind; returns the measured fields, or raises
    pc.PerfError. An entry whose function has no cost (a driver older than SB_PERF_MANY
    never calls sb_solve_many) comes back with solve_ir 0."""
    env = dict(os.environ)
    env.pop("SB_PERF_MANY", None)
    if item["function"] == "sb_solve_many":
        env["SB_PERF_MANY"] = "1"
    cmd = [driver, item["pipeline"], item["simd"], str(item["puzzles"]), item["path"]]
    with tempfile.TemporaryDirectory(prefix="perf_history.") as tmp:
        out = os.path.join(tmp, "callgrind.out")
        p = pc.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--compress-strings=no", "--compress-pos=no"] + cmd, env=env)
        figures = json.loads(p.stdout.strip().splitlines()[-1])
        solve_ir, total_ir = pc.parse_callgrind(out, item["function"])
    result = {"solve_ir": solve_ir, "total_ir": total_ir,
              "ir_per_puzzle": round(solve_ir / max(1, item["puzzles"]), 1)}
    for k in ("guesses", "solved", "unsolvable", "multiple"):
        result[k] = figures.get(k)
    if figures.get("puzzles") != item["puzzles"]:
        raise pc.PerfError("driver solved %s puzzles, the slice has %d"
                           % (figures.get("puzzles"), item["puzzles"]))
    result["wall_s"] = None
    if wall:
        start = time.perf_counter()
        pc.run(cmd, env=env)
        result["wall_s"] = round(time.perf_counter() - start, 4)
    return result


def base_record(sha, info, facts, tool_id):
    """Returns the fields every record of a commit carries."""
    return {"format": FORMAT, "commit": sha, "date": info[0], "subject": info[1],
            "toolchain": facts, "toolchain_id": tool_id,
            "measured_at": datetime.datetime.now(datetime.timezone.utc)
            .strftime("%Y-%m-%dT%H:%M:%SZ"), "host": pc.cpu_model()}


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


def run_history(repo, commits, plan, store, args, facts, tool_id):
    """Measures every commit x entry not yet in the store. Builds run one commit at a time
    in this thread (make -jJOBS) while a pool of JOBS callgrind processes measures the
    commits already built. Returns the number of records written."""
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

    def work(sha, info, driver, item, have):
        rec = base_record(sha, info, facts, tool_id)
        rec.update(item_fields(item))
        if item["pipeline"] not in have[0] or item["simd"] not in have[1]:
            rec.update(status="absent", reason="this commit's driver has no %s at %s"
                       % (item["pipeline"], item["simd"]))
        else:
            try:
                got = measure(driver, item, args.wall)
                if got["solve_ir"] == 0:
                    rec.update(status="absent", reason="no cost inside %s (this commit's "
                               "driver does not call it)" % item["function"])
                else:
                    rec.update(status="ok", **got)
            except (pc.PerfError, ValueError, KeyError, IndexError) as e:
                rec.update(status="failed", reason=str(e)[-500:])
        finished(sha, rec)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = []
        for n, (sha, items) in enumerate(todo, 1):
            info = commit_info(repo, sha)
            t0 = time.perf_counter()
            progress.line("[%d/%d] %s building: %s" % (n, len(todo), sha[:8], info[1][:70]))
            status, what = build(repo, sha, args.workdir, args.cc, args.jobs, tool_id)
            if status != "ok":
                rec = base_record(sha, info, facts, tool_id)
                rec.update(entry=None, status=status, reason=what)
                store.append(rec)
                written[0] += 1
                progress.line("[%d/%d] %s %s: %s; skipped" % (n, len(todo), sha[:8],
                                                                status.replace("_", " "), what))
                progress.total -= len(items)
                continue
            try:
                have = registry(what)
            except HistoryError as e:
                have = (set(), set())
                progress.line("%s: %s" % (sha[:8], e))
            progress.line("[%d/%d] %s built in %.1f s; measuring %d entries"
                          % (n, len(todo), sha[:8], time.perf_counter() - t0, len(items)))
            with done_lock:
                remaining[sha] = len(items)
            for item in items:
                futures.append(pool.submit(work, sha, info, what, item, have))
        for f in futures:
            f.result()
    return written[0]


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

def common(args):
    """Returns (repo, plan, store, facts, tool_id) from the shared options."""
    repo = os.path.abspath(args.repo)
    git(repo, "rev-parse", "--git-dir")
    args.workdir = os.path.abspath(args.workdir or os.path.join(repo, "build", "history"))
    os.makedirs(args.workdir, exist_ok=True)
    plan = load_plan(repo, args.baseline, args.puzzles, args.only, args.divide)
    store = Store(os.path.abspath(args.out or os.path.join(repo, "build", "reports",
                                                           "history.jsonl")))
    if shutil.which("valgrind") is None:
        raise HistoryError("valgrind not found (Debian package valgrind; run 'make deps')")
    facts, tool_id = toolchain(args.cc)
    return repo, plan, store, facts, tool_id


def cmd_run(args):
    """Measures a range of commits into the history file, then draws the chart."""
    start = time.perf_counter()
    repo, plan, store, facts, tool_id = common(args)
    commits = commit_range(repo, args.rev, args.count)
    if not commits:
        raise HistoryError("no commits in %r" % args.rev)
    # On reduced slices the baseline's figures do not apply: the revision that wrote the
    # baseline is measured on the same slices instead and gives the chart its reference.
    refs = sorted({it["baseline_rev"] for it in plan if it["baseline_ir"] is None and
                   it["baseline_rev"] and it["baseline_rev"] not in commits})
    print("perf-history: %d commits x %d entries (%s%s), toolchain %s, %d jobs -> %s"
          % (len(commits), len(plan), slice_words(args),
             ", only " + args.only if args.only else "", tool_id, args.jobs,
             os.path.relpath(store.path)), file=sys.stderr)
    if refs:
        print("perf-history: reference: the baseline's revision %s, measured on the same "
              "slices" % ", ".join(r[:8] for r in refs), file=sys.stderr)
    n = run_history(repo, refs + commits, plan, store, args, facts, tool_id)
    print("perf-history: %d records written, %d commits in %.0f s"
          % (n, len(commits), time.perf_counter() - start), file=sys.stderr)
    summary(commits, plan, store, tool_id)
    if args.chart:
        return chart(repo, commits, plan, store, tool_id, args)
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
                    d = pc.pct(r["solve_ir"], p)
                    if worst is None or abs(d) > abs(worst[0]):
                        worst = (d, r["entry"])
                prev[r["entry"]] = r["solve_ir"]
        rows.append((sha[:8], recs[0]["date"][:10], str(counts["ok"]), str(counts["absent"]),
                     str(counts.get("other", 0)),
                     "%+.2f%% %s" % worst if worst else "-", recs[0]["subject"][:60]))
    pc.print_table(rows, sys.stdout)


def series(commits, plan, store, tool_id):
    """Returns {entry: [record or None per commit]} for the charted toolchain."""
    out = {}
    for item in plan:
        out[item["entry"]] = [(lambda r: r if r and r.get("status") == "ok" else None)
                              (store.find(sha, tool_id, item)) for sha in commits]
    return out


def reference(item, values, store=None, tool_id=None):
    """Returns (Ir per puzzle the band is drawn around, its label): the baseline's figure
    when the slice is the baseline's, else the baseline's revision measured on the same
    slice, else the first measured commit of the range."""
    if item["baseline_ir"] is not None:
        return item["baseline_ir"] / item["puzzles"], "baseline"
    if store is not None and item.get("baseline_rev"):
        r = store.find(item["baseline_rev"], tool_id, item)
        if r is not None and r.get("status") == "ok":
            return r["ir_per_puzzle"], "baseline rev %s" % item["baseline_rev"][:7]
    for r in values:
        if r is not None:
            return r["ir_per_puzzle"], "first commit"
    return None, None


def chart(repo, commits, plan, store, tool_id, args):
    """Writes history.png, history.svg (scripts/history.gp) and history.html in outdir."""
    outdir = os.path.abspath(args.outdir or os.path.dirname(store.path))
    data = os.path.join(outdir, "data", "history")
    if os.path.isdir(data):
        shutil.rmtree(data)
    os.makedirs(data)
    ser = series(commits, plan, store, tool_id)
    infos = []
    for sha in commits:
        rec = next((r for r in store.records if r.get("commit") == sha), None)
        infos.append((rec["date"], rec["subject"]) if rec else commit_info(repo, sha))
    drawn = []
    for k, item in enumerate(plan):
        values = ser[item["entry"]]
        if not any(values):
            continue
        ref, label = reference(item, values, store, tool_id)
        name = "e%02d.dat" % k
        with open(os.path.join(data, name), "w", encoding="utf-8") as f:
            f.write("x ir_per_puzzle\n")
            for i, r in enumerate(values, 1):
                f.write("%d %s\n" % (i, ("%.1f" % r["ir_per_puzzle"]) if r else "-"))
        drawn.append((item, name, ref, label))
    with open(os.path.join(data, "commits.dat"), "w", encoding="utf-8") as f:
        for i, sha in enumerate(commits, 1):
            f.write("%d %s\n" % (i, sha[:7]))
    # gnuplot reads its parameters from this generated file (data, not code).
    with open(os.path.join(data, "vars.gp"), "w", encoding="utf-8") as f:
        f.write("n_entries = %d\nn_commits = %d\nthreshold = %g\n"
                % (len(drawn), len(commits), args.threshold))
        for j, (item, name, ref, label) in enumerate(drawn, 1):
            f.write('file_%d = "%s"\ntitle_%d = "%s"\nref_%d = %r\nreflabel_%d = "%s"\n'
                    % (j, name, j, item["entry"], j, ref, j, label))
    status = 0
    if not drawn:
        print("perf-history: no entry was measured in this range: no chart", file=sys.stderr)
    elif shutil.which("gnuplot") is None:
        print("perf-history: gnuplot not found (Debian package gnuplot-nox: make deps); "
              "no chart", file=sys.stderr)
        status = 2
    else:
        for term in ("png", "svg"):
            p = subprocess.run(["gnuplot", "-e", "dir='%s'; term='%s'" % (outdir, term),
                                os.path.join(HERE, "history.gp")],
                               capture_output=True, text=True)
            if p.returncode != 0:
                print("perf-history: gnuplot failed:\n" + p.stderr, file=sys.stderr)
                status = 2
    write_html(os.path.join(outdir, "history.html"), commits, infos, drawn, ser, args,
               tool_id)
    print("perf-history: chart %s/history.{png,svg}, page %s/history.html"
          % (os.path.relpath(outdir), os.path.relpath(outdir)), file=sys.stderr)
    return status


def write_html(path, commits, infos, drawn, ser, args, tool_id):
    """Writes the page: the chart, the commits with their subjects, and per entry the change
    of each commit against the reference (above the threshold highlighted)."""
    import html
    e = html.escape
    rows = []
    for i, sha in enumerate(commits):
        cells = []
        for item, _, ref, _ in drawn:
            r = ser[item["entry"]][i]
            if r is None or not ref:
                cells.append("<td>-</td>")
                continue
            d = (r["ir_per_puzzle"] - ref) * 100.0 / ref
            cls = ' class="up"' if d > args.threshold else ' class="down"' \
                if d < -args.threshold else ""
            cells.append('<td%s title="%s Ir/puzzle">%+.2f%%</td>'
                         % (cls, pc.fmt_int(int(r["ir_per_puzzle"])), d))
        rows.append("<tr><td>%d</td><td><code>%s</code></td><td>%s</td><td>%s</td>%s</tr>"
                    % (i + 1, sha[:10], e(infos[i][0][:10]), e(infos[i][1]), "".join(cells)))
    head = "".join("<th>%s<br><small>vs %s</small></th>" % (e(item["entry"]), e(label))
                   for item, _, _, label in drawn)
    page = """<!doctype html>
<html><head><meta charset="utf-8"><title>sudokubench performance history</title>
<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse;font-size:80%%}
td,th{border:1px solid #ccc;padding:2px 5px;text-align:right}td:nth-child(4){text-align:left}
.up{background:#f4b6b6}.down{background:#b6e3b6}img{max-width:100%%}</style></head><body>
<h1>Performance history</h1>
<p>Callgrind instructions inside the gated function per puzzle, one panel per entry, over
%d commits (x axis: the numbers of the table below). Dashed line: the reference (the
baseline's figure when the slice is the baseline's, else the revision that wrote the
baseline measured on the same slice, else the first commit measured); band:
&plusmn;%g%%, the gate's threshold. Toolchain %s. Generated by <code>make perf-history</code>
(scripts/perf_history.py; docs/ci.md).</p>
<p><img src="history.svg" alt="trend chart (history.png)"></p>
<table><tr><th>#</th><th>commit</th><th>date</th><th>subject</th>%s</tr>
%s
</table></body></html>
""" % (len(commits), args.threshold, e(tool_id), head, "\n".join(rows))
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)


def cmd_chart(args):
    """Draws the chart of a range from the records already in the history file."""
    repo, plan, store, _, tool_id = common(args)
    commits = commit_range(repo, args.rev, args.count)
    return chart(repo, commits, plan, store, tool_id, args)


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


def measured(repo, sha, items, store, args, facts, tool_id):
    """Measures (or reuses) sha x items; returns {entry: record} (commit-level failures as
    the same record for every entry)."""
    run_history(repo, [sha], items, store, args, facts, tool_id)
    c = store.find(sha, tool_id)
    return {it["entry"]: c or store.find(sha, tool_id, it) for it in items}


def cmd_step(args):
    """One `git bisect run` step: the commit under test is BISECT_HEAD of the bisecting
    repository (the cwd); exit 0 when its count is within the threshold of --ref-ir, 1 when
    above, 125 when it cannot be measured, 128 (abort the bisection) on any other error."""
    try:
        repo, plan, store, facts, tool_id = common(args)
        here = os.getcwd()
        sha = git(here, "rev-parse", "BISECT_HEAD", check=False) or git(here, "rev-parse", "HEAD")
        item = next(it for it in plan if it["entry"] == args.entry)
        rec = measured(repo, sha, [item], store, args, facts, tool_id)[item["entry"]]
        subject = commit_info(repo, sha)[1]
        if rec is None or rec["status"] != "ok":
            print("perf-bisect: %s %s: skip (%s)" % (sha[:8], subject[:60],
                                                  rec["status"] if rec else "?"),
                  file=sys.stderr)
            return EXIT_SKIP
        d = pc.pct(rec["solve_ir"], args.ref_ir)
        bad = d > args.threshold
        print("perf-bisect: %s %+.2f%% %s: %s" % (sha[:8], d, "BAD" if bad else "good",
                                                subject[:60]), file=sys.stderr)
        return EXIT_BAD if bad else EXIT_GOOD
    except Exception as e:  # an error must abort the bisection, never read as "bad"
        print("perf-bisect: step error: %s" % e, file=sys.stderr)
        return EXIT_ABORT


def cmd_bisect(args):
    """Finds the first commit of GOOD..BAD whose count rose above the threshold."""
    repo, plan, store, facts, tool_id = common(args)
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
    g = measured(repo, good, items, store, args, facts, tool_id)
    b = measured(repo, bad, items, store, args, facts, tool_id)
    deltas = []
    for it in items:
        rg, rb = g[it["entry"]], b[it["entry"]]
        if rg and rb and rg["status"] == "ok" and rb["status"] == "ok":
            deltas.append((pc.pct(rb["solve_ir"], rg["solve_ir"]), it, rg, rb))
    if not deltas:
        raise HistoryError("no entry could be measured at both GOOD and BAD")
    d, item, rg, rb = max(deltas, key=lambda t: t[0])
    print("perf-bisect: %s: GOOD %s Ir, BAD %s Ir (%+.2f%%)%s"
          % (item["entry"], pc.fmt_int(rg["solve_ir"]), pc.fmt_int(rb["solve_ir"]), d,
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
        step = [sys.executable, os.path.abspath(__file__), "step", "--repo", repo,
                "--workdir", args.workdir, "--out", store.path, "--cc", args.cc,
                "--jobs", str(args.jobs), "--puzzles", str(args.puzzles),
                "--divide", str(args.divide),
                "--entry", item["entry"], "--ref-ir", str(rg["solve_ir"]),
                "--threshold", str(args.threshold), "--no-wall", "--baseline"] + args.baseline
        p = subprocess.run(["git", "-C", clone, "bisect", "run"] + step,
                           capture_output=True, text=True, cwd=clone)
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
    store = Store(store.path)  # the steps appended in other processes
    rec = store.find(first, tool_id, item)
    date, subject = commit_info(repo, first)
    parent = git(repo, "rev-parse", first + "^")
    prec = store.find(parent, tool_id, item)
    own = ""
    if prec and prec.get("status") == "ok":
        own = "; %+.2f%% over its parent %s" % (pc.pct(rec["solve_ir"], prec["solve_ir"]),
                                               parent[:8])
    print("perf-bisect: first commit above +%.1f%% for %s:" % (args.threshold, item["entry"]))
    print("  %s %s" % (first, subject))
    print("  %s: %s -> %s Ir (%+.2f%% over GOOD %s%s)" % (
        date[:10], pc.fmt_int(rg["solve_ir"]), pc.fmt_int(rec["solve_ir"]),
        pc.pct(rec["solve_ir"], rg["solve_ir"]), good[:8], own))
    return 0


def cmd_validate(args):
    """Validates every record of a history file against the schema."""
    import json_schema
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


def main(argv):
    """Parses the command line and runs a command; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    def shared(p):
        p.add_argument("--repo", default=".", help="the repository (default: the cwd)")
        p.add_argument("--workdir", help="worktrees, logs, ccache (default REPO/build/history)")
        p.add_argument("--out", help="history file (default REPO/build/reports/history.jsonl)")
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

    r = sub.add_parser("run", help="measure a range of commits")
    shared(r)
    r.add_argument("--no-chart", dest="chart", action="store_false")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("chart", help="draw the chart of a range")
    shared(c)
    c.set_defaults(func=cmd_chart)
    b = sub.add_parser("bisect", help="find the commit that crossed the threshold")
    shared(b)
    b.add_argument("--good", required=True)
    b.add_argument("--bad", required=True)
    b.add_argument("--entry", help="entry key (default: the worst entry)")
    b.set_defaults(func=cmd_bisect)
    s = sub.add_parser("step", help="one git bisect run step (internal)")
    shared(s)
    s.add_argument("--entry", required=True)
    s.add_argument("--ref-ir", type=int, required=True)
    s.set_defaults(func=cmd_step)
    u = sub.add_parser("build", help="build a revision's driver, print its path")
    u.add_argument("--repo", default=".")
    u.add_argument("--workdir")
    u.add_argument("--cc", default="cc")
    u.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    u.add_argument("rev")
    u.set_defaults(func=cmd_build)
    v = sub.add_parser("validate", help="validate a history file against the schema")
    v.add_argument("history")
    v.add_argument("--schema", default=os.path.join(HERE, "..", "bench",
                                                    "history.schema.json"))
    v.set_defaults(func=cmd_validate)

    args = ap.parse_args(argv)
    try:
        return args.func(args)
    except (HistoryError, pc.PerfError) as e:
        print("perf-history: error: %s" % e, file=sys.stderr)
        return EXIT_ABORT if args.command == "step" else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
