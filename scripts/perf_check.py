#!/usr/bin/env python3
"""perf_check.py — the performance regression gate of `make perf-check` (stdlib only).

The gate counts instructions, not seconds: callgrind runs bench/perf_driver (one thread, one
pipeline, one explicit SIMD level, the first N puzzles of a committed sample) and this script
takes the instructions executed inside sb_solve, callees included ("solve Ir"). Those counts
are the same on every run of the same binary and input, so a 2% threshold needs no
repetitions and never flakes; parsing and I/O fall outside sb_solve and cannot trip it (the
whole process, "total Ir", is shown beside it for information).

Commands
  baseline  choose the workload (entries kept from the old baseline; new registry entries
            get a slice calibrated to ~--target-ms of native time), measure it, record
            Google Benchmark wall-time repetitions, write the baseline JSON
  check     measure the baseline's workload again, print the table of deltas, fail (exit 1)
            when any solve Ir rose by more than --threshold percent; then, for information
            only, compare wall time (median, CV, Mann-Whitney U) with the baseline's samples
  compare   compare two measurement files (baseline format) without running anything: the
            comparator the tests drive with synthetic pairs
  mwu       Mann-Whitney U of two comma-separated samples (for tests and curiosity)

Exit codes: 0 pass, 1 regression, 2 cannot compare (missing tool, stale or unreadable
baseline, a failing driver). The baseline format is described in docs/ci.md.
"""

import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FORMAT = "sudokubench-perf-baseline/1"
MEASURED_FUNCTION = "sb_solve"
DEFAULT_DATASETS = ["datasets/samples/17_clue_2000.txt", "datasets/samples/top1465.txt",
                    "datasets/samples/hardest_11plus_1000.txt"]
EXIT_PASS, EXIT_REGRESSION, EXIT_ERROR = 0, 1, 2


class PerfError(Exception):
    """A condition under which no comparison can be made (exit 2)."""


# ------------------------------------------------------------------------------------------
# Workload: registry, slices
# ------------------------------------------------------------------------------------------

def registry(driver, under_valgrind):
    """Returns (pipelines [(name, generic)], supported SIMD level names) as the driver lists
    them; under valgrind the levels are those of the CPU valgrind emulates."""
    cmd = [driver, "--list"]
    if under_valgrind:
        cmd = ["valgrind", "-q", "--tool=none"] + cmd
    out = run(cmd).stdout
    pipelines, levels = [], []
    for line in out.splitlines():
        row = json.loads(line)
        if "pipeline" in row:
            pipelines.append((row["pipeline"], bool(row["generic"])))
        elif row.get("supported"):
            levels.append(row["simd"])
    return pipelines, levels


def puzzle_lines(path):
    """Returns the file's puzzle lines, stripped, in order: what the reader would not skip
    (comments and blank lines out; the committed samples hold nothing else)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return [s for s in (line.strip() for line in f) if s and not s.startswith("#")]


def slice_sha256(path, n):
    """Returns the sha256 of the slice's first n puzzle lines joined by newlines: a baseline
    whose slice no longer hashes the same measures different work and is stale."""
    lines = puzzle_lines(path)
    return hashlib.sha256("\n".join(lines[:n]).encode()).hexdigest()


def dataset_name(path):
    """Returns the short name of a corpus file (basename without .txt)."""
    base = os.path.basename(path)
    return base[:-4] if base.endswith(".txt") else base


def entry_id(pipeline, simd, dataset):
    """Returns the stable key of a workload entry."""
    return "%s/%s/%s" % (pipeline, simd, dataset_name(dataset))


def planned_entries(driver, datasets):
    """Returns the (pipeline, simd, dataset) triples the registries call for: the fused
    pipeline at every level valgrind can run (its kernels differ per level), each generic
    pipeline at scalar only (portable C: the same instructions at every level)."""
    pipelines, levels = registry(driver, under_valgrind=True)
    out = []
    for name, generic in pipelines:
        for level in (["scalar"] if generic else levels):
            for ds in datasets:
                out.append((name, level, ds))
    return out


def level_coverage(driver):
    """Returns {"gated": [levels valgrind runs], "not_gated": {level: why}} for this CPU: a
    level the CPU has but valgrind cannot emulate (AVX-512 in valgrind 3.19) is not gated,
    and the baseline says so rather than silently measuring another level."""
    _, native = registry(driver, under_valgrind=False)
    _, emulated = registry(driver, under_valgrind=True)
    return {"gated": emulated,
            "not_gated": {lv: "this CPU has it; valgrind cannot run it" for lv in native
                          if lv not in emulated}}


def calibrate(driver, pipeline, simd, dataset, target_s):
    """Returns the number of leading puzzles whose native solve (one process) first takes
    at least target_s, doubling from 4; the whole file when it is faster than that."""
    total = len(puzzle_lines(dataset))
    n = 4
    while True:
        n = min(n, total)
        start = time.perf_counter()
        run([driver, pipeline, simd, str(n), dataset])
        if time.perf_counter() - start >= target_s or n >= total:
            return n
        n *= 2


# ------------------------------------------------------------------------------------------
# Measurement under callgrind
# ------------------------------------------------------------------------------------------

def run(cmd, **kw):
    """Runs cmd, returning the CompletedProcess; raises PerfError with its stderr on
    failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except OSError as e:
        raise PerfError("cannot run %s: %s" % (cmd[0], e))
    if p.returncode != 0:
        raise PerfError("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def parse_callgrind_calls(path, function=MEASURED_FUNCTION):
    """Returns (inclusive Ir of every call to `function`, the number of those calls, total Ir)
    from a callgrind profile written with --compress-strings=no --compress-pos=no. The
    inclusive cost of a call is the cost line that follows its `calls=` line under
    `cfn=function`; summing those over all callers is exact as long as the function does not
    call itself (sb_solve, sb_solve_many and tdoku's solver entry do not)."""
    events, total, inclusive, calls = None, None, 0, 0
    positions = 1  # "positions: line" unless the profile says otherwise
    called = None
    expect_cost = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if expect_cost:
                expect_cost = False
                parts = line.split()
                inclusive += int(parts[positions + events.index("Ir")])
                continue
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif (line.startswith("totals:") or line.startswith("summary:")) and events:
                total = int(line.split()[1 + events.index("Ir")])
            elif line.startswith("cfn="):
                called = line[4:].strip()
            elif line.startswith("fn="):
                called = None
            elif line.startswith("calls=") and called == function:
                calls += int(line[6:].split()[0])
                expect_cost = True
    if events is None or total is None:
        raise PerfError("%s: not a complete callgrind profile" % path)
    if "Ir" not in events:
        raise PerfError("%s: the profile has no Ir event" % path)
    return inclusive, calls, total


def parse_callgrind(path, function=MEASURED_FUNCTION):
    """Returns (inclusive Ir of every call to `function`, total Ir): parse_callgrind_calls
    without the call count."""
    inclusive, _, total = parse_callgrind_calls(path, function)
    return inclusive, total


def measure_one(driver, entry, workdir, function):
    """Runs one entry under callgrind; returns the entry with solve_ir (the inclusive cost
    of function), total_ir and the driver's own figures (puzzles, guesses, verdict counts)
    filled in."""
    out = os.path.join(workdir, entry["id"].replace("/", "__") + ".callgrind")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
           "--compress-strings=no", "--compress-pos=no",
           driver, entry["pipeline"], entry["simd"], str(entry["puzzles"]), entry["dataset"]]
    p = run(cmd)
    figures = json.loads(p.stdout.strip().splitlines()[-1])
    if figures["puzzles"] != entry["puzzles"]:
        raise PerfError("%s: driver solved %d puzzles, the slice has %d"
                        % (entry["id"], figures["puzzles"], entry["puzzles"]))
    solve_ir, total_ir = parse_callgrind(out, function)
    if solve_ir == 0:
        raise PerfError("%s: no cost inside %s (symbol missing? stripped binary?)"
                        % (entry["id"], function))
    result = dict(entry)
    result.update(solve_ir=solve_ir, total_ir=total_ir, guesses=figures["guesses"],
                  solved=figures["solved"], unsolvable=figures["unsolvable"],
                  multiple=figures["multiple"])
    return result


def measure(driver, entries, jobs, function=MEASURED_FUNCTION):
    """Measures every entry (jobs callgrind processes at a time: each is one thread and the
    counts do not depend on what runs beside it); returns them in the given order."""
    if shutil.which("valgrind") is None:
        raise PerfError("valgrind not found (Debian package valgrind; run 'make deps')")
    with tempfile.TemporaryDirectory(prefix="perf_check.") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(measure_one, driver, e, workdir, function)
                       for e in entries]
            return [f.result() for f in futures]


def tool_versions(compiler_cmd):
    """Returns the toolchain facts that make counts comparable: compiler, valgrind."""
    def first_line(cmd):
        try:
            return run(cmd).stdout.splitlines()[0].strip()
        except (PerfError, IndexError):
            return "unknown"
    return {"compiler": first_line(compiler_cmd + ["--version"]),
            "valgrind": first_line(["valgrind", "--version"])}


# ------------------------------------------------------------------------------------------
# Comparison
# ------------------------------------------------------------------------------------------

def pct(new, old):
    """Returns the change from old to new in percent (0 when old is 0 and so is new)."""
    if old == 0:
        return 0.0 if new == 0 else math.inf
    return (new - old) * 100.0 / old


def compare(base, cur, threshold, out=None):
    """Prints the delta table of two measurement documents and returns the exit code: 1 when
    some entry's solve Ir rose by more than threshold percent or a baseline entry was not
    measured, else 0. Notes (not failures): improvements beyond the threshold, changed guess
    counts (the search does different work), a different toolchain, entries only in cur."""
    out = out or sys.stdout
    base_entries = {e["id"]: e for e in base["entries"]}
    cur_entries = {e["id"]: e for e in cur["entries"]}
    notes, regressions, improvements, missing = [], [], [], []
    for key in ("compiler", "flags", "valgrind"):
        b, c = base.get("build", {}).get(key), cur.get("build", {}).get(key)
        if b and c and b != c:
            notes.append("toolchain differs (%s): baseline '%s', now '%s'; a change in counts may "
                         "come from it (refresh with make perf-baseline once reviewed)" % (key, b, c))
    rows = [("entry", "puzzles", "baseline Ir", "current Ir", "delta", "Ir/puzzle", "total delta",
             "verdict")]
    for eid, b in base_entries.items():
        c = cur_entries.get(eid)
        if c is not None and c.get("skipped"):
            notes.append("%s: skipped: %s" % (eid, c["skipped"]))
            rows.append((eid, str(b["puzzles"]), fmt_int(b["solve_ir"]), "-", "-", "-", "-",
                         "skipped"))
            continue
        if c is None:
            missing.append(eid)
            rows.append((eid, str(b["puzzles"]), fmt_int(b["solve_ir"]), "-", "-", "-", "-",
                         "NOT MEASURED"))
            continue
        d = pct(c["solve_ir"], b["solve_ir"])
        verdict = "ok"
        if d > threshold:
            verdict = "REGRESSION"
            regressions.append(eid)
        elif d < -threshold:
            verdict = "improved"
            improvements.append(eid)
        if c.get("guesses") != b.get("guesses"):
            notes.append("%s: guesses %s -> %s: the search itself changed" %
                          (eid, b.get("guesses"), c.get("guesses")))
        rows.append((eid, str(c["puzzles"]), fmt_int(b["solve_ir"]), fmt_int(c["solve_ir"]),
                     "%+.2f%%" % d, fmt_int(c["solve_ir"] // max(1, c["puzzles"])),
                     "%+.2f%%" % pct(c.get("total_ir", 0), b.get("total_ir", 0)), verdict))
    for eid in cur_entries:
        if eid not in base_entries and not cur_entries[eid].get("skipped"):
            notes.append("%s: not in the baseline, not gated (make perf-baseline adds it)" % eid)
    print_table(rows, out)
    for n in notes:
        print("note: " + n, file=out)
    if improvements:
        print("note: %d entr%s improved by more than %.1f%%: make perf-baseline to lock it in"
              % (len(improvements), "y" if len(improvements) == 1 else "ies", threshold), file=out)
    failed = regressions or missing
    print("perf-check: %d entr%s, %d regression%s above +%.1f%%, %d not measured: %s"
          % (len(base_entries), "y" if len(base_entries) == 1 else "ies",
             len(regressions), "" if len(regressions) == 1 else "s",
             threshold, len(missing), "FAIL" if failed else "PASS"), file=out)
    return EXIT_REGRESSION if failed else EXIT_PASS


def fmt_int(n):
    """Returns n with thousands separators."""
    return "{:,}".format(n)


def print_table(rows, out):
    """Prints rows as an aligned Markdown table (first row the header; columns whose cells
    are all numbers, or '-', are right-aligned)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    number = re.compile(r"^([-+]?[0-9][0-9,.]*(e[-+]?[0-9]+)?%?|-)$")
    numeric = [len(rows) > 1 and all(number.match(r[i]) for r in rows[1:])
               for i in range(len(rows[0]))]
    def line(r):
        cells = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(r, widths, numeric)]
        return "| " + " | ".join(cells) + " |"
    print(line(rows[0]), file=out)
    print("|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                         for w, num in zip(widths, numeric)) + "|", file=out)
    for r in rows[1:]:
        print(line(r), file=out)


# ------------------------------------------------------------------------------------------
# Wall time (information only)
# ------------------------------------------------------------------------------------------

def mann_whitney_u(x, y):
    """Returns (U of x, two-sided p) of the Mann-Whitney U test that x and y come from the
    same distribution. Exact null distribution when there are no ties and the samples are
    small (n1*n2 <= 400), else the normal approximation with tie and continuity
    corrections."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("empty sample")
    u = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)
    pooled = sorted(x + y)
    ties = [pooled.count(v) for v in set(pooled)]
    if max(ties) == 1 and n1 * n2 <= 400:
        counts = u_distribution(n1, n2)
        total = sum(counts)
        k = int(round(u))
        lower = sum(counts[:k + 1]) / total
        upper = sum(counts[k:]) / total
        return u, min(1.0, 2.0 * min(lower, upper))
    n = n1 + n2
    mean = n1 * n2 / 2.0
    tie_term = sum(t ** 3 - t for t in ties) / (n * (n - 1))
    var = n1 * n2 / 12.0 * ((n + 1) - tie_term)
    if var <= 0:
        return u, 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2.0)))


def u_distribution(n1, n2):
    """Returns the counts of arrangements giving each U = 0..n1*n2 when neither sample is
    favoured: the number of ways to interleave n1 x's and n2 y's with U x-over-y pairs."""
    # table[j][u]: interleavings of i x's and j y's with U = u, built row by row over i.
    table = [[1] + [0] * (n1 * n2) for _ in range(n2 + 1)]
    for i in range(1, n1 + 1):
        new = [[0] * (n1 * n2 + 1) for _ in range(n2 + 1)]
        for j in range(n2 + 1):
            for u in range(i * j + 1):
                # the largest value is an x (beats all j y's) or a y (beats nothing)
                a = table[j][u - j] if u >= j else 0
                b = new[j - 1][u] if j > 0 else 0
                new[j][u] = a + b
        table = new
    return table[n2]


def gbench_samples(gbench, names, datasets, repetitions, min_time):
    """Runs Google Benchmark on the named benchmarks; returns {name: [items/s per
    repetition]} (random interleaving spreads drift over every benchmark)."""
    regex = "^(" + "|".join(re.escape(n) for n in names) + ")$"
    cmd = [gbench, "--benchmark_filter=" + regex,
           "--benchmark_repetitions=%d" % repetitions,
           "--benchmark_min_time=%g" % min_time,
           "--benchmark_enable_random_interleaving=true",
           "--benchmark_format=json"] + datasets
    doc = json.loads(run(cmd).stdout)
    samples = {}
    for b in doc["benchmarks"]:
        if b.get("run_type") == "iteration" and "items_per_second" in b:
            # six significant digits: far below the run-to-run noise, and a readable file
            samples.setdefault(b["run_name"], []).append(float("%.6g" % b["items_per_second"]))
    return dict(sorted(samples.items()))


def wall_names(gbench, datasets):
    """Returns the wall-time benchmark names: the fused pipeline at every level this CPU
    runs, on each dataset (the generic pipelines are too slow for many repetitions)."""
    out = run([gbench, "--benchmark_list_tests=true"] + datasets).stdout.split()
    return [n for n in out if n.startswith("solve/fast/")]


def cv(xs):
    """Returns the coefficient of variation in percent (0 for fewer than two samples)."""
    return 100.0 * statistics.stdev(xs) / statistics.mean(xs) if len(xs) > 1 else 0.0


def walltime_report(base_wall, cur, alpha=0.05, out=None):
    """Prints median items/s, CV and the Mann-Whitney p of each benchmark in both sample
    sets. Information only: other load on the machine moves wall time, so it never gates."""
    out = out or sys.stdout
    rows = [("benchmark", "base median/s", "CV", "now median/s", "CV", "delta", "p (MWU)",
             "reading")]
    for name, b in sorted(base_wall.items()):
        c = cur.get(name)
        if not c:
            rows.append((name, "%.0f" % statistics.median(b), "%.1f%%" % cv(b), "-", "-", "-",
                         "-", "not run here"))
            continue
        _, p = mann_whitney_u(c, b)
        d = pct(statistics.median(c), statistics.median(b))
        reading = "no significant change"
        if p < alpha:
            reading = "faster" if d > 0 else "slower"
        rows.append((name, "%.0f" % statistics.median(b), "%.1f%%" % cv(b),
                     "%.0f" % statistics.median(c), "%.1f%%" % cv(c), "%+.1f%%" % d,
                     "%.3g" % p, reading))
    print_table(rows, out)


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

def load(path):
    """Returns a measurement document, checking its format tag."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise PerfError("cannot read %s: %s" % (path, e))
    if doc.get("format") != FORMAT:
        raise PerfError("%s: format is %r, expected %r" % (path, doc.get("format"), FORMAT))
    return doc


def save(path, doc):
    """Writes a measurement document (stable key order, one entry per line for review)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(dumps(doc))
    os.replace(path + ".tmp", path)


def dumps(doc):
    """Returns doc as JSON with one entry (or one benchmark's samples) per line, so that a
    refreshed baseline reviews as a diff of the lines that changed."""
    def block(value, indent):
        pad = " " * indent
        if isinstance(value, dict) and value and any(isinstance(v, (dict, list))
                                                     for v in value.values()):
            items = ["%s %s: %s" % (pad, json.dumps(k), block(v, indent + 1))
                     for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + pad + "}"
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ["%s %s" % (pad, json.dumps(v)) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + pad + "]"
        return json.dumps(value)
    return block(doc, 0) + "\n"


def build_info(args):
    """Returns the build facts recorded beside the counts."""
    info = tool_versions(args.cc.split())
    info["flags"] = args.flags
    return info


def check_workload(entries):
    """Raises PerfError when an entry's slice no longer exists or hashes differently."""
    stale = []
    for e in entries:
        if not os.path.exists(e["dataset"]):
            stale.append("%s: %s is missing" % (e["id"], e["dataset"]))
        elif slice_sha256(e["dataset"], e["puzzles"]) != e["slice_sha256"]:
            stale.append("%s: the first %d puzzles of %s changed" %
                         (e["id"], e["puzzles"], e["dataset"]))
    if stale:
        raise PerfError("the baseline measures other inputs than this tree has "
                        "(make perf-baseline):\n  " + "\n  ".join(stale))


def cmd_baseline(args):
    """Writes a new baseline: workload, counts, wall-time samples."""
    old = {}
    if os.path.exists(args.out) and not args.recalibrate:
        old = {e["id"]: e for e in load(args.out)["entries"]}
    entries = []
    for pipeline, simd, ds in planned_entries(args.driver, args.datasets):
        if args.only and "%s:%s" % (pipeline, simd) not in args.only.split(","):
            continue
        eid = entry_id(pipeline, simd, ds)
        if eid in old and old[eid]["dataset"] == ds:
            n = old[eid]["puzzles"]
        elif args.puzzles:
            n = min(args.puzzles, len(puzzle_lines(ds)))
        else:
            n = calibrate(args.driver, pipeline, simd, ds, args.target_ms / 1000.0)
        entries.append({"id": eid, "pipeline": pipeline, "simd": simd, "dataset": ds,
                        "puzzles": n, "slice_sha256": slice_sha256(ds, n)})
    start = time.perf_counter()
    entries = measure(args.driver, entries, args.jobs, args.function)
    doc = {"format": FORMAT, "function": args.function,
           "measure": "callgrind Ir inside %s (inclusive), 1 thread, limit 2" % args.function,
           "build": build_info(args), "levels": level_coverage(args.driver),
           "entries": entries}
    print("perf-baseline: %d entries measured in %.0f s" % (len(entries),
                                                            time.perf_counter() - start))
    if args.gbench:
        names = wall_names(args.gbench, args.datasets)
        doc["walltime"] = {
            "note": "Google Benchmark items/s per repetition; information only",
            "cpu": cpu_model(), "repetitions": args.repetitions, "min_time_s": args.min_time,
            "benchmarks": gbench_samples(args.gbench, names, args.datasets, args.repetitions,
                                         args.min_time)}
    save(args.out, doc)
    rows = [("entry", "puzzles", "solve Ir", "Ir/puzzle", "total Ir", "guesses")]
    for e in entries:
        rows.append((e["id"], str(e["puzzles"]), fmt_int(e["solve_ir"]),
                     fmt_int(e["solve_ir"] // max(1, e["puzzles"])), fmt_int(e["total_ir"]),
                     fmt_int(e["guesses"])))
    print_table(rows, sys.stdout)
    print("perf-baseline: wrote %s" % args.out)
    return EXIT_PASS


def cmd_check(args):
    """Measures the baseline's workload on this tree and gates on it."""
    start = time.perf_counter()
    base = load(args.baseline)
    check_workload(base["entries"])
    todo = [{k: e[k] for k in ("id", "pipeline", "simd", "dataset", "puzzles", "slice_sha256")}
            for e in base["entries"]]
    # A baseline made where valgrind runs AVX2 checked on a CPU without it: those entries
    # cannot be measured here, which is a fact about the machine, not a regression.
    _, emulated = registry(args.driver, under_valgrind=True)
    runnable = [e for e in todo if e["simd"] in emulated]
    skipped = [{"id": e["id"], "skipped": "valgrind cannot run %s on this CPU" % e["simd"]}
               for e in todo if e["simd"] not in emulated]
    function = base.get("function", MEASURED_FUNCTION)
    cur = {"format": FORMAT, "function": function, "build": build_info(args),
           "entries": measure(args.driver, runnable, args.jobs, function) + skipped}
    known = {e["id"] for e in base["entries"]}
    for pipeline, simd, ds in planned_entries(args.driver, sorted({e["dataset"] for e in todo})):
        eid = entry_id(pipeline, simd, ds)
        if eid not in known:
            cur["entries"].append({"id": eid, "puzzles": 0, "solve_ir": 0, "total_ir": 0,
                                   "unmeasured": True})
    if args.current_out:
        save(args.current_out, cur)
    levels = base.get("levels", {})
    print("perf-check: callgrind instructions inside %s; baseline %s; threshold +%.1f%%"
          % (function, args.baseline, args.threshold))
    print("perf-check: SIMD level fixed per entry; gated levels %s%s" % (
        ", ".join(levels.get("gated", [])) or "?",
        "".join("; not gated: %s (%s)" % kv for kv in levels.get("not_gated", {}).items())))
    status = compare(base, cur, args.threshold)
    print("perf-check: counts took %.0f s" % (time.perf_counter() - start))
    if args.gbench and base.get("walltime", {}).get("benchmarks"):
        wall = base["walltime"]
        print("\nwall time (information only, never the gate): Google Benchmark, %d repetitions, "
              "baseline CPU '%s', this CPU '%s'" % (args.repetitions, wall.get("cpu"), cpu_model()))
        try:
            samples = gbench_samples(args.gbench, sorted(wall["benchmarks"]),
                                     args.datasets, args.repetitions, args.min_time)
            walltime_report(wall["benchmarks"], samples)
        except (PerfError, ValueError, KeyError) as e:
            print("wall time: not compared: %s" % e)
    return status


def cmd_compare(args):
    """Compares two measurement documents (no measuring)."""
    return compare(load(args.baseline), load(args.current), args.threshold)


def cmd_mwu(args):
    """Prints U and p of two comma-separated samples."""
    x = [float(v) for v in args.x.split(",")]
    y = [float(v) for v in args.y.split(",")]
    u, p = mann_whitney_u(x, y)
    print("U=%g p=%.6g" % (u, p))
    return EXIT_PASS


def cpu_model():
    """Returns this machine's CPU model name (Linux), else 'unknown'."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main(argv):
    """Parses the command line and runs a command; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    def measuring(p):
        p.add_argument("--driver", default="build/perf/perf_driver")
        p.add_argument("--gbench", help="Google Benchmark binary for the wall-time part")
        p.add_argument("--cc", default="gcc", help="compiler command, recorded with its version")
        p.add_argument("--flags", default="", help="build flags, recorded")
        p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
        p.add_argument("--repetitions", type=int, default=10)
        p.add_argument("--min-time", type=float, default=0.05)
        p.add_argument("--datasets", nargs="+", default=DEFAULT_DATASETS)

    b = sub.add_parser("baseline", help="measure and write a baseline")
    measuring(b)
    b.add_argument("--out", default="bench/baseline.json")
    b.add_argument("--function", default=MEASURED_FUNCTION,
                   help="the function whose inclusive instruction count is gated")
    b.add_argument("--target-ms", type=float, default=100.0,
                   help="native time a new entry's slice should take (default 100)")
    b.add_argument("--puzzles", type=int, help="fixed slice size instead of calibrating")
    b.add_argument("--only", help="comma list of PIPELINE:LEVEL entries to keep")
    b.add_argument("--recalibrate", action="store_true",
                   help="choose every slice anew instead of keeping the old baseline's")
    b.set_defaults(func=cmd_baseline)

    c = sub.add_parser("check", help="measure and compare with the baseline")
    measuring(c)
    c.add_argument("--baseline", default="bench/baseline.json")
    c.add_argument("--threshold", type=float, default=2.0)
    c.add_argument("--current-out", help="also write this run's counts here")
    c.set_defaults(func=cmd_check)

    m = sub.add_parser("compare", help="compare two measurement files")
    m.add_argument("baseline")
    m.add_argument("current")
    m.add_argument("--threshold", type=float, default=2.0)
    m.set_defaults(func=cmd_compare)

    u = sub.add_parser("mwu", help="Mann-Whitney U of two samples")
    u.add_argument("x")
    u.add_argument("y")
    u.set_defaults(func=cmd_mwu)

    args = ap.parse_args(argv)
    try:
        return args.func(args)
    except PerfError as e:
        print("perf-check: error: %s" % e, file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
