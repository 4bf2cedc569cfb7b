"""sbperf.gate — the performance regression gate of `make perf-check` (stdlib only).

The gate counts instructions, not seconds: callgrind runs bench/perf_driver (one thread, one
pipeline, one explicit SIMD level, the first N puzzles of a committed sample) and the gate
takes the instructions executed inside sb_solve, callees included ("solve Ir"; sbperf.measure).
Those counts are the same on every run of the same binary and input, so a 2% threshold needs
no repetitions and never flakes; parsing and I/O fall outside sb_solve and cannot trip it (the
whole process, "total Ir", is shown beside it for information).

With --plugin FILE (a solver plug-in, docs/plugins.md) baseline and check gate that plug-in
instead: one entry per dataset, named after it (NAME/plugin/DATASET), the driver's --plugin
mode counting the instructions inside sb_engine_solve (the library's harness and the
plug-in). Its baseline is a file of its own, which records the plug-in's name: a library
baseline is never checked against a plug-in or overwritten by one, nor the reverse. Before
any counting every answer of the plug-in on the slices is checked natively (solutions
against the givens and the rules, counts against the library's own solver): a wrong one is
exit 2, naming the plug-in and the puzzle.

Usage: python3 -m sbperf.gate COMMAND ...   (PYTHONPATH=scripts)

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

check and compare publish for CI on request (sbperf.publish): --summary FILE appends the
verdict, the exit code and the table as Markdown ($GITHUB_STEP_SUMMARY); --export bmf:FILE
and github:FILE write the counts as `sudokubench bench --export` writes its rows (Bencher
Metric Format; github-action-benchmark's customSmallerIsBetter), --export junit:FILE the
verdicts as a JUnit report, one test case per entry.

Exit codes: 0 pass, 1 regression, 2 cannot compare (missing tool, stale or unreadable
baseline, a failing driver). The baseline format is described in docs/ci.md.
"""

import argparse
import io
import json
import os
import re
import statistics
import sys
import time

from . import publish as publish_mod
from .measure import (MEASURED_FUNCTION, PLUGIN_FUNCTION, PLUGIN_LEVEL, PerfError, cpu_model,
                      dataset_name, driver_cmd, measure, plugin_name, puzzle_lines, registry,
                      run, slice_sha256, tool_versions, verify_plugin)
from .stats import cv, mann_whitney_u, median_change, pct
from .table import fmt_int, print_table

FORMAT = "sudokubench-perf-baseline/1"
# The committed corpora: three of unique puzzles from easy to hard, and the generator's
# workload (full grids dug to 30-40 givens, kept with two solutions or more: the check stops
# at the second solution; datasets/README.md).
DEFAULT_DATASETS = ["datasets/samples/17_clue_2000.txt", "datasets/samples/top1465.txt",
                    "datasets/samples/hardest_11plus_1000.txt",
                    "datasets/multi/dug_2000_seed1.txt"]
EXIT_PASS, EXIT_REGRESSION, EXIT_ERROR = 0, 1, 2


# ------------------------------------------------------------------------------------------
# Workload: the registry's entries, their slices
# ------------------------------------------------------------------------------------------

def entry_id(pipeline, simd, dataset):
    """Returns the stable key of a workload entry."""
    return "%s/%s/%s" % (pipeline, simd, dataset_name(dataset))


def planned_entries(driver, datasets, plugin=None):
    """Returns the (pipeline, simd, dataset) triples the registries call for: the fused
    pipeline at every level valgrind can run (its kernels differ per level), each generic
    pipeline at scalar only (portable C: the same instructions at every level). For a
    plug-in (its name), one triple per dataset at PLUGIN_LEVEL."""
    if plugin:
        return [(plugin, PLUGIN_LEVEL, ds) for ds in datasets]
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


def calibrate(driver, pipeline, simd, dataset, target_s, plugin=None):
    """Returns the number of leading puzzles whose native solve (one process; through the
    plug-in at path plugin when given) first takes at least target_s, doubling from 4; the
    whole file when it is faster than that."""
    total = len(puzzle_lines(dataset))
    n = 4
    while True:
        n = min(n, total)
        start = time.perf_counter()
        run(driver_cmd(driver, pipeline, simd, n, dataset, plugin))
        if time.perf_counter() - start >= target_s or n >= total:
            return n
        n *= 2


# ------------------------------------------------------------------------------------------
# Comparison
# ------------------------------------------------------------------------------------------

def evaluate(base, cur, threshold):
    """Compares two measurement documents; returns {"rows": the delta table (header first),
    "notes", "regressions" [(id, delta %)], "improvements", "missing", "skipped" [(id, why)],
    "verdicts" {id: verdict}, "entries" (the baseline's count), "status": the exit code (1
    when some entry's solve Ir rose by more than threshold percent or a baseline entry was
    not measured, else 0)}. Notes (not failures): changed guess counts (the search does
    different work), a different toolchain, entries only in cur."""
    base_entries = {e["id"]: e for e in base["entries"]}
    cur_entries = {e["id"]: e for e in cur["entries"]}
    notes, regressions, improvements, missing, skipped = [], [], [], [], []
    verdicts = {}
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
            skipped.append((eid, c["skipped"]))
            verdicts[eid] = "skipped"
            rows.append((eid, str(b["puzzles"]), fmt_int(b["solve_ir"]), "-", "-", "-", "-",
                         "skipped"))
            continue
        if c is None:
            missing.append(eid)
            verdicts[eid] = "NOT MEASURED"
            rows.append((eid, str(b["puzzles"]), fmt_int(b["solve_ir"]), "-", "-", "-", "-",
                         "NOT MEASURED"))
            continue
        d = pct(c["solve_ir"], b["solve_ir"])
        verdict = "ok"
        if d > threshold:
            verdict = "REGRESSION"
            regressions.append((eid, d))
        elif d < -threshold:
            verdict = "improved"
            improvements.append((eid, d))
        verdicts[eid] = verdict
        if c.get("guesses") != b.get("guesses"):
            notes.append("%s: guesses %s -> %s: the search itself changed" %
                          (eid, b.get("guesses"), c.get("guesses")))
        rows.append((eid, str(c["puzzles"]), fmt_int(b["solve_ir"]), fmt_int(c["solve_ir"]),
                     "%+.2f%%" % d, fmt_int(c["solve_ir"] // max(1, c["puzzles"])),
                     "%+.2f%%" % pct(c.get("total_ir", 0), b.get("total_ir", 0)), verdict))
    for eid in cur_entries:
        if eid not in base_entries and not cur_entries[eid].get("skipped"):
            notes.append("%s: not in the baseline, not gated (make perf-baseline adds it)" % eid)
    return {"rows": rows, "notes": notes, "regressions": regressions,
            "improvements": improvements, "missing": missing, "skipped": skipped,
            "verdicts": verdicts, "entries": len(base_entries),
            "status": EXIT_REGRESSION if regressions or missing else EXIT_PASS}


def plural(n, one, many):
    """Returns "N one" or "N many"."""
    return "%d %s" % (n, one if n == 1 else many)


def tally(res, threshold):
    """Returns the closing count of a comparison: "24 entries, 0 regressions above +2.0%, 0
    not measured"."""
    return "%s, %s above +%.1f%%, %d not measured" % (
        plural(res["entries"], "entry", "entries"),
        plural(len(res["regressions"]), "regression", "regressions"), threshold,
        len(res["missing"]))


def report(res, threshold, out=None):
    """Prints a comparison (evaluate's result): the table, the notes, the verdict line;
    returns its exit code."""
    out = out or sys.stdout
    print_table(res["rows"], out)
    for n in res["notes"]:
        print("note: " + n, file=out)
    if res["improvements"]:
        print("note: %s improved by more than %.1f%%: make perf-baseline to lock it in"
              % (plural(len(res["improvements"]), "entry", "entries"), threshold), file=out)
    print("perf-check: %s: %s" % (tally(res, threshold), "FAIL" if res["status"] else "PASS"),
          file=out)
    return res["status"]


def compare(base, cur, threshold, out=None):
    """Prints the delta table of two measurement documents and returns the exit code: 1 when
    some entry's solve Ir rose by more than threshold percent or a baseline entry was not
    measured, else 0 (evaluate has the rules)."""
    return report(evaluate(base, cur, threshold), threshold, out)


# ------------------------------------------------------------------------------------------
# Publishing: the Markdown summary, the count exports, the JUnit report (sbperf.publish)
# ------------------------------------------------------------------------------------------

EXIT_MEANING = {EXIT_PASS: "pass", EXIT_REGRESSION: "a count rose above the threshold or an "
                "entry was not measured", EXIT_ERROR: "cannot compare"}


def entry_name(eid, function):
    """Returns an entry's name in the exports: its id, with @FUNCTION appended when the
    gated function is not sb_solve (the history names the paired-search entries so)."""
    return eid if function == MEASURED_FUNCTION else "%s@%s" % (eid, function)


def summary_section(function, baseline, threshold, res, plugin=None):
    """Returns the Markdown section of a comparison: verdict, exit code, counts, table,
    notes; plugin, the gated plug-in's name, is said in the heading and the tally."""
    code = res["status"]
    out = io.StringIO()
    out.write("### perf-check %s%s (`%s`): %s, exit code %d\n\n" % (
        function, ", plug-in %s" % plugin if plugin else "", baseline,
        "PASS" if code == EXIT_PASS else "FAIL", code))
    out.write("Callgrind instructions inside `%s`%s, threshold +%.1f%%: %s (exit code %d: %s).\n"
              % (function, " (the harness and plug-in `%s`)" % plugin if plugin else "",
                 threshold, tally(res, threshold), code, EXIT_MEANING[code]))
    if res["regressions"]:
        out.write("\n**REGRESSION**: %s.\n" % ", ".join(
            "`%s` %+.2f%%" % (eid, d) for eid, d in res["regressions"]))
    if res["missing"]:
        out.write("\n**NOT MEASURED**: %s.\n" % ", ".join("`%s`" % e for e in res["missing"]))
    out.write("\n")
    print_table(res["rows"], out)
    notes = list(res["notes"])
    if res["improvements"]:
        notes.append("%s improved by more than %.1f%%: make perf-baseline to lock it in"
                     % (plural(len(res["improvements"]), "entry", "entries"), threshold))
    if notes:
        out.write("\n" + "".join("- %s\n" % n for n in notes))
    return out.getvalue()


def count_records(base, cur, res, function):
    """Returns the measured entries as export records (name, value: solve Ir, extra)."""
    base_entries = {e["id"]: e for e in base["entries"]}
    out = []
    for c in cur["entries"]:
        if c.get("skipped") or c.get("unmeasured"):
            continue
        b = base_entries.get(c["id"])
        extra = "callgrind Ir inside %s; %d puzzles, %s a puzzle" % (
            function, c["puzzles"], fmt_int(c["solve_ir"] // max(1, c["puzzles"])))
        if b is not None:
            extra += "; baseline %s (%+.2f%%): %s" % (
                fmt_int(b["solve_ir"]), pct(c["solve_ir"], b["solve_ir"]), res["verdicts"][c["id"]])
        else:
            extra += "; not in the baseline"
        out.append({"name": entry_name(c["id"], function), "value": c["solve_ir"],
                    "extra": extra})
    return out


def junit_cases(base, cur, res, function, threshold):
    """Returns the JUnit test cases of a comparison: one per baseline entry."""
    cur_entries = {e["id"]: e for e in cur["entries"]}
    cases = []
    for b in base["entries"]:
        eid, verdict = b["id"], res["verdicts"][b["id"]]
        case = {"name": entry_name(eid, function), "classname": "perf-check." + function}
        if verdict == "REGRESSION":
            c = cur_entries[eid]
            case["failure"] = "%s Ir %+.2f%%, above +%.1f%%" % (
                function, pct(c["solve_ir"], b["solve_ir"]), threshold)
            case["type"] = "REGRESSION"
            case["detail"] = "%s: baseline %s, now %s instructions inside %s" % (
                eid, fmt_int(b["solve_ir"]), fmt_int(c["solve_ir"]), function)
        elif verdict == "NOT MEASURED":
            case["failure"] = "not measured"
            case["type"] = "NOT MEASURED"
        elif verdict == "skipped":
            case["skipped"] = cur_entries[eid]["skipped"]
        cases.append(case)
    return cases


def suite_name(baseline):
    """Returns the JUnit suite of a gate, keyed by its baseline file."""
    return "perf-check %s" % baseline


def publish(args, base, cur, res, function, seconds):
    """Writes the summary section and the exports a gate's options ask for."""
    if args.summary:
        publish_mod.append_summary(args.summary, summary_section(
            function, args.baseline, args.threshold, res, base.get("plugin")))
    for fmt, path in args.exports:
        if fmt == "junit":
            publish_mod.write_junit(path, suite_name(args.baseline),
                                    junit_cases(base, cur, res, function, args.threshold),
                                    seconds)
        else:
            publish_mod.write_counts(fmt, path, count_records(base, cur, res, function))


def publish_error(args, message):
    """Writes what a gate that cannot compare (exit 2) publishes: the error in the summary
    and as the JUnit suite's one error; the count exports are left alone (no counts)."""
    if getattr(args, "summary", None):
        publish_mod.append_summary(args.summary, "### perf-check (`%s`): ERROR, exit code %d\n\n"
                                   "Cannot compare (exit code %d: %s):\n\n```\n%s\n```\n"
                                   % (args.baseline, EXIT_ERROR, EXIT_ERROR,
                                      EXIT_MEANING[EXIT_ERROR], message))
    for fmt, path in getattr(args, "exports", []):
        if fmt == "junit":
            publish_mod.write_junit(path, suite_name(args.baseline), [
                {"name": "perf-check", "classname": "perf-check", "error": "cannot compare",
                 "type": "ERROR", "detail": message}])


# ------------------------------------------------------------------------------------------
# Wall time (information only)
# ------------------------------------------------------------------------------------------

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
        d = median_change(c, b)
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


def unbaselined(planned, known, only):
    """The ids of planned (pipeline, simd, dataset) entries a baseline leaves out and should
    not: those not in known, except the pipeline:level pairs a baseline made with --only
    (only, a list; None: all) left out on purpose (the sb_solve_many gate holds fast:avx2)."""
    out = []
    for pipeline, simd, ds in planned:
        eid = entry_id(pipeline, simd, ds)
        if eid not in known and (not only or "%s:%s" % (pipeline, simd) in only):
            out.append(eid)
    return out


def subject(doc):
    """Returns what a baseline document gates, in words: plug-in 'NAME' or the library's
    function."""
    if doc.get("plugin"):
        return "plug-in '%s'" % doc["plugin"]
    return "the library's %s" % doc.get("function", MEASURED_FUNCTION)


def same_subject(path, doc, plugin, hint):
    """Raises PerfError, ending with hint, unless the baseline doc read from path gates
    plugin (a plug-in's name; None: the library)."""
    if doc.get("plugin") != plugin:
        raise PerfError("%s holds the baseline of %s, not of %s: %s" % (
            path, subject(doc), "plug-in '%s'" % plugin if plugin else "the library", hint))


def plugin_of(args):
    """Returns the name of the plug-in args.plugin names (None without one), after making
    its path absolute (dlopen would search the library path for a bare file name); raises
    PerfError for a plug-in that does not load as a 9x9 solver, or with --gbench."""
    if not args.plugin:
        return None
    if args.gbench:
        raise PerfError("--gbench times the library's pipelines; a plug-in has no wall-time "
                        "part here (sudokubench bench --plugin times it)")
    args.plugin = os.path.abspath(args.plugin)
    return plugin_name(args.driver, args.plugin)


def cmd_baseline(args):
    """Writes a new baseline: workload, counts, wall-time samples."""
    plugin = plugin_of(args)
    if plugin and args.function not in (None, PLUGIN_FUNCTION):
        raise PerfError("--function: a plug-in is counted inside %s" % PLUGIN_FUNCTION)
    function = PLUGIN_FUNCTION if plugin else args.function or MEASURED_FUNCTION
    old = {}
    if os.path.exists(args.out):
        prev = load(args.out)
        same_subject(args.out, prev, plugin, "it is not overwritten (%s)" % (
            "a plug-in's baseline is a file of its own: PERF_BASELINE=FILE" if plugin else
            "the library's baseline is a file of its own"))
        if not args.recalibrate:
            old = {e["id"]: e for e in prev["entries"]}
    entries = []
    for pipeline, simd, ds in planned_entries(args.driver, args.datasets, plugin):
        if args.only and "%s:%s" % (pipeline, simd) not in args.only.split(","):
            continue
        eid = entry_id(pipeline, simd, ds)
        if eid in old and old[eid]["dataset"] == ds:
            n = old[eid]["puzzles"]
        elif args.puzzles:
            n = min(args.puzzles, len(puzzle_lines(ds)))
        else:
            n = calibrate(args.driver, pipeline, simd, ds, args.target_ms / 1000.0,
                          args.plugin)
        entries.append({"id": eid, "pipeline": pipeline, "simd": simd, "dataset": ds,
                        "puzzles": n, "slice_sha256": slice_sha256(ds, n)})
    if plugin:
        verify_plugin(args.driver, args.plugin, plugin, entries)
    start = time.perf_counter()
    entries = measure(args.driver, entries, args.jobs, function, args.plugin)
    doc = {"format": FORMAT, "function": function}
    if plugin:
        doc.update(plugin=plugin, measure="callgrind Ir inside %s (inclusive): the harness "
                   "and plug-in '%s', 1 thread, limit 2" % (function, plugin),
                   build=build_info(args))
    else:
        doc.update(measure="callgrind Ir inside %s (inclusive), 1 thread, limit 2" % function,
                   build=build_info(args), levels=level_coverage(args.driver))
    doc["entries"] = entries
    if args.only:  # what the gate holds on purpose: check notes nothing else as missing
        doc["only"] = args.only.split(",")
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
    plugin = plugin_of(args)
    same_subject(args.baseline, base, plugin, (
        "record the plug-in's own with make perf-baseline PERF_PLUGIN=%s PERF_BASELINE=FILE "
        "and check against that FILE" % args.plugin) if plugin else
        "give PERF_PLUGIN=the plug-in it was recorded for")
    check_workload(base["entries"])
    todo = [{k: e[k] for k in ("id", "pipeline", "simd", "dataset", "puzzles", "slice_sha256")}
            for e in base["entries"]]
    if plugin:
        runnable, skipped = todo, []
        verify_plugin(args.driver, args.plugin, plugin, todo)
    else:
        # A baseline made where valgrind runs AVX2 checked on a CPU without it: those entries
        # cannot be measured here, which is a fact about the machine, not a regression.
        _, emulated = registry(args.driver, under_valgrind=True)
        runnable = [e for e in todo if e["simd"] in emulated]
        skipped = [{"id": e["id"], "skipped": "valgrind cannot run %s on this CPU" % e["simd"]}
                   for e in todo if e["simd"] not in emulated]
    function = base.get("function", MEASURED_FUNCTION)
    cur = {"format": FORMAT, "function": function, "build": build_info(args),
           "entries": measure(args.driver, runnable, args.jobs, function, args.plugin) + skipped}
    if plugin:
        cur["plugin"] = plugin
    known = {e["id"] for e in base["entries"]}
    planned = planned_entries(args.driver, sorted({e["dataset"] for e in todo}), plugin)
    for eid in unbaselined(planned, known, base.get("only")):
        cur["entries"].append({"id": eid, "puzzles": 0, "solve_ir": 0, "total_ir": 0,
                               "unmeasured": True})
    if args.current_out:
        save(args.current_out, cur)
    levels = base.get("levels", {})
    print("perf-check: callgrind instructions inside %s%s; baseline %s; threshold +%.1f%%"
          % (function, ": the harness and plug-in '%s' (%s)" % (plugin, args.plugin)
             if plugin else "", args.baseline, args.threshold))
    if plugin:
        print("perf-check: every answer of '%s' on the slices was checked first: solutions "
              "against the givens and the rules, counts against the library's own" % plugin)
    else:
        print("perf-check: SIMD level fixed per entry; gated levels %s%s" % (
            ", ".join(levels.get("gated", [])) or "?",
            "".join("; not gated: %s (%s)" % kv for kv in levels.get("not_gated", {}).items())))
    res = evaluate(base, cur, args.threshold)
    status = report(res, args.threshold)
    seconds = time.perf_counter() - start
    publish(args, base, cur, res, function, seconds)
    print("perf-check: counts took %.0f s" % seconds)
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
    """Compares two measurement documents (no measuring), publishing like check."""
    base, cur = load(args.baseline), load(args.current)
    res = evaluate(base, cur, args.threshold)
    status = report(res, args.threshold)
    publish(args, base, cur, res, base.get("function", MEASURED_FUNCTION), 0.0)
    return status


def cmd_mwu(args):
    """Prints U and p of two comma-separated samples."""
    x = [float(v) for v in args.x.split(",")]
    y = [float(v) for v in args.y.split(",")]
    u, p = mann_whitney_u(x, y)
    print("U=%g p=%.6g" % (u, p))
    return EXIT_PASS


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
        p.add_argument("--plugin", metavar="FILE",
                       help="gate this solver plug-in instead of the library: one entry "
                       "NAME/plugin/DATASET per dataset, the instructions inside "
                       "sb_engine_solve counted; its baseline is a file of its own")

    b = sub.add_parser("baseline", help="measure and write a baseline")
    measuring(b)
    b.add_argument("--out", default="bench/baseline.json")
    b.add_argument("--function",
                   help="the function whose inclusive instruction count is gated (default "
                   "%s; %s with --plugin)" % (MEASURED_FUNCTION, PLUGIN_FUNCTION))
    b.add_argument("--target-ms", type=float, default=100.0,
                   help="native time a new entry's slice should take (default 100)")
    b.add_argument("--puzzles", type=int, help="fixed slice size instead of calibrating")
    b.add_argument("--only", help="comma list of PIPELINE:LEVEL entries to keep")
    b.add_argument("--recalibrate", action="store_true",
                   help="choose every slice anew instead of keeping the old baseline's")
    b.set_defaults(func=cmd_baseline)

    def publishing(p):
        p.add_argument("--summary", metavar="FILE",
                       help="append the verdict, exit code and table as Markdown to FILE "
                       "(e.g. $GITHUB_STEP_SUMMARY)")
        p.add_argument("--export", metavar="FORMAT:FILE", action="append", default=[],
                       help="also write the counts as bmf (Bencher Metric Format) or github "
                       "(github-action-benchmark's customSmallerIsBetter), or the verdicts as "
                       "junit (JUnit XML); an existing FILE is merged into (repeatable)")

    c = sub.add_parser("check", help="measure and compare with the baseline")
    measuring(c)
    publishing(c)
    c.add_argument("--baseline", default="bench/baseline.json")
    c.add_argument("--threshold", type=float, default=2.0)
    c.add_argument("--current-out", help="also write this run's counts here")
    c.set_defaults(func=cmd_check)

    m = sub.add_parser("compare", help="compare two measurement files")
    publishing(m)
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
        # Bad export options fail before any measuring, as bench's --export does.
        args.exports = publish_mod.parse_exports(getattr(args, "export", None))
    except PerfError as e:
        print("perf-check: error: %s" % e, file=sys.stderr)
        return EXIT_ERROR
    try:
        return args.func(args)
    except PerfError as e:
        print("perf-check: error: %s" % e, file=sys.stderr)
        try:
            publish_error(args, str(e))
        except (PerfError, OSError) as e2:
            print("perf-check: error: %s" % e2, file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
